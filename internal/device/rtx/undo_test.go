package rtx

import (
	"strings"
	"testing"
)

// Undo puts back, in the settings a failed write touched, what the
// configuration held before it, in the reverse order of the write; other
// settings are left alone, and a secret it cannot read back is named.
func TestUndo(t *testing.T) {
	parse := func(s string) *Config {
		c, err := ParseShowConfig("# RTX810 Rev.11.01.34 (Tue Nov 26 18:39:12 2019)\n" + s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	before := parse("ip lan1 mtu 1400\nip route 198.18.5.0/24 gateway 198.18.0.1\nip filter 1 pass * *\n")
	cmds := []Cmd{
		cmd("pp 1", "description", "pp", OwnerMarker+"wan"),
		cmd("", "ip", "lan1", "mtu", "1300"),
		cmd("", "no", "ip", "route", "198.18.5.0/24"),
		cmd("", "ip", "lan2", "address", "198.18.0.2/30"), // refused: never applied
	}
	// The first three applied, and someone else's filter changed meanwhile.
	after := parse("ip lan1 mtu 1300\nip filter 1 reject * *\npp select 1\n description pp routerlab:wan\n")
	back, lost := Undo(before, after, cmds)
	var got []string
	for _, c := range back {
		got = append(got, strings.TrimSpace(c.Section+": "+c.Text()))
	}
	want := []string{": ip route 198.18.5.0/24 gateway 198.18.0.1", ": ip lan1 mtu 1400", "pp 1: no description pp"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(lost) != 0 {
		t.Errorf("Undo = %q, lost %q\nwant %q", got, lost, want)
	}
	// A secret before held cannot be typed back: named, not guessed, and
	// nothing else of the undo is left out.
	before = parse("tunnel select 1\n ipsec ike pre-shared-key 1 text sentinel-old\n")
	after = parse("tunnel select 1\n ipsec tunnel 1\n")
	back, lost = Undo(before, after, []Cmd{cmd("tunnel 1", "no", "ipsec", "ike", "pre-shared-key", "1"), cmd("tunnel 1", "ipsec", "tunnel", "1")})
	if len(back) != 1 || back[0].Text() != "no ipsec tunnel" {
		t.Errorf("Undo = %+v", back)
	}
	if len(lost) != 1 || lost[0] != "tunnel 1: ipsec ike pre-shared-key 1" {
		t.Errorf("lost = %q, want the pre-shared key named", lost)
	}
	for _, c := range back {
		if strings.Contains(c.Text(), "sentinel") {
			t.Errorf("a secret reached the undo: %q", c.Text())
		}
	}
}
