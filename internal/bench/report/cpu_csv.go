package report

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// CPUSamplesCSV renders the DUTs' CPU readings of each step as cpu.csv:
//
//	step,dut,t_offset_seconds,period_seconds,percent,measured,core_0,…
//
// step is 1-based as in results.csv; t_offset_seconds is when the
// reading was taken, since the step started (negative for a reading
// taken before it whose period reaches into it); period_seconds how long
// a time the reading describes, ending then; measured whether it counted
// in the step's CPU figures (inside the window after the warm-up). A
// core column per core of the DUT with the most, empty where a reading
// has fewer or none.
func CPUSamplesCSV(samples []bench.CPUSample) []byte {
	cores := 0
	for _, s := range samples {
		cores = max(cores, len(s.Cores))
	}
	head := []string{"step", "dut", "t_offset_seconds", "period_seconds", "percent", "measured"}
	for i := range cores {
		head = append(head, "core_"+strconv.Itoa(i))
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(head) // a bytes.Buffer does not fail
	for _, s := range samples {
		row := []string{
			strconv.Itoa(s.Step + 1), s.Device, offsetSeconds(s.Offset), offsetSeconds(s.Period),
			strconv.FormatFloat(s.Percent, 'f', -1, 64), strconv.FormatBool(s.Measured),
		}
		for i := range cores {
			cell := ""
			if i < len(s.Cores) {
				cell = strconv.FormatFloat(s.Cores[i], 'f', -1, 64)
			}
			row = append(row, cell)
		}
		_ = w.Write(row)
	}
	w.Flush()
	return b.Bytes()
}

// offsetSeconds is d in seconds to the millisecond, which is finer than any
// sampler's clock needs.
func offsetSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Round(time.Millisecond).Seconds(), 'f', -1, 64)
}
