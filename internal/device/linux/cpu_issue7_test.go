package linux

import (
	"strings"
	"testing"
)

// Counters whose sum wraps 64 bits would make busy exceed total (loads
// over 100 %): refused. Errors quote at most a snippet of the line.
func TestParseProcStatRejectsOverflowAndCapsErrors(t *testing.T) {
	huge := "18446744073709551615" // 2^64-1
	out := "cpu  " + huge + " 0 10 " + huge + " 0 0 0 0 0 0\n"
	if s, err := ParseProcStat(out); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("ParseProcStat(wrapping counters) = %+v, %v; want an error", s, err)
	}
	long := "cpu  1 2 3 4 5 6 7 " + strings.Repeat("8", 5000) + "x\n"
	_, err := ParseProcStat(long)
	if err == nil || len(err.Error()) > 600 {
		t.Errorf("error of %d bytes for a 5000-byte line: %.100v", len(err.Error()), err)
	}
	// At the edge without wrapping: fine.
	if s, err := ParseProcStat("cpu  18446744073709551614 0 0 1 0 0 0 0 0 0\n"); err != nil || s.Total[0] != 18446744073709551615 || s.Busy[0] != 18446744073709551614 {
		t.Errorf("ParseProcStat(max) = %+v, %v", s, err)
	}
}
