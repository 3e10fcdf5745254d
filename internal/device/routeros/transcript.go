package routeros

// RedactTranscript replaces the secrets of RouterOS console text, the
// scripts routerlab sends and what the router answers alike (both are
// CLI text: `/ip ipsec identity add ... secret="x"`, an export), for a
// transcript (internal/command/transcript): every value of a secret
// attribute (IsSecretKey: password=, secret=, ipsec-secret=,
// private-key=, ...) reads <redacted>, and every script body <script>,
// because code carries secrets no key names (see scriptBodyKeys). A
// transcript has no menu paths at hand, so `source=` and `script=` count
// as bodies in any menu: a false positive only costs a readable value.
// Quoted values end where RouterOS ends them (escapes, and an export's
// "\" line continuations inside quotes, included); an empty value stays.
func RedactTranscript(s string) string {
	return redactAssignments(s, func(key string) string {
		switch {
		case IsSecretKey(key):
			return redactedMark
		case scriptBodyKeys[key] || key == "source" || key == "script":
			return scriptMark
		}
		return ""
	})
}
