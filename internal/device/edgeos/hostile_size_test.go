package edgeos

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Issue 22 point 10: a router's output is not trusted to be small or
// shallow. One 8 KB `set` line of single-letter words is a path 4000
// words deep; every walk over the tree must stay linear in it.

// deepLine is a `set` line of n one-letter words under routerlab's own
// ruleset (so the firewall's walks meet it too).
func deepLine(n int) string {
	return "set firewall name " + RulesetIn + " rule 10 description " + strings.TrimSpace(strings.Repeat("a ", n)) + "\n"
}

// readAll is every walk a snapshot and a firewall write make over a tree.
func readAll(out string) {
	t, err := ParseCommands(out)
	if err != nil {
		panic(err)
	}
	_ = Normalise(t)
	_ = t.Paths()
	_ = t.Subtree("firewall")
	env := ParseFirewallEnv(t)
	if _, err := RenderFirewall(device.FirewallConfig{Preset: device.FirewallNone}, env); err != nil {
		panic(err)
	}
	_ = RenderFirewallDelete(env)
}

// allocated is the bytes f allocates (the heap's running total, which a
// collection does not reset).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// maxBytesPerInputByte bounds what reading a hostile line may allocate
// per byte of it: three trees (the parse, a subtree, the firewall's owned
// lines), a few copies of the line (text, paths, delete lines). Measured:
// about 350 to 410 at 8 to 64 KB; the walks that copied the path at every
// level took thousands per byte at 8 KB, growing with the line.
const maxBytesPerInputByte = 1000

func TestHostileDeepLineLinear(t *testing.T) {
	small, large := deepLine(4000), deepLine(16000) // 8 KB and 32 KB
	readAll(small)                                  // warm up
	bs, bl := allocated(func() { readAll(small) }), allocated(func() { readAll(large) })
	perByte := float64(bl) / float64(len(large))
	t.Logf("8 KB line: %d bytes allocated; 32 KB line: %d (%.0f per input byte, bound %d)", bs, bl, perByte, maxBytesPerInputByte)
	if perByte > maxBytesPerInputByte {
		t.Errorf("a %d-byte line allocates %d bytes, %.0f per byte (bound %d): a walk copies the path at every level", len(large), bl, perByte, maxBytesPerInputByte)
	}
	// Four times the input may cost at most about four times as much
	// (6: room for the runtime's rounding), never sixteen.
	if ratio := float64(bl) / float64(bs); ratio > 6 {
		t.Errorf("allocation grows %.1f× for a 4× longer line: not linear", ratio)
	}
	// The count of allocations too: testing.AllocsPerRun over the parse
	// and the walks.
	allocs := testing.AllocsPerRun(3, func() { readAll(large) })
	if perWord := allocs / 16000; perWord > 20 {
		t.Errorf("%.0f allocations for 16000 words (%.1f per word, bound 20)", allocs, perWord)
	}
}

// BenchmarkHostileDeepLine reports the bytes allocated per input byte
// for an 8 KB and a 64 KB line and each as a ratio to the target
// maxBytesPerInputByte (≤ 1 meets it), and the growth from 8 to 64 KB
// against linear (8×: ratio ≤ 1 is linear or better).
func BenchmarkHostileDeepLine(b *testing.B) {
	per := map[int]float64{}
	for _, words := range []int{4000, 32000} {
		line := deepLine(words)
		b.Run(fmt.Sprintf("%dKB", len(line)/1024), func(b *testing.B) {
			b.ReportAllocs()
			var total uint64
			for i := 0; i < b.N; i++ {
				total += allocated(func() { readAll(line) })
			}
			p := float64(total) / float64(b.N) / float64(len(line))
			per[words] = p
			b.ReportMetric(p, "B/inputB")
			b.ReportMetric(p/maxBytesPerInputByte, "x-target")
		})
	}
	if per[4000] > 0 && per[32000] > 0 {
		// Bytes per input byte stays flat when the work is linear.
		b.Logf("growth 8 KB → 64 KB: %.2f× per input byte (target ≤ 1.5: linear)", per[32000]/per[4000])
	}
}
