package linux

import (
	"regexp"
	"strings"
)

// RedactTranscript redacts Linux session text for a transcript
// (internal/command/transcript). The driver is built so that no secret
// crosses the command path as text a transcript keeps: every script that
// writes one travels on stdin (Driver.run; a transcript keeps its length
// only) inside a here-document that `sh -x` does not trace, and no
// snapshot reads a secret file back (chap-secrets: the user names alone;
// WireGuard: `wg show`, which prints a private key as "(hidden)").
// This is the belt to those braces: a line that looks like a secret
// assignment in any of the formats the driver's tools use — swanctl's
// `secret = x`, WireGuard's `PrivateKey = x` / `private key: x` /
// `PresharedKey = x`, pppd's `password x`, an OpenVPN static key block —
// has its value replaced by "<redacted>". WireGuard's own "(hidden)" is
// kept as it is.
func RedactTranscript(s string) string {
	lines := strings.Split(s, "\n")
	inKey := false
	for i, l := range lines {
		switch {
		case strings.Contains(l, "-----BEGIN OpenVPN Static key"):
			inKey = true
			continue
		case strings.Contains(l, "-----END OpenVPN Static key"):
			inKey = false
			continue
		case inKey:
			lines[i] = redactedValue
			continue
		}
		if m := secretAssignment.FindStringSubmatchIndex(l); m != nil {
			value := l[m[4]:m[5]]
			if value != "" && value != "(hidden)" && value != "(none)" {
				lines[i] = l[:m[4]] + redactedValue + l[m[5]:]
			}
		}
	}
	return strings.Join(lines, "\n")
}

// redactedValue stands for a secret in a transcript.
const redactedValue = "<redacted>"

// secretAssignment finds "key = value", "key: value" and "key value" of
// the secret keys above; group 2 is the value (to the end of the line
// but a carriage return, or a closing quote).
var secretAssignment = regexp.MustCompile(`(?i)\b(secret|psk|private[ _-]?key|preshared[ _-]?key|password)\s*[:=]?\s+"?([^"\r]*)`)
