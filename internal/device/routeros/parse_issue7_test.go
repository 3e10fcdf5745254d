package routeros

import (
	"strings"
	"testing"
)

// Device output is not trusted: a load that is not a number from 0 to
// 100 is refused with a clear error, which quotes at most a snippet.
func TestParseRejectsImpossibleLoads(t *testing.T) {
	for _, load := range []string{"NaN%", "nan", "Inf%", "+Inf", "-Inf%", "101%", "250", "1e400%", "-1%"} {
		if r, err := ParseResource("cpu-count: 4\ncpu-load: " + load + "\n"); err == nil || !strings.Contains(err.Error(), "not a percentage") {
			t.Errorf("ParseResource(cpu-load: %s) = %+v, %v; want an error", load, r, err)
		}
		table := "Columns: CPU, LOAD, IRQ, DISK\n#  CPU   LOAD  IRQ  DISK\n0  cpu0  12%   3%   0%\n1  cpu1  " + load + "   3%   0%\n"
		if !strings.HasSuffix(load, "%") {
			continue // ParseCPU reads only cells that end in %
		}
		if r, err := ParseCPU(table); err == nil || !strings.Contains(err.Error(), "not a percentage") {
			t.Errorf("ParseCPU(LOAD %s) = %+v, %v; want an error", load, r, err)
		}
	}
	for _, load := range []string{"0%", "100%", "99.5%"} {
		if _, err := ParseResource("cpu-load: " + load + "\n"); err != nil {
			t.Errorf("ParseResource(cpu-load: %s): %v", load, err)
		}
	}
}

func TestParseErrorsQuoteASnippet(t *testing.T) {
	long := strings.Repeat("x", 5000)
	for name, err := range map[string]error{
		"cpu-load":  second(ParseResource("cpu-load: " + long + "%\n")),
		"cpu-count": second(ParseResource("cpu-count: " + long + "\n")),
		"row":       second(ParseCPU("#  CPU   LOAD\n0  cpu0  " + long + "%\n")),
		"no LOAD":   second(ParseCPU("#  CPU   LOAD\n0  cpu0  " + long + "\n")),
	} {
		if err == nil || len(err.Error()) > 600 {
			t.Errorf("%s: error of %d bytes: %.100v", name, len(err.Error()), err)
		}
	}
}

func second[T any](_ T, err error) error { return err }
