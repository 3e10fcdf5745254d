package rtx

import (
	"strings"
	"testing"
)

// Device output is not trusted: a CPU figure over 100 % is refused with a
// clear error quoting at most a snippet.
func TestParseEnvironmentRejectsImpossibleLoads(t *testing.T) {
	for _, out := range []string{
		"CPU: 101%(5sec)   2%(1min)   2%(5min)    Memory: 20% used\n",
		"CPU0: 3%(5sec)\nCPU1: 250%(5sec)\n",
		"CPU: " + strings.Repeat("9", 400) + "%(5sec)\n",
	} {
		r, err := ParseEnvironment(out)
		if err == nil || !strings.Contains(err.Error(), "not a percentage (a load from 0 to 100)") {
			t.Errorf("ParseEnvironment(%.40q) = %+v, %v; want an error", out, r, err)
		} else if len(err.Error()) > 300 {
			t.Errorf("error of %d bytes", len(err.Error()))
		}
	}
	if r, err := ParseEnvironment("CPU: 100%(5sec)\n"); err != nil || r.Percent != 100 {
		t.Errorf("100%%: %+v, %v", r, err)
	}
}
