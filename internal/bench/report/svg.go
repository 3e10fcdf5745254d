package report

import (
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// SVG renders a run as a grouped bar chart: a group per row of the
// results (MSS, length, or "MSS/length" when both are swept), a bar per
// direction (and per pair when there are several; a bidirectional step
// draws both halves), bar height = receiver Mbps (the mean of the
// repetitions, with a min–max whisker), and a dashed line across each
// group at the theoretical line rate the steps stored (per MSS for TCP,
// per datagram size for UDP). The document is standalone SVG 1.1 with
// every text escaped.
func SVG(r bench.Run) string {
	g := newGrid(r)
	c := chart{
		title:    runTitle(r),
		subtitle: chartSubtitle(r),
		yLabel:   "receiver Mbit/s",
		xLabel:   g.keys.axis(),
	}
	for _, row := range g.rows {
		c.groups = append(c.groups, g.keys.label(row))
		c.groupDescs = append(c.groupDescs, g.keys.desc(row))
		c.lineRateAt = append(c.lineRateAt, lineRateAt(isTCP(r.Plan), g.keys, row))
		var lr []float64
		if v := g.lineRate(row); v > 0 {
			lr = append(lr, v)
		}
		c.lineRates = append(c.lineRates, lr)
	}
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
				s := series{name: name}
				for i, row := range g.rows {
					st := pairStat(g.cells[cellKey{row, d}], pair, h, receiverMbps)
					s.values = append(s.values, barValue{stat: st, tip: name + ", " + c.groupDescs[i]})
				}
				c.series = append(c.series, s)
			}
		}
	}
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

func chartSubtitle(r bench.Run) string {
	parts := []string{r.ID}
	for _, d := range r.DUTs {
		s := d.Device
		if d.Model != "" {
			s += " " + d.Model
		}
		if d.Firmware != "" {
			s += " " + d.Firmware
		}
		parts = append(parts, s)
	}
	if r.Plan.LinkMbps > 0 {
		parts = append(parts, strconv.FormatFloat(r.Plan.LinkMbps, 'f', -1, 64)+" Mbit/s link")
	}
	return strings.Join(parts, " · ")
}

// chart is a grouped bar chart.
type chart struct {
	title, subtitle string
	xLabel, yLabel  string
	groups          []string    // x axis labels
	groupDescs      []string    // per group: its name in tooltips, "MSS 1200, length 64"
	lineRateAt      []string    // per group: what its line rate depends on, "MSS 1460 (default)"
	lineRates       [][]float64 // per group: dashed lines
	series          []series
}

type series struct {
	name   string
	values []barValue // per group
}

type barValue struct {
	stat
	tip string
}

// palette is Tableau 10: distinct in colour and in grey.
var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

// onPalette is the colour of a value written inside a bar of that
// palette colour: black on the light ones.
var onPalette = []string{"#ffffff", "#ffffff", "#ffffff", "#000000", "#ffffff", "#000000", "#ffffff", "#000000", "#ffffff", "#000000"}

// Layout, in SVG user units.
const (
	marginLeft     = 72
	marginTop      = 64
	plotHeight     = 320
	marginBottom   = 64
	legendMinWidth = 160
	legendRow      = 18
)

