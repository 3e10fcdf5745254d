package edgeossim

import (
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/hostile"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// The real shell parses the driver's scripts: every hostile value, quoted
// as the driver quotes a wrapper argument (shell.Quote) and written as
// the driver writes a file (shell.HereDocThen), stays one word of data.
// A second command would leave /tmp/rlsentinel (touch is Debian's, in
// the root) or a node of its own named by the sentinel.

// sentinelTraces lists what a second command left on d, and removes it.
func sentinelTraces(d *Device) []string {
	var found []string
	if d.RemoveFile("/tmp/" + hostile.Sentinel) {
		found = append(found, "/tmp/"+hostile.Sentinel)
	}
	for _, l := range d.Leaves() {
		if slices.Contains(l, hostile.Sentinel) {
			found = append(found, strings.Join(l, " "))
		}
	}
	return found
}

const hostileLeaf = "interfaces ethernet eth1 description"

func TestHostileValuesThroughTheRealShell(t *testing.T) {
	// VyOS runs no description action (actions.go): the value is only
	// ever the wrapper's argument.
	s := newSim(t, Options{Flavour: VyOS})
	// The detector sees a second command through the real shell: a
	// value written unquoted runs touch.
	if _, code := s.run(t, script("set "+hostileLeaf+" x && touch /tmp/"+hostile.Sentinel, "commit")); code != 0 {
		t.Fatalf("unquoted: exit %d", code)
	}
	if got := sentinelTraces(s.d); len(got) != 1 {
		t.Fatalf("an unquoted value's second command left %q, want the file", got)
	}
	s = newSim(t, Options{Flavour: VyOS})
	for _, v := range hostile.Values() {
		t.Run(v.Name, func(t *testing.T) {
			out, code := s.run(t, script("set "+hostileLeaf+" "+shell.Quote(v.Text), "commit"))
			if got := sentinelTraces(s.d); len(got) > 0 {
				t.Fatalf("a second command ran: %q", got)
			}
			var stored []string
			for _, l := range s.d.Leaves() {
				if strings.HasPrefix(strings.Join(l, " "), hostileLeaf+" ") {
					stored = append(stored, l[len(l)-1])
				}
			}
			switch {
			case strings.ContainsAny(v.Text, "\n\r\x00"):
				// The CLI refuses a control character (or dash drops
				// a NUL): refused, or stored as one word.
				if code == 0 && len(stored) != 1 {
					t.Errorf("exit 0, stored %q", stored)
				}
			case code != 0 || !slices.Equal(stored, []string{v.Text}):
				t.Errorf("exit %d (%s), stored %q, want %q", code, out, stored, v.Text)
			}
			if len(stored) > 0 {
				if _, code := s.run(t, script("delete "+hostileLeaf, "commit")); code != 0 {
					t.Fatalf("delete: exit %d", code)
				}
			}
			// The same value as a file's content, through the driver's
			// here-document.
			const file = AuthDir + "/hostile"
			write, err := shell.HereDocThen("cat >"+file, " || exit 1", v.Text, "the value")
			if strings.ContainsRune(v.Text, 0) {
				if err == nil {
					t.Error("a NUL byte was accepted for a here-document")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out, code := s.run(t, write); code != 0 {
				t.Fatalf("here-document: exit %d, %s", code, out)
			}
			if got := sentinelTraces(s.d); len(got) > 0 {
				t.Fatalf("a second command ran from the here-document: %q", got)
			}
			want := v.Text
			if !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			if data, _, ok := s.d.File(file); !ok || string(data) != want {
				t.Errorf("file %q, want %q", data, want)
			}
		})
	}
}
