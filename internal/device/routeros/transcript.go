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
	var cuts []valueCut
	for i := 0; i < len(s); i++ {
		if s[i] != '=' {
			continue
		}
		k := i
		for k > 0 && isPropChar(s[k-1]) {
			k--
		}
		key := s[k:i]
		mark := ""
		switch {
		case k == i:
			continue
		case IsSecretKey(key):
			mark = redactedMark
		case scriptBodyKeys[key] || key == "source" || key == "script":
			mark = scriptMark
		default:
			continue
		}
		end := i + 1
		if end < len(s) && s[end] == '"' {
			end, _ = quotedEnd(s, end)
		} else {
			for end < len(s) && !isCLISpace(s[end]) && s[end] != '\r' {
				end++
			}
		}
		// An empty value ("" or nothing) stays: that none is set is no
		// secret, and the replay needs it as it was.
		if v := s[i+1 : end]; v != "" && v != `""` {
			cuts = append(cuts, valueCut{i + 1, end, mark})
			i = end - 1
		}
	}
	return spliceCuts(s, cuts)
}
