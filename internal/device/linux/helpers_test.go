package linux

import "strings"

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func replaceOnce(s, old, new string) string { return strings.Replace(s, old, new, 1) }
