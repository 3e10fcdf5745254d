package rtx

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
)

// Lines that carry scripts and their credentials: environment variables
// and aliases, Lua command lines, and the here-documents of embedded files
// and macros. Their secret part is not replaced by the fixed
// RedactedMarker, as a password is, but by a keyed digest
// (<hmac:0123456789abcdef>): a script's body or a variable's value is
// configuration the owner changes, and a change must show as drift in
// the normalised text and its sha256 without the text ever holding it.

// digestPrefix opens the marker that stands for a script's secret part.
const digestPrefix = "<hmac:"

// scriptSecret splits a line that carries a script's secret into the
// words kept, with RedactedMarker as the suffix of the last one where the
// secret was, and the secret as one string; ok is false for other lines.
//
//   - `set NAME=value` (RTX command reference Rev.23.02.02, 4.90 環境変数の
//     設定) and `alias NAME=value` (4.91 エイリアスの設定): Lua scripts read
//     credentials from environment variables, and an alias holds a
//     command line, so the value goes; the name stays. The value may be
//     quoted and hold spaces, so every word after the '=' goes.
//   - `lua [-e stat] [-l module] [-v] [--] [script_file [args ...]]`
//     (46.2 Lua スクリプトの実行), alone or as the command of `schedule at`
//     (37.1): the options' and arguments' words go from the first `-e`
//     or the first argument after script_file on; the script's name and
//     modules stay.
func scriptSecret(words []string) (kept []string, secret string, ok bool) {
	if len(words) >= 2 && (words[0] == "set" || words[0] == "alias") {
		eq := strings.IndexByte(words[1], '=')
		if eq <= 0 {
			return words, "", false
		}
		value := append([]string{words[1][eq+1:]}, words[2:]...)
		return []string{words[0], words[1][:eq+1] + RedactedMarker}, strings.Join(value, " "), true
	}
	at := luaCommandAt(words)
	if at < 0 {
		return words, "", false
	}
	from := -1
	for i := at + 1; i < len(words) && from < 0; i++ {
		switch words[i] {
		case "-e":
			from = i + 1
		case "-l":
			i++ // the module's name
		case "-v":
		case "--":
			if i+2 < len(words) {
				from = i + 2
			}
			i = len(words)
		default:
			if i+1 < len(words) {
				from = i + 1 // after script_file
			}
			i = len(words)
		}
	}
	if from < 0 || from >= len(words) {
		return words, "", false
	}
	kept = append(slices.Clone(words[:from]), RedactedMarker)
	return kept, strings.Join(words[from:], " "), true
}

// luaCommandAt is the index of the `lua` word of a Lua command line: the
// first word, or the first word of the command `schedule at` runs (after
// id, [date], time and an optional select: `schedule at 2 */* 03:00 *
// lua /x.lua`, reference 37.1); -1 for other lines.
func luaCommandAt(words []string) int {
	switch {
	case len(words) > 0 && words[0] == "lua":
		return 0
	case len(words) > 3 && words[0] == "schedule" && words[1] == "at":
		for i := 3; i < len(words); i++ {
			if words[i] == "lua" {
				return i
			}
		}
	}
	return -1
}

// heredocRE is the first line of a command whose body follows as a
// here-document up to a line holding only its terminator: `embedded file
// [-b] filename <<eof` (4.93 EMFS ファイルの作成、削除) and `macro [-v]
// [-x] name <<eom` (4.92 マクロの設定). The terminator is half-width
// letters and digits only (4.93).
var heredocRE = regexp.MustCompile(`^(?:embedded\s+file|macro)\s.*<<([A-Za-z0-9]+)$`)

// heredocTerminator is the terminator a here-document's first line
// names, or "".
func heredocTerminator(line string) string {
	if m := heredocRE.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
		return m[1]
	}
	return ""
}

// secretDigest is the marker for a script's secret part: the first 64
// bits of HMAC-SHA256 over what the secret is (kind: the command words
// before it) and the secret, keyed by the header's serial number and MAC
// addresses.
//
// Why keyed: a plain sha256 of a short value is a guessing oracle; whoever
// reads the state could hash every PIN and compare. The MAC addresses are
// in the header only (not in Facts, the normalised text or parse_config's
// result), so the digest cannot be tested against guesses without the
// router's own output. Weak where the text has no header (a pasted
// configuration without it): the key is then a constant, and a short
// secret in a script is as guessable as its plain hash; and MAC addresses
// are not random (the vendor's prefix and a serial order), so a
// determined guesser with the serial narrows them. Secrets belong in the
// commands that keep them encrypted; this only keeps scripts' from the
// text.
func (h Header) secretDigest(kind, secret string) string {
	mac := hmac.New(sha256.New, []byte("routerlab rtx script digest v1\x00"+h.Serial+"\x00"+strings.Join(h.MACs, ",")))
	mac.Write([]byte(kind + "\x00" + secret))
	return digestPrefix + hex.EncodeToString(mac.Sum(nil)[:8]) + ">"
}

// isMarker tells a word that stands for a secret (RedactedMarker, or a
// digest marker, at the end of the word: `NAME=<redacted>`): it is written
// bare in the text, never quoted.
func isMarker(w string) bool {
	if strings.HasSuffix(w, RedactedMarker) {
		return true
	}
	i := strings.LastIndex(w, digestPrefix)
	if i < 0 || !strings.HasSuffix(w, ">") {
		return false
	}
	h := w[i+len(digestPrefix) : len(w)-1]
	_, err := hex.DecodeString(h)
	return err == nil && len(h) == 16
}

// digestScript is a line's words and text with a script's secret replaced
// by its digest, or ok false when the line carries none.
func (h Header) digestScript(words []string) (kept []string, ok bool) {
	kept, secret, ok := scriptSecret(words)
	if !ok {
		return words, false
	}
	last := strings.TrimSuffix(kept[len(kept)-1], RedactedMarker)
	kind := strings.Join(append(slices.Clone(kept[:len(kept)-1]), last), " ")
	kept[len(kept)-1] = last + h.secretDigest(kind, secret)
	return kept, true
}

// isEnvironmentLine tells `set NAME=value`, RTX's environment variable,
// from the EdgeOS/VyOS `set path value` a pasted text may be: an RTX name
// is letters, digits and '_', starting with a letter (4.90).
func isEnvironmentLine(t string) bool {
	return environmentRE.MatchString(t)
}

var environmentRE = regexp.MustCompile(`^set\s+[A-Za-z][A-Za-z0-9_]*=`)

// heredoc reads a here-document from its first line, lines[0], to the
// line holding only term, and returns how many lines it took and the one
// Line that stands for it: the first line, the body's digest and the
// terminator, one per row of its Text, so the normalised text reads as
// the device printed it with the body replaced. An output cut short
// before the terminator ends the body at its end.
func (h Header) heredoc(lines []string, term string) (int, Line) {
	first := strings.TrimSpace(lines[0])
	n, body := 1, []string{}
	closed := false
	for ; n < len(lines); n++ {
		if strings.TrimRight(lines[n], " \t") == term {
			n++
			closed = true
			break
		}
		body = append(body, lines[n])
	}
	words := SplitWords(first)
	digest := h.secretDigest(first, strings.Join(body, "\n"))
	text := first + "\n" + digest
	if closed {
		text += "\n" + term
	}
	return n, Line{Words: append(words, digest), Text: text}
}
