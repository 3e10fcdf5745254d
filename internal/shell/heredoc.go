package shell

import (
	"fmt"
	"strings"
)

// HereDocEnd is the terminator HereDoc uses unless the body holds it as a
// line of its own.
const HereDocEnd = "ROUTERLAB_EOF"

// HereDoc returns the shell text that runs command with body on its
// standard input through a quoted here-document ("cat > FILE", "nft -f -").
// Inside a quoted here-document the shell expands nothing, and `sh -x` does
// not trace it, so body may carry a secret.
//
// The guard that makes it the one writer every driver uses: the
// terminator is chosen so that no line of body equals it (HereDocEnd, or
// HereDocEnd_2, _3, ... when the body holds that line), so no content can
// end the document early and have its remaining lines run as commands. A
// body that does not end in a newline gets one. A NUL byte cannot be
// carried (shells drop or refuse it, and the file would differ from what
// was rendered): HereDoc then returns an error naming what was written,
// never the body.
func HereDoc(command, body, what string) (string, error) {
	return HereDocThen(command, "", body, what)
}

// HereDocThen is HereDoc with more shell text on the command's line after
// the redirection (" || { echo failed >&2; exit 1; }"); then is routerlab's
// own text, never a value.
func HereDocThen(command, then, body, what string) (string, error) {
	if i := strings.IndexByte(body, 0); i >= 0 {
		return "", fmt.Errorf("%s holds a NUL byte (at byte %d), which a device's files cannot carry", what, i)
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	end := HereDocEnd
	for n := 2; hasLine(body, end); n++ {
		end = fmt.Sprintf("%s_%d", HereDocEnd, n)
	}
	return command + " <<'" + end + "'" + then + "\n" + body + end + "\n", nil
}

// MustHereDoc is HereDoc for bodies routerlab renders from fixed text and
// validated numbers only (nftables rules): it panics on a NUL byte, which
// such a body cannot hold.
func MustHereDoc(command, body string) string {
	s, err := HereDoc(command, body, "rendered text")
	if err != nil {
		panic(err)
	}
	return s
}

func hasLine(body, line string) bool {
	for l := range strings.SplitSeq(body, "\n") {
		if l == line {
			return true
		}
	}
	return false
}
