package rtx

import "strings"

// redactEnvironment replaces the value of an environment line,
// `set name=value` (RTX command reference Rev.23.02.02, 4.90 環境変数の設定),
// with RedactedMarker: Lua scripts read their credentials from such
// variables, so a value is treated as a secret. The name stays, so the
// line still says which variable is set. The value may be quoted and
// hold spaces, so every word after the '=' goes.
func redactEnvironment(words []string) ([]string, bool) {
	if len(words) < 2 || words[0] != "set" {
		return words, false
	}
	eq := strings.IndexByte(words[1], '=')
	if eq <= 0 {
		return words, false
	}
	return []string{"set", words[1][:eq+1] + RedactedMarker}, true
}
