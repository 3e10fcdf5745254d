package device

import (
	"strconv"
	"strings"
)

// Helpers every platform parser shares for reading CLI output.

// Lines splits CLI output on \n and drops the \r of CRLF terminals
// (RouterOS and RTX print CRLF over SSH).
func Lines(out string) []string {
	ls := strings.Split(out, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimRight(l, "\r")
	}
	return ls
}

// snippetLen caps how much device output an error message quotes: enough
// to recognise what the device printed, never a whole dump.
const snippetLen = 200

// Snippet quotes the start of some device output for an error message.
func Snippet(out string) string {
	s := strings.TrimSpace(out)
	if len(s) > snippetLen {
		s = s[:snippetLen] + "…"
	}
	return strconv.Quote(s)
}
