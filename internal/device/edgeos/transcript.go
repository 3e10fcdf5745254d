package edgeos

import (
	"slices"
	"strings"
)

// RedactTranscript replaces the secrets of EdgeOS and VyOS session text
// for a transcript (internal/command/transcript). The driver's change
// scripts travel on stdin, which a transcript does not keep; what it
// keeps are commands (scripts without secrets) and answers, where
// secrets appear as:
//   - `show configuration commands` lines (`set ... pre-shared-secret
//     'x'`, a secret tag such as an SNMP community): each secret value
//     reads as the parser's RedactedMarker (redactSecrets), the line
//     printed again as VyOS quotes it (both flavours parse that);
//   - the CLI's error paths, `[ interfaces ... password x ]`, likewise;
//   - the journal of an interrupted change, which the snapshot prints
//     under "##journal" and which may hold anything a change wrote: every
//     line but its header (the kind and the files, all the driver reads
//     of it) reads as journalRedacted.
//
// Lines without a secret are kept byte for byte, so a replay parses what
// the device printed.
func RedactTranscript(s string) string {
	lines := strings.Split(s, "\n")
	inJournal := false
	for i, l := range lines {
		body, cr := strings.CutSuffix(l, "\r")
		switch {
		case strings.HasPrefix(body, "##"):
			inJournal = body == "##journal"
			continue
		case inJournal:
			if body != "" && !strings.HasPrefix(body, journalKind) && !strings.HasPrefix(body, journalFile) {
				body = journalRedacted
			}
		default:
			body = redactTranscriptLine(body)
		}
		if cr {
			body += "\r"
		}
		lines[i] = body
	}
	return strings.Join(lines, "\n")
}

// journalRedacted stands for a journal line in a transcript.
const journalRedacted = "# (journal line redacted)"

// redactTranscriptLine is one line of RedactTranscript outside a journal.
func redactTranscriptLine(l string) string {
	trimmed := strings.TrimSpace(l)
	indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
	if inner, ok := strings.CutPrefix(trimmed, "[ "); ok {
		if inner, ok = strings.CutSuffix(inner, " ]"); ok {
			if red, changed := redactWords(append([]string{"set"}, SplitLine(inner)...)); changed {
				return indent + "[ " + strings.TrimPrefix(red, "set ") + " ]"
			}
		}
		return l
	}
	if !strings.HasPrefix(trimmed, "set ") && !strings.HasPrefix(trimmed, "delete ") {
		return l
	}
	if red, changed := redactWords(SplitLine(trimmed)); changed {
		return indent + red
	}
	return l
}

// redactWords redacts one line's words; changed tells whether a secret
// was there, and then the line as VyOS prints it.
func redactWords(words []string) (string, bool) {
	if len(words) < 2 {
		return "", false
	}
	red := slices.Clone(words)
	redactSecrets(red[1:]) // the path, as the parser passes it
	if slices.Equal(red, words) {
		return "", false
	}
	return FormatLine(VyOS, red[0], red[1:], true), true
}
