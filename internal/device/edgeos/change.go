package edgeos

import (
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// FileWrite is a file a change puts on the device before it commits: a
// secret the configuration names by path (an OpenVPN static key in
// /config/auth). Its content travels only inside the script on stdin, as
// a quoted here-document: never on a command line, in the configuration,
// the snapshot or an error.
type FileWrite struct {
	Path    string
	Content string // secret
	// Reload is the operational command that makes the daemon read the
	// file again, run after the commit when the content changed: a new
	// key with the same configuration lines commits nothing, so nothing
	// else would restart the daemon with it.
	Reload []string
}

// Change is one write: the configuration lines of one session, the files
// written before its commit (and put back as they were if it fails), and
// the files removed once it has committed.
type Change struct {
	Lines  []string
	Write  []FileWrite
	Remove []string
}

// Empty reports whether the change does nothing.
func (c Change) Empty() bool { return len(c.Lines) == 0 && len(c.Write) == 0 && len(c.Remove) == 0 }

// oldSuffix names the copy of a file a change replaces, kept until the
// commit succeeds.
const oldSuffix = ".routerlab-old"

// ChangeScript is one change's script (see script.go for the session,
// the restore of a failed commit and the journal of a killed one). Every
// file written is moved aside first, created empty with mode 0600 and
// only then filled (its content is never readable by others, and no
// umask of the session's changes); a failed commit puts the old file back
// (or removes the new one) before the configuration, and so does the EXIT
// trap of a script that fails before it commits, so a failed change
// leaves files and configuration as they were. Removals run after the
// commit. Paths must be plain (letters, digits, / . _ -): they are
// routerlab's own.
func ChangeScript(c Change) (string, error) {
	for _, p := range append(writePaths(c.Write), c.Remove...) {
		if !plainPath(p) {
			return "", fmt.Errorf("file path %q: routerlab writes only plain paths (letters, digits, / . _ -)", p)
		}
	}
	if len(c.Lines) == 0 {
		if len(c.Write) > 0 {
			return "", fmt.Errorf("a change that writes files needs configuration lines to commit with them")
		}
		var b strings.Builder
		for _, p := range c.Remove {
			b.WriteString("rm -f " + p + "\n")
		}
		return b.String(), nil
	}
	p := scriptParts{files: writePaths(c.Write)}
	var before, after, finish strings.Builder
	for _, w := range c.Write {
		content := w.Content
		if !strings.HasSuffix(content, "\n") {
			content += "\n"
		}
		p.rollback = append(p.rollback, fmt.Sprintf(`if [ -e %[1]s%[2]s ]; then mv -f %[1]s%[2]s %[1]s; else rm -f %[1]s; fi`, w.Path, oldSuffix))
		p.dropOld = append(p.dropOld, fmt.Sprintf("rm -f %s%s", w.Path, oldSuffix))
		fmt.Fprintf(&before, "[ ! -e %[1]s ] || mv -f %[1]s %[1]s%[2]s%[3]s", w.Path, oldSuffix, failedAt("keeping the old "+w.Path))
		// shell.HereDocThen is the one guarded writer: no content can end
		// its here-document early. (The content is a secret: an error
		// names the file only.)
		write, err := shell.HereDocThen(fmt.Sprintf(": >%[1]s && chmod 600 %[1]s && cat >>%[1]s", w.Path), strings.TrimSuffix(failedAt("writing "+w.Path), "\n"), content, w.Path)
		if err != nil {
			return "", err
		}
		before.WriteString(write)
		if len(w.Reload) > 0 {
			cmd := OpWrapperPath
			for _, a := range w.Reload {
				cmd += " " + shell.Quote(a)
			}
			msg := shell.Quote("routerlab: committed, but `" + strings.Join(w.Reload, " ") + "` to use the new " + w.Path + " failed")
			cond := fmt.Sprintf("if [ -e %[1]s%[2]s ] && ! cmp -s %[1]s %[1]s%[2]s; then %[3]s", w.Path, oldSuffix, cmd)
			fmt.Fprintf(&after, "%s || { echo %s >&2; exit 1; }; fi\n", cond, msg)
			fmt.Fprintf(&finish, "%s || echo %s; fi\n", cond, msg)
		}
		fmt.Fprintf(&after, "rm -f %s%s\n", w.Path, oldSuffix)
		fmt.Fprintf(&finish, "rm -f %s%s\n", w.Path, oldSuffix)
	}
	for _, r := range c.Remove {
		fmt.Fprintf(&after, "rm -f %s\n", r)
		fmt.Fprintf(&finish, "rm -f %s\n", r)
	}
	p.before, p.after, p.finish = before.String(), after.String(), finish.String()
	return wrapperScript(c.Lines, p)
}

func writePaths(ws []FileWrite) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Path
	}
	return out
}

func plainPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.Contains(p, "..") {
		return false
	}
	for i := 0; i < len(p); i++ {
		if !plainByte(p[i]) {
			return false
		}
	}
	return true
}

func plainByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '.' || c == '_' || c == '-'
}

// Secrets are the secret values c carries: those of its secret lines
// (PSKs, passwords, WireGuard keys) and the content of its files.
func (c Change) Secrets() []string {
	var out []string
	for _, l := range c.Lines {
		if w := SplitLine(l); isSecretLine(w) {
			out = append(out, w[len(w)-1])
		}
	}
	for _, w := range c.Write {
		out = append(out, w.Content)
		for _, l := range strings.Split(w.Content, "\n") {
			// The key's lines, not its markers or comments.
			if l = strings.TrimSpace(l); !strings.HasPrefix(l, "-----") && !strings.HasPrefix(l, "#") {
				out = append(out, l)
			}
		}
	}
	return out
}

// minScrubbed is the shortest secret Scrub replaces: a shorter one would
// garble every message it occurs in by chance.
const minScrubbed = 3

// Scrub replaces every secret in text with RedactedMarker: what a device
// prints back (a value it refused, quoted in its message) never carries
// one into an error.
func Scrub(text string, secrets []string) string {
	for _, s := range secrets {
		if len(s) >= minScrubbed {
			text = strings.ReplaceAll(text, s, RedactedMarker)
		}
	}
	return text
}
