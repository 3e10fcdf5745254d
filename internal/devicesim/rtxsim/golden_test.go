package rtxsim

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func readLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// Seed 001's RTX810 configuration typed in a scrambled order is printed
// in the order and indentation of the published configuration (written by
// hand in testdata, not by the simulator).
func TestSeed001TypedInAnyOrderPrintsInRTXOrder(t *testing.T) {
	want := readLines(t, "seed001_rtx810_config.txt")
	s := newSim(t, Options{Config: []string{}})
	if err := s.Apply(readLines(t, "seed001_typed.txt")...); err != nil {
		t.Fatal(err)
	}
	if got := s.Config(); !slices.Equal(got, want) {
		t.Errorf("show config body:\n%s\nwant (seed 001's order):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The show config output (with its header) read back as Options.Config is
// the same configuration: the format is its own input.
func TestShowConfigReadsBackUnchanged(t *testing.T) {
	for _, name := range []string{"seed001_rtx810_config.txt", "ordering_typed.txt"} {
		first := newSim(t, Options{Config: []string{}})
		if err := first.Apply(readLines(t, name)...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		printed := strings.Split(strings.TrimSuffix(first.showConfig(), "\n"), "\n")
		second := newSim(t, Options{Config: printed})
		if !slices.Equal(second.Config(), first.Config()) {
			t.Errorf("%s: read back\n%s\nwant\n%s", name, strings.Join(second.Config(), "\n"), strings.Join(first.Config(), "\n"))
		}
	}
}

// Every section, a PPPoE and an anonymous (L2TP) pp block, an L2TP tunnel
// whose IPsec policy and gateway numbers differ from the tunnel's, an IKE
// gateway no tunnel uses, two NAT descriptors and two interfaces: the
// whole show config as the client receives it.
func TestShowConfigGolden(t *testing.T) {
	s := newSim(t, Options{Config: []string{}, AdminPassword: "sim-admin"})
	if err := s.Apply(readLines(t, "ordering_typed.txt")...); err != nil {
		t.Fatal(err)
	}
	golden(t, "ordering_show_config.golden", []byte(s.showConfig()))

	seed := newSim(t, Options{Config: readLines(t, "seed001_rtx810_config.txt"), Language: "en"})
	typed := "administrator\r\rconsole lines infinity\rshow config\r"
	golden(t, "seed001_show_config_session.golden", []byte(session(t, seed, typed)))
}
