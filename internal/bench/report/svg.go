package report

import (
	"encoding/xml"
	"math"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// SVG renders a run as a grouped bar chart: a group per row of the
// results (MSS, length, or "MSS/length" when both are swept), a bar per
// direction (and per pair when there are several; a bidirectional step
// draws both halves), bar height = receiver Mbps (the mean of the
// repetitions, whose min–max, median and each value are drawn over it),
// and a dashed line across each group at the theoretical line rate the
// steps stored (per MSS for TCP, per datagram size for UDP), its value
// under the group. Panels below show what else the run measured, each
// only when it did: each DUT's CPU (with the busiest core), the power
// meter's watts and Mbit/s per watt, TCP retransmits or UDP loss. A
// caption says how the run was measured; a failed run says how far it
// got, and the steps it did not measure are marked. The document is
// standalone SVG 1.1 with every text escaped, the same bytes for the
// same run.
func SVG(r bench.Run) string {
	if r.IsSearch() {
		return searchSVG(r)
	}
	g := newGrid(r)
	c := chart{
		title:   runTitle(r),
		caption: runCaption(r),
		yLabel:  "receiver Mbit/s",
		xLabel:  g.keys.axis(),
	}
	if n := failedNotice(r, "Run "); n != "" {
		c.notices = append(c.notices, n)
	}
	var srcs []source
	for _, d := range g.dirs {
		for _, pair := range g.pairs {
			for _, h := range halves(d) {
				name := string(d)
				if d == bench.Bidirectional {
					name += " " + halfMark(d, h)
				}
				if len(g.pairs) > 1 {
					name += " " + pair
				}
				srcs = append(srcs, source{g: g, dir: d, pair: pair, h: h, name: name})
			}
		}
	}
	fillChart(&c, g.keys, g.rows, srcs, func(row rowKey) []float64 {
		if v := g.lineRate(row); v > 0 {
			return []float64{v}
		}
		return nil
	})
	return c.render()
}

// lineRateAt names what a group's line rate depends on: for TCP the MSS
// alone (the write size does not change it), for UDP the row.
func lineRateAt(tcp bool, k keyer, row rowKey) string {
	if tcp {
		return "MSS " + k.mssLabel(row.mss)
	}
	return k.desc(row)
}

// niceScale rounds top up to a round axis maximum and its tick step:
// 942 → 1000 by 200, 143 → 150 by 50.
func niceScale(top float64) (ymax, step float64) {
	if !(top > 0) || math.IsInf(top, 0) {
		return 1, 0.2
	}
	raw := top / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		step = m * mag
		if step*5 >= top {
			break
		}
	}
	return math.Ceil(top/step-1e-9) * step, step
}

// f prints a coordinate with at most two decimals.
func f(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// esc escapes text for XML character data and attribute values.
func esc(s string) string {
	var b strings.Builder
	// xml.EscapeText escapes <, >, &, ' and " as well as newlines and
	// invalid characters; it only fails when the writer does.
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
