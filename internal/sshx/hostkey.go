package sshx

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// ParseHostKey parses a pinned host key given as one authorized_keys-format
// line: "TYPE BASE64 [comment]". Options, several keys, and known_hosts lines
// (which start with a host pattern) are rejected so that what is pinned is
// unambiguous.
func ParseHostKey(line string) (ssh.PublicKey, error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return nil, errors.New("empty host key")
	}
	if strings.ContainsAny(line, "\r\n") {
		return nil, errors.New("host key must be a single line")
	}
	key, _, options, rest, err := ssh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		return nil, fmt.Errorf("not an authorized_keys line (want \"ssh-ed25519 AAAA... [comment]\"): %w", err)
	}
	if len(options) > 0 {
		return nil, fmt.Errorf("unexpected text %q before the key type (want \"TYPE BASE64 [comment]\", not a known_hosts line)", strings.Join(options, ","))
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, errors.New("host key must be a single line")
	}
	return key, nil
}

// Fingerprint returns the OpenSSH SHA256 fingerprint, "SHA256:...".
func Fingerprint(k ssh.PublicKey) string { return ssh.FingerprintSHA256(k) }

// KeyLine renders k as an authorized_keys line without trailing newline, the
// format accepted by ParseHostKey / host_key.
func KeyLine(k ssh.PublicKey) string {
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
}

// hostKeyPolicy is the host key verification for one hop.
type hostKeyPolicy struct {
	callback ssh.HostKeyCallback
	// algorithms restricts what the server may present. A server usually has
	// several host keys (rsa, ecdsa, ed25519) and presents the one it likes
	// best among those we offer; offering only the pinned/known types makes it
	// present the key we can actually verify instead of failing as a mismatch.
	algorithms []string
	insecure   bool
}

// newHostKeyPolicy builds the policy for ep. Precedence: a pinned HostKey
// wins, else KnownHostsFile, else InsecureIgnoreHostKey (with a warning at
// dial time), else ErrNoHostKeyPolicy. addr is "host:port" as dialled.
func newHostKeyPolicy(ep Endpoint, addr string, warnf func(string, ...any)) (*hostKeyPolicy, error) {
	switch {
	case strings.TrimSpace(ep.HostKey) != "":
		pinned, err := ParseHostKey(ep.HostKey)
		if err != nil {
			return nil, &ConfigError{Field: "host_key", Msg: err.Error()}
		}
		return pinnedPolicy(pinned, addr), nil

	case ep.KnownHostsFile != "":
		return knownHostsPolicy(ep.KnownHostsFile, addr)

	case ep.InsecureIgnoreHostKey:
		return &hostKeyPolicy{
			insecure: true,
			callback: func(_ string, _ net.Addr, key ssh.PublicKey) error {
				if warnf != nil {
					warnf("insecure_ignore_host_key is set for %s: the host key is NOT verified (server presented %s %s); pin it with host_key = %q",
						addr, key.Type(), Fingerprint(key), KeyLine(key))
				}
				return nil
			},
		}, nil
	}
	return nil, ErrNoHostKeyPolicy
}

func pinnedPolicy(pinned ssh.PublicKey, addr string) *hostKeyPolicy {
	want := pinned.Marshal()
	return &hostKeyPolicy{
		algorithms: algorithmsForKeyTypes([]string{pinned.Type()}),
		callback: func(_ string, _ net.Addr, key ssh.PublicKey) error {
			if bytes.Equal(key.Marshal(), want) {
				return nil
			}
			return &HostKeyMismatchError{
				Host:          addr,
				Expected:      []string{Fingerprint(pinned)},
				Presented:     Fingerprint(key),
				PresentedType: key.Type(),
			}
		},
	}
}

func knownHostsPolicy(file, addr string) (*hostKeyPolicy, error) {
	path, err := expandHome(file)
	if err != nil {
		return nil, &ConfigError{Field: "known_hosts_file", Msg: fmt.Sprintf("%q: %v", file, err)}
	}
	cb, err := knownhosts.New(path)
	if err != nil {
		return nil, &ConfigError{Field: "known_hosts_file", Msg: fmt.Sprintf("%q: %v", file, err)}
	}

	// knownhosts has no API listing the keys of a host; asking it about a
	// throwaway key that cannot be in the file makes it return them all in a
	// KeyError. We use them to restrict HostKeyAlgorithms.
	var algs []string
	if probe, err := throwawayKey(); err == nil {
		var ke *knownhosts.KeyError
		if errors.As(cb(addr, dummyAddr, probe), &ke) {
			types := make([]string, 0, len(ke.Want))
			for _, k := range ke.Want {
				types = append(types, k.Key.Type())
			}
			algs = algorithmsForKeyTypes(types)
		}
	}

	return &hostKeyPolicy{
		algorithms: algs,
		callback: func(hostname string, remote net.Addr, key ssh.PublicKey) error {
			err := cb(hostname, remote, key)
			var ke *knownhosts.KeyError
			if !errors.As(err, &ke) {
				return err // nil, or e.g. a *knownhosts.RevokedError
			}
			if len(ke.Want) == 0 {
				return &UnknownHostError{
					Host:           addr,
					Presented:      Fingerprint(key),
					KeyLine:        KeyLine(key),
					KnownHosts:     file,
					KnownHostsLine: knownhosts.Line([]string{knownhosts.Normalize(addr)}, key),
				}
			}
			exp := make([]string, 0, len(ke.Want))
			for _, k := range ke.Want {
				exp = append(exp, Fingerprint(k.Key))
			}
			return &HostKeyMismatchError{
				Host:          addr,
				Expected:      exp,
				Presented:     Fingerprint(key),
				PresentedType: key.Type(),
				KnownHosts:    file,
			}
		},
	}, nil
}

// dummyAddr is handed to knownhosts for the probe; it only needs to parse,
// knownhosts prefers the dialled hostname.
var dummyAddr = &net.TCPAddr{IP: net.IPv4zero, Port: 22}

func throwawayKey() (ssh.PublicKey, error) {
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	return ssh.NewPublicKey(pub)
}

// algorithmsForKeyTypes maps host key types to the signature algorithms a
// server may use with them. An RSA key can sign with SHA-2 variants, which
// must be offered or modern servers refuse plain ssh-rsa.
func algorithmsForKeyTypes(types []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(a string) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	for _, t := range types {
		switch t {
		case ssh.KeyAlgoRSA:
			add(ssh.KeyAlgoRSASHA512)
			add(ssh.KeyAlgoRSASHA256)
			add(ssh.KeyAlgoRSA)
		case ssh.CertAlgoRSAv01:
			add(ssh.CertAlgoRSASHA512v01)
			add(ssh.CertAlgoRSASHA256v01)
			add(ssh.CertAlgoRSAv01)
		default:
			add(t)
		}
	}
	return out
}

// expandHome expands a leading "~/" (or a lone "~") to the user's home
// directory, as OpenSSH does for UserKnownHostsFile.
func expandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot expand ~: %w", err)
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
}

// splitHostPort is net.SplitHostPort that never fails, for messages.
func splitHostPort(addr string) (host, port string) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, "22"
	}
	return h, p
}
