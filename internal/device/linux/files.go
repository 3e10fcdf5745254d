package linux

import (
	"errors"
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// fileScript is a script being rendered that writes files. Every file the
// Linux driver writes goes through write, that is through shell.HereDoc,
// the one guarded writer: no content can end its here-document early, so
// no value can become a command. The first content it cannot carry (a NUL
// byte) is kept in err and fails the render, so nothing is sent.
type fileScript struct {
	strings.Builder
	err error
}

// printf adds script text (strings.Builder's writes cannot fail).
func (s *fileScript) printf(format string, args ...any) { fmt.Fprintf(&s.Builder, format, args...) }

// write adds "cat > path" with body as its here-document.
func (s *fileScript) write(path, body string) {
	s.feed("cat > "+shell.Quote(path), body, path)
}

// feed adds command with body on its stdin ("nft -f -").
func (s *fileScript) feed(command, body, what string) {
	text, err := shell.HereDoc(command, body, what)
	s.err = errors.Join(s.err, err)
	s.WriteString(text)
}

// result is the script, or the first thing it could not carry.
func (s *fileScript) result() (string, error) {
	if s.err != nil {
		return "", s.err
	}
	return s.String(), nil
}
