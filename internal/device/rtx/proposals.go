package rtx

import (
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// IKE and ESP algorithms in RTX's words (command reference, IPsec
// chapter: `ipsec ike encryption` 3des-cbc des-cbc aes-cbc aes256-cbc;
// `ipsec ike hash` md5 sha sha256 (sha384 and sha512 not on RTX810, RTX830,
// RTX1210); `ipsec ike group` modp768 modp1024 modp1536 modp2048; `ipsec
// sa policy ... esp` 3des-cbc des-cbc aes-cbc aes256-cbc with md5-hmac
// sha-hmac sha256-hmac), for the strongSwan names routerlab's proposals
// use. RTX sets one suite per gateway; IKEv2 negotiates any suite it
// supports unless `ipsec ike proposal-limitation` is on, so an IKEv2
// tunnel also accepts a peer proposing another supported suite.
var (
	ikeEncryptions = map[string]string{"aes128": "aes-cbc", "aes256": "aes256-cbc", "3des": "3des-cbc"}
	ikeHashes      = map[string]string{"md5": "md5", "sha1": "sha", "sha256": "sha256"}
	ikeGroups      = map[string]string{"modp1024": "modp1024", "modp1536": "modp1536", "modp2048": "modp2048"}
	espEncryptions = map[string]string{"aes128": "aes-cbc", "aes256": "aes256-cbc", "3des": "3des-cbc"}
	espHashes      = map[string]string{"md5": "md5-hmac", "sha1": "sha-hmac", "sha256": "sha256-hmac"}
)

// The device's defaults, which it does not print: a proposal equal to
// them writes no line.
const (
	defaultIKEEncryption = "3des-cbc"
	defaultIKEHash       = "sha"
	defaultIKEGroup      = "modp1024"
	defaultESPEncryption = "aes-cbc"
)

// rtxProposal is one IKE or ESP suite in RTX's words; DH is the group
// (IKE), or for ESP the PFS group ("" without PFS).
type rtxProposal struct{ Encryption, Hash, DH string }

// oneProposal translates the one proposal RTX can set, naming the first
// value RTX cannot do and what it can.
func oneProposal(what string, list []string, ike bool) (rtxProposal, error) {
	if len(list) != 1 {
		return rtxProposal{}, fmt.Errorf("%s: RTX sets one suite per tunnel, got %d; give one proposal (an IKEv2 tunnel still accepts a peer proposing another suite RTX supports)", what, len(list))
	}
	p, err := device.ParseProposal(list[0], ike)
	if err != nil {
		return rtxProposal{}, fmt.Errorf("%s: %w", what, err)
	}
	encs, hashes := espEncryptions, espHashes
	if ike {
		encs, hashes = ikeEncryptions, ikeHashes
	}
	var r rtxProposal
	var ok bool
	if r.Encryption, ok = encs[p.Encryption]; !ok {
		return r, fmt.Errorf("%s %q: encryption %q is not supported on RTX; allowed are %s", what, list[0], p.Encryption, strings.Join(device.SortedKeys(encs), ", "))
	}
	if r.Hash, ok = hashes[p.Integrity]; !ok {
		return r, fmt.Errorf("%s %q: integrity %q is not supported on RTX810, RTX830 and RTX1210; allowed are %s", what, list[0], p.Integrity, strings.Join(device.SortedKeys(hashes), ", "))
	}
	if p.DHGroup != "" {
		if r.DH, ok = ikeGroups[p.DHGroup]; !ok {
			return r, fmt.Errorf("%s %q: DH group %q is not supported on RTX; allowed are %s", what, list[0], p.DHGroup, strings.Join(device.SortedKeys(ikeGroups), ", "))
		}
	}
	return r, nil
}

// proposalName is the strongSwan name of an RTX suite.
func proposalName(encs, hashes map[string]string, enc, hash, dh string) string {
	parts := []string{reverse(encs, enc), reverse(hashes, hash)}
	if dh != "" {
		parts = append(parts, reverse(ikeGroups, dh))
	}
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "-")
}

// reverse maps an RTX value back to strongSwan's name; an unknown value
// is returned as it is (it then fails validation visibly).
func reverse(m map[string]string, v string) string {
	for k, x := range m {
		if x == v {
			return k
		}
	}
	return v
}
