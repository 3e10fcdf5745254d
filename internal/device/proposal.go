package device

import (
	"fmt"
	"slices"
	"strings"
)

// Proposal is one IKE or ESP cipher suite in strongSwan's notation
// ("aes128-sha256-modp2048"), the common language of the seeds: each
// platform translates it (RouterOS `enc-algorithms`/`auth-algorithms`/
// `dh-group`, EdgeOS `encryption`/`hash`/`dh-group`, RTX `ipsec ike
// encryption`/`hash`/`group`).
type Proposal struct {
	Encryption string // aes128, aes256, aes128gcm16, chacha20poly1305, 3des, …
	Integrity  string // sha1, sha256, …; empty for AEAD ciphers
	PRF        string // prfsha256, …: IKE with an AEAD cipher only
	DHGroup    string // modp2048, ecp256, curve25519, …; optional for ESP (PFS)
}

// Known algorithm names, as strongSwan spells them.
var (
	ProposalEncryptions = []string{"aes128", "aes192", "aes256", "3des", "aes128gcm16", "aes192gcm16", "aes256gcm16", "chacha20poly1305"}
	ProposalIntegrities = []string{"md5", "sha1", "sha256", "sha384", "sha512", "aesxcbc"}
	ProposalPRFs        = []string{"prfsha1", "prfsha256", "prfsha384", "prfsha512"}
	ProposalDHGroups    = []string{"modp1024", "modp1536", "modp2048", "modp3072", "modp4096", "modp6144", "modp8192", "ecp256", "ecp384", "ecp521", "curve25519", "x25519", "curve448"}
)

// IsAEAD reports whether enc authenticates by itself (no integrity
// algorithm).
func IsAEAD(enc string) bool {
	return strings.Contains(enc, "gcm") || enc == "chacha20poly1305"
}

func exampleProposal(ike bool) string {
	if ike {
		return "aes128-sha256-modp2048"
	}
	return "aes128-sha256"
}

// String renders p in strongSwan's notation.
func (p Proposal) String() string {
	parts := []string{p.Encryption}
	for _, s := range []string{p.Integrity, p.PRF, p.DHGroup} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "-")
}

// ParseProposal reads one proposal. IKE proposals need a DH group and an
// integrity algorithm (or a PRF with an AEAD cipher); ESP proposals need an
// integrity algorithm unless the cipher is AEAD, and may name a DH group
// for PFS. The error names the part that is wrong and what is allowed.
func ParseProposal(s string, ike bool) (Proposal, error) {
	kind := "esp"
	if ike {
		kind = "ike"
	}
	bad := func(format string, a ...any) (Proposal, error) {
		return Proposal{}, fmt.Errorf("%s proposal %q: %s (example: %q)", kind, s, fmt.Sprintf(format, a...), exampleProposal(ike))
	}
	if strings.HasSuffix(s, "!") {
		return bad("drop the trailing '!': routerlab always proposes exactly the suites listed")
	}
	parts := strings.Split(s, "-")
	if s == "" || slices.Contains(parts, "") {
		return bad("want algorithms separated by '-'")
	}
	var p Proposal
	p.Encryption = parts[0]
	if !slices.Contains(ProposalEncryptions, p.Encryption) {
		return bad("unknown encryption %q; allowed are %s", p.Encryption, strings.Join(ProposalEncryptions, ", "))
	}
	for _, part := range parts[1:] {
		switch {
		case slices.Contains(ProposalIntegrities, part) && p.Integrity == "" && p.PRF == "" && p.DHGroup == "":
			p.Integrity = part
		case slices.Contains(ProposalPRFs, part) && p.PRF == "" && p.DHGroup == "" && ike:
			p.PRF = part
		case slices.Contains(ProposalDHGroups, part) && p.DHGroup == "":
			p.DHGroup = part
		default:
			return bad("unexpected %q: after the encryption come an integrity algorithm (%s), for IKE with an AEAD cipher a PRF (%s), then a DH group (%s)",
				part, strings.Join(ProposalIntegrities, ", "), strings.Join(ProposalPRFs, ", "), strings.Join(ProposalDHGroups, ", "))
		}
	}
	aead := IsAEAD(p.Encryption)
	switch {
	case aead && p.Integrity != "":
		return bad("%s is an AEAD cipher and takes no integrity algorithm", p.Encryption)
	case !aead && p.Integrity == "":
		return bad("an integrity algorithm is required with %s; allowed are %s", p.Encryption, strings.Join(ProposalIntegrities, ", "))
	case ike && p.DHGroup == "":
		return bad("an IKE proposal needs a DH group; allowed are %s", strings.Join(ProposalDHGroups, ", "))
	}
	return p, nil
}
