package edgeossim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// A description the shell quoted reaches the wrapper as one word, and the
// line `show configuration commands` prints reads back as that value
// (both flavours; a value with a single quote cannot be read back on the
// device, which does not escape it, so it is only checked to be stored;
// on EdgeOS a value the description's shell action interprets is not
// data at all, see actions.go).
func FuzzDescriptionRoundTrip(f *testing.F) {
	for _, s := range []string{"WAN to internal", "a", "", "it's", "$(reboot)", "tab\there", `back\slash`, "x  y"} {
		f.Add(s)
	}
	devs := []*Device{New(Options{}), New(Options{Flavour: VyOS})}
	f.Cleanup(func() {
		for _, d := range devs {
			_ = d.Close()
		}
	})
	f.Fuzz(func(t *testing.T, v string) {
		for _, d := range devs {
			var out, errb bytes.Buffer
			code := d.Exec(script("set interfaces ethernet eth1 description "+shell.Quote(v), "commit"), nil, &out, &errb)
			if strings.ContainsAny(v, "\n\x00") {
				if code == 0 {
					t.Fatalf("%q accepted", v)
				}
				continue
			}
			// On EdgeOS the commit runs the description's update action
			// with the value inside a double-quoted shell word
			// (actions.go), in the real shell: what the shell interprets
			// there is not data.
			if d.flavour == EdgeOS && strings.ContainsAny(v, "$`\"\\") {
				continue
			}
			if code != 0 {
				t.Fatalf("%q: exit %d: %s %s", v, code, out.String(), errb.String())
			}
			var line string
			for _, l := range d.Lines() {
				if strings.HasPrefix(l, "set interfaces ethernet eth1 description ") {
					line = l
				}
			}
			if strings.Contains(v, "'") {
				continue
			}
			words, err := splitSetLine(line)
			if err != nil || len(words) != 5 || words[4] != v {
				t.Fatalf("%q printed as %q, read back %q (%v)", v, line, words, err)
			}
		}
	})
}
