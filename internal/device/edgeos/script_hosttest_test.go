package edgeos

import "strings"

// forHost points a change script at a fake wrapper and at dir for the
// files it keeps under /config, to run it with the host's sh.
func forHost(s, dir, fake string) string {
	s = strings.ReplaceAll(s, "W="+WrapperPath, "W="+fake)
	s = strings.ReplaceAll(s, OpWrapperPath, fake)
	for _, p := range []string{BeforePath, AfterPath, JournalPath, FinishPath} {
		s = strings.ReplaceAll(s, p, dir+"/"+strings.TrimPrefix(p, "/config/"))
	}
	return s
}

// fakeSave is the part of a fake wrapper that makes `save FILE` write
// the file.
const fakeSave = "[ \"$1\" = save ] && [ -n \"$2\" ] && { echo cfg >\"$2\"; exit 0; }\n"