func (c chart) render() string {
	nSeries := max(len(c.series), 1)
	barW := 28.0
	if nSeries > 6 {
		barW = 16
	}
	groupW := math.Max(float64(nSeries)*barW+24, 96)
	plotW := groupW * float64(max(len(c.groups), 1))
	legendW := float64(legendMinWidth)
	for _, s := range c.series {
		legendW = math.Max(legendW, 30+textWidth(s.name, 12))
	}
	width := marginLeft + plotW + 24 + legendW
	// Room for the title and subtitle too.
	width = math.Max(width, marginLeft+24+math.Max(textWidth(c.title, 16)*1.1, textWidth(c.subtitle, 12)))
	legendH := float64(len(c.series)+1) * legendRow
	height := marginTop + math.Max(plotHeight, legendH) + marginBottom

	top := 0.0
	for _, s := range c.series {
		for _, v := range s.values {
			if v.n > 0 {
				top = math.Max(top, v.max)
			}
		}
	}
	for _, lr := range c.lineRates {
		for _, v := range lr {
			top = math.Max(top, v)
		}
	}
	ymax, ystep := niceScale(top)
	y := func(v float64) float64 { return marginTop + plotHeight - v/ymax*plotHeight }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">`+"\n",
		f(width), f(height), f(width), f(height))
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(c.title))
	fmt.Fprintf(&b, `<rect class="background" x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", f(width), f(height))
	fmt.Fprintf(&b, `<text class="title" x="%s" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", f(marginLeft), esc(c.title))
	fmt.Fprintf(&b, `<text class="subtitle" x="%s" y="44" fill="#555555">%s</text>`+"\n", f(marginLeft), esc(c.subtitle))

	// Grid and y axis.
	b.WriteString(`<g class="y-axis">` + "\n")
	for i := 0; float64(i)*ystep <= ymax+ystep/2; i++ {
		v := float64(i) * ystep
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>`+"\n", f(marginLeft), f(y(v)), f(marginLeft+plotW), f(y(v)))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", f(marginLeft-6), f(y(v)), esc(num(v)))
	}
	fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333333"/>`+"\n", f(marginLeft), f(marginTop), f(marginLeft), f(marginTop+plotHeight))
	fmt.Fprintf(&b, `<text x="18" y="%s" text-anchor="middle" transform="rotate(-90 18 %s)">%s</text>`+"\n",
		f(marginTop+plotHeight/2), f(marginTop+plotHeight/2), esc(c.yLabel))
	b.WriteString("</g>\n")

	// Bars.
	b.WriteString(`<g class="bars">` + "\n")
	for gi, label := range c.groups {
		x0 := marginLeft + float64(gi)*groupW
		pad := (groupW - float64(len(c.series))*barW) / 2
		for si, s := range c.series {
			v := s.values[gi]
			if v.n == 0 {
				continue
			}
			x := x0 + pad + float64(si)*barW
			mean := v.mean()
			h := mean / ymax * plotHeight
			fmt.Fprintf(&b, `<rect class="bar" data-series="%s" data-group="%s" data-mbps="%s" x="%s" y="%s" width="%s" height="%s" fill="%s">`,
				esc(s.name), esc(label), num(mean), f(x+1), f(y(mean)), f(barW-2), f(h), palette[si%len(palette)])
			tip := fmt.Sprintf("%s: %s Mbit/s", v.tip, formatMbps(mean))
			if v.n > 1 {
				tip += fmt.Sprintf(" (mean of %d, %s–%s)", v.n, formatMbps(v.min), formatMbps(v.max))
			}
			fmt.Fprintf(&b, "<title>%s</title></rect>\n", esc(tip))
			if v.n > 1 {
				cx := x + barW/2
				fmt.Fprintf(&b, `<line class="range" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333333"/>`+"\n", f(cx), f(y(v.min)), f(cx), f(y(v.max)))
			}
			// The value: inside the top of the bar in white where it fits,
			// else above the bar (and its whisker) in black.
			label := formatMbps(mean)
			cx := x + barW/2
			switch vertical := barW < 24; {
			case vertical && h >= textWidth(label, 10)+8:
				fmt.Fprintf(&b, `<text class="value" x="%s" y="%s" font-size="10" fill="%s" text-anchor="end" transform="rotate(-90 %s %s)">%s</text>`+"\n",
					f(cx+3), f(y(mean)+4), onPalette[si%len(onPalette)], f(cx+3), f(y(mean)+4), esc(label))
			case vertical:
				fmt.Fprintf(&b, `<text class="value" x="%s" y="%s" font-size="10" transform="rotate(-90 %s %s)">%s</text>`+"\n",
					f(cx+3), f(y(v.max)-4), f(cx+3), f(y(v.max)-4), esc(label))
			case h >= 16:
				fmt.Fprintf(&b, `<text class="value" x="%s" y="%s" font-size="10" fill="%s" text-anchor="middle">%s</text>`+"\n", f(cx), f(y(mean)+12), onPalette[si%len(onPalette)], esc(label))
			default:
				fmt.Fprintf(&b, `<text class="value" x="%s" y="%s" font-size="10" text-anchor="middle">%s</text>`+"\n", f(cx), f(y(v.max)-4), esc(label))
			}
		}
		for _, lr := range c.lineRates[gi] {
			fmt.Fprintf(&b, `<line class="line-rate" data-mbps="%s" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="1.5" stroke-dasharray="6 4"><title>%s</title></line>`+"\n",
				num(lr), f(x0+4), f(y(lr)), f(x0+groupW-4), f(y(lr)), esc(fmt.Sprintf("line rate at %s: %.1f Mbit/s", c.lineRateAt[gi], lr)))
		}
		fmt.Fprintf(&b, `<text class="group" x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f(x0+groupW/2), f(marginTop+plotHeight+18), esc(label))
	}
	b.WriteString("</g>\n")

	// x axis.
	fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333333"/>`+"\n", f(marginLeft), f(marginTop+plotHeight), f(marginLeft+plotW), f(marginTop+plotHeight))
	fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f(marginLeft+plotW/2), f(marginTop+plotHeight+44), esc(c.xLabel))

	// Legend.
	lx := marginLeft + plotW + 24
	b.WriteString(`<g class="legend">` + "\n")
	for si, s := range c.series {
		ly := marginTop + float64(si)*legendRow
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="12" height="12" fill="%s"/>`, f(lx), f(ly), palette[si%len(palette)])
		fmt.Fprintf(&b, `<text x="%s" y="%s" dominant-baseline="middle">%s</text>`+"\n", f(lx+18), f(ly+6), esc(s.name))
	}
	ly := marginTop + float64(len(c.series))*legendRow
	fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="1.5" stroke-dasharray="6 4"/>`, f(lx), f(ly+6), f(lx+12), f(ly+6))
	fmt.Fprintf(&b, `<text x="%s" y="%s" dominant-baseline="middle">theoretical line rate</text>`+"\n", f(lx+18), f(ly+6))
	b.WriteString("</g>\n</svg>\n")
	return b.String()
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

// textWidth estimates the width of text in a sans-serif font of size
// px: enough to keep labels inside the drawing.
func textWidth(s string, px float64) float64 {
	return float64(utf8.RuneCountInString(s)) * px * 0.6
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
