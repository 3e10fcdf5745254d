package rossim

import "testing"

func TestVersionParsing(t *testing.T) {
	for s, want := range map[string]version{
		"6.44": {6, 44, 0}, "6.49.10": {6, 49, 10}, "7.13.4": {7, 13, 4},
		"7.16beta7": {7, 16, 0}, "7.17rc2": {7, 17, 0}, "7.20beta4": {7, 20, 0},
	} {
		if got, err := parseVersion(s); err != nil || got != want {
			t.Errorf("%s: %v %v", s, got, err)
		}
	}
	for _, s := range []string{"", "7", "8.1", "5.26", "7.x", "7.16beta", "7.16gamma1", "7.1.2.3", "7.16beta1.2", "7.-1"} {
		if v, err := parseVersion(s); err == nil {
			t.Errorf("%q reads as %v", s, v)
		}
	}
	for _, c := range []struct {
		cond versionCond
		v    string
		want bool
	}{
		{"", "6.44", true},
		{"v6", "6.49.10", true}, {"v6", "7.1", false}, {"v7", "7.1", true},
		{"since=6.45", "6.44.6", false}, {"since=6.45", "6.45", true}, {"since=6.45", "7.11", true},
		{"before=6.45", "6.44.6", true}, {"before=6.45", "6.45.1", false},
		{"since=7.17", "7.16.2", false}, {"since=7.17", "7.17rc1", true}, {"before=7.17", "7.16.2", true},
		{"since=7.15,before=7.17", "7.16", true}, {"since=7.15,before=7.17", "7.17", false},
		{"v7,before=7.16", "6.49", false},
	} {
		v, err := parseVersion(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := c.cond.holds(v); err != nil || got != c.want {
			t.Errorf("%q holds for %s: %v %v", c.cond, c.v, got, err)
		}
	}
	if _, err := versionCond("since=7").holds(version{7, 1, 0}); err == nil {
		t.Errorf("since=7 accepted")
	}
	// A pre-release of a version the old parser could not read starts.
	if got := New(Options{Version: "7.16beta7"}).Version(); got != "7.16beta7" {
		t.Errorf("version %q", got)
	}
}
