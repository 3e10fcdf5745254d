package report

import (
	"fmt"
	"math"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// CompareSVG renders runs side by side in one chart: a group per row (MSS,
// length, or both), a bar per run × direction (× pair, × half of a
// bidirectional step), dashed lines at the runs' line rates, and the
// panels of CPU, watts and retransmits for the runs that have them. A
// failed run is left out of the bars, and a notice over the chart names
// it, how far it got and why: its figures are not compared as if the run
// were whole.
func CompareSVG(runs []bench.Run) string {
	c := newComparison(runs)
	ch := chart{
		title:  fmt.Sprintf("Comparison of %s", plural(len(runs), "run", "runs")),
		yLabel: "receiver Mbit/s",
		xLabel: c.keys.axis(),
	}
	var srcs []source
	var charted []*grid
	var chartedRuns []bench.Run
	var chartedLabels []string
	for i, g := range c.grids {
		r := c.runs[i]
		if n := failedNotice(r, "Not charted: "+c.labels[i]+" "); n != "" {
			ch.notices = append(ch.notices, n)
			continue
		}
		charted = append(charted, g)
		chartedRuns, chartedLabels = append(chartedRuns, r), append(chartedLabels, c.labels[i])
		for _, d := range c.runDirs(g) {
			for _, pair := range g.pairs {
				for _, h := range halves(d) {
					name := c.labels[i] + ": " + string(d)
					if d == bench.Bidirectional {
						name += " " + halfMark(d, h)
					}
					if len(g.pairs) > 1 {
						name += " " + pair
					}
					srcs = append(srcs, source{g: g, prefix: c.labels[i] + ": ", dir: d, pair: pair, h: h, name: name})
				}
			}
		}
	}
	if len(charted) < len(runs) {
		ch.title += fmt.Sprintf(" (%d charted)", len(charted))
	}
	ch.caption = compareCaption(chartedRuns, chartedLabels)
	fillChart(&ch, c.keys, c.rows, srcs, func(row rowKey) []float64 {
		var lr []float64
		for _, g := range charted {
			v := g.lineRate(row)
			if v <= 0 {
				continue
			}
			dup := false
			for _, w := range lr {
				dup = dup || math.Abs(w-v) < 0.05
			}
			if !dup {
				lr = append(lr, v)
			}
		}
		return lr
	})
	return ch.render()
}
