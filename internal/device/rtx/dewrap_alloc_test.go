package rtx

import (
	"runtime"
	"strings"
	"testing"
)

// fullRows is hostile console output: n rows each a full 80-column row
// (79 characters), so dewrap joins them all into one logical line.
func fullRows(n int) []string {
	rows := make([]string, n)
	for i := range rows {
		rows[i] = strings.Repeat("x", 79)
	}
	return rows
}

// dewrapTargetBytesPerInputByte is the allocation budget: a linear
// dewrap copies each byte into the builder (which may double once or
// twice as it grows) and once out; four bytes per input byte leaves room
// and is three orders of magnitude below the old quadratic join.
const dewrapTargetBytesPerInputByte = 4.0

func dewrapBytesPerInputByte(rows []string) float64 {
	in := 0
	for _, r := range rows {
		in += len(r)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out := dewrap(rows, []int{80})
	runtime.ReadMemStats(&after)
	if len(out) != 1 || len(out[0]) != in {
		panic("dewrap did not join the full rows into one line")
	}
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(in)
}

// TestDewrapIsLinear: 160 KB of full rows (issue 23, point 8) must cost
// memory in proportion to the input, not to its square.
func TestDewrapIsLinear(t *testing.T) {
	rows := fullRows(160 * 1024 / 79)
	if got := dewrapBytesPerInputByte(rows); got > dewrapTargetBytesPerInputByte {
		t.Fatalf("dewrap of %d full rows allocated %.1f bytes per input byte, want at most %.1f", len(rows), got, dewrapTargetBytesPerInputByte)
	}
}

// TestDewrapKeepsPiecesAndSingles: the builder path gives the same
// lines as joining the pieces would, and unwrapped rows stay as they are.
func TestDewrapKeepsPiecesAndSingles(t *testing.T) {
	a, b := strings.Repeat("a", 79), strings.Repeat("b", 79)
	got := dewrap([]string{"ip route default gateway 198.18.0.1", a, b, "c", "ip lan1 address 198.18.1.1/24", a, "d"}, []int{80})
	want := []string{"ip route default gateway 198.18.0.1", a + b + "c", "ip lan1 address 198.18.1.1/24", a + "d"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("dewrap = %q, want %q", got, want)
	}
}

// BenchmarkHostileFullRows prints dewrap's allocation per input byte
// against its target; "MISSED" is a defect.
func BenchmarkHostileFullRows(b *testing.B) {
	rows := fullRows(160 * 1024 / 79)
	var ratio float64
	for range b.N {
		ratio = dewrapBytesPerInputByte(rows)
	}
	b.ReportMetric(ratio, "B/inputB")
	verdict := "met"
	if ratio > dewrapTargetBytesPerInputByte {
		verdict = "MISSED"
	}
	b.Logf("dewrap 160 KB of full rows: %.2f bytes allocated per input byte, target ≤ %.1f (%.2f× target): %s", ratio, dewrapTargetBytesPerInputByte, ratio/dewrapTargetBytesPerInputByte, verdict)
}
