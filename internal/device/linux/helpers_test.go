package linux

import "strings"

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func replaceOnce(s, from, to string) string { return strings.Replace(s, from, to, 1) }
