// Package shell quotes values for POSIX sh command lines sent to devices
// and hosts.
package shell

import "strings"

// Quote quotes s for a POSIX shell: inside single quotes every byte is
// literal, and a single quote is closed, escaped and reopened. Values made
// only of safe characters are returned as they are, for readable commands.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		safe := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@=+,", r)
		return !safe
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
