package report

import (
	"fmt"
	"math"
	"strings"
)

// Layout, in SVG user units (px). The plot keeps minPlotW whatever the
// number of groups, so one step is drawn as wide as a sweep of four; it
// grows with the groups so that every bar is at least a line of value
// text wide (minBarW) and every group label fits under its group.
const (
	pageMargin = 16.0
	minPlotW   = 520.0
	maxBarW    = 56.0
	groupPad   = 16.0 // across a group, between its outer bars and its edges
	mainPlotH  = 300.0
	panelPlotH = 96.0
	legendGap  = 24.0
	legendRow  = 18.0
	minWidth   = 640.0

	titlePx   = 16.0
	captionPx = 12.0
	tickPx    = 11.0
	groupPx   = 12.0
	smallPx   = 10.0
)

// minBarW is the narrowest slot a bar gets: its drawn width (the slot
// less 2) holds a turned line of value text and its padding.
func minBarW() float64 { return math.Ceil(textHeight(valuePx)+2*labelPad) + 2 }

// geometry is where the groups and bars go across.
type geometry struct {
	plotLeft, plotW, groupW, barW float64
	nSeries                       int
}

// slot is the x of the i-th series' slot in group gi.
func (g geometry) slot(gi, i int) float64 {
	pad := (g.groupW - float64(g.nSeries)*g.barW) / 2
	return g.plotLeft + float64(gi)*g.groupW + pad + float64(i)*g.barW
}

func (c chart) geometry(plotLeft float64) geometry {
	n := max(len(c.series), 1)
	barW := minBarW()
	// A panel bar under a span of series shares its width with the
	// span's other bars (the DUTs): each share must hold a label too.
	for _, p := range c.panels {
		for _, b := range p.bars {
			barW = math.Max(barW, minBarW()*float64(b.slots)/float64(b.to-b.from))
		}
	}
	groupMin := float64(n)*barW + groupPad
	for _, g := range c.groups {
		groupMin = math.Max(groupMin, textWidth(g.label, groupPx)+8)
		if lr := lineRateNumbers(g.lineRates); lr != "" {
			groupMin = math.Max(groupMin, textWidth(lr, smallPx)+8)
		}
	}
	nGroups := max(len(c.groups), 1)
	plotW := math.Max(minPlotW, float64(nGroups)*groupMin)
	groupW := plotW / float64(nGroups)
	return geometry{plotLeft, plotW, groupW, math.Min(maxBarW, math.Max(barW, (groupW-groupPad)/float64(n))), n}
}

// scale maps a panel's values to y.
type scale struct {
	top, height, max, step float64
}

func (s scale) y(v float64) float64 { return s.top + s.height - v/s.max*s.height }

func (s scale) base() float64 { return s.top + s.height }

// fitScale is the smallest round axis over top whose labels all find
// room: where a label can only go above its bar, the axis grows until it
// fits under the plot's top.
func fitScale(top, plotTop, height float64, fits func(scale) bool) scale {
	t := top
	for range 8 {
		m, step := niceScale(t)
		s := scale{plotTop, height, m, step}
		if fits(s) {
			return s
		}
		t = m * 1.1
	}
	m, step := niceScale(t)
	return scale{plotTop, height, m, step}
}

// spreadMarks reports the y range the spread marks of vals cover.
func spreadRange(s scale, vals []float64) (top, bottom float64) {
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return s.y(math.Max(hi, mean(vals))) - 3, s.y(lo) + 3
}

// barLabel places the label of a main-panel bar.
func barLabel(s scale, v barValue, bx, bw float64, fl fill) valueLabel {
	m := mean(v.vals)
	insideTop, clearTop := s.y(m), s.y(m)
	if len(v.vals) > 1 {
		clearTop, insideTop = spreadRange(s, v.vals)
		insideTop = math.Max(insideTop, s.y(m))
	}
	return placeLabel(formatMbps(m), bx, bw, insideTop, s.base(), clearTop, s.top, fl)
}

func (c chart) mainFits(geo geometry) func(scale) bool {
	return func(s scale) bool {
		for si, se := range c.series {
			for gi, v := range se.values {
				if len(v.vals) == 0 {
					continue
				}
				bx, bw := geo.slot(gi, si)+1, geo.barW-2
				if barLabel(s, v, bx, bw, se.fill).where != placeNone {
					continue
				}
				clearY := s.y(mean(v.vals))
				if len(v.vals) > 1 {
					clearY, _ = spreadRange(s, v.vals)
				}
				if needsRoom(formatMbps(mean(v.vals)), bw, clearY, s.top) {
					return false
				}
			}
		}
		return true
	}
}

// panelBarBox is where a panel bar goes across.
func (geo geometry) panelBarBox(b panelBar) (bx, bw float64) {
	x := geo.slot(b.group, b.from)
	w := float64(b.to-b.from) * geo.barW / float64(b.slots)
	return x + float64(b.slot)*w + 1, w - 2
}

func panelLabel(s scale, p panel, b panelBar, bx, bw float64) valueLabel {
	m := mean(b.vals)
	clearTop := s.y(m)
	if b.marker > 0 {
		clearTop = math.Min(clearTop, s.y(b.marker)-2)
	}
	return placeLabel(p.format(m), bx, bw, s.y(m), s.base(), clearTop, s.top, b.fill)
}

func (p panel) fits(geo geometry) func(scale) bool {
	return func(s scale) bool {
		for _, b := range p.bars {
			bx, bw := geo.panelBarBox(b)
			if panelLabel(s, p, b, bx, bw).where == placeNone &&
				needsRoom(p.format(mean(b.vals)), bw, s.y(mean(b.vals)), s.top) {
				return false
			}
		}
		return true
	}
}

// svgWriter collects the document.
type svgWriter struct {
	strings.Builder
}

func (w *svgWriter) printf(format string, a ...any) { fmt.Fprintf(&w.Builder, format, a...) }

// text writes a level text whose baseline is set so that the line's
// box (ascent to descent) is centred on y when middle is true.
func (w *svgWriter) text(class string, x, y, px float64, anchor, color, s string, middle, bold bool) {
	if middle {
		y += (textAscent(px) - textDescent(px)) / 2
	}
	attrs := ""
	if anchor != "" && anchor != "start" {
		attrs += ` text-anchor="` + anchor + `"`
	}
	if color != "" {
		attrs += ` fill="` + color + `"`
	}
	if bold {
		attrs += ` font-weight="bold"`
	}
	w.printf(`<text class="%s" x="%s" y="%s" font-size="%s"%s>%s</text>`+"\n", class, f(x), f(y), f(px), attrs, esc(s))
}

// render draws the chart as a standalone SVG 1.1 document.
func (c chart) render() string {
	// Scales first: the widest tick label sets the left margin.
	provisional := c.geometry(0)
	mainTop := 0.0
	mainScale := fitScale(c.topValue(), mainTop, mainPlotH, c.mainFits(provisional))
	scales := make([]scale, len(c.panels))
	for i, p := range c.panels {
		if p.fixedMax > 0 {
			scales[i] = scale{0, panelPlotH, p.fixedMax, p.fixedMax / 4}
			continue
		}
		scales[i] = fitScale(p.topValue(), 0, panelPlotH, p.fits(provisional))
	}
	tickW := maxTickWidth(mainScale)
	for _, s := range scales {
		tickW = math.Max(tickW, maxTickWidth(s))
	}
	plotLeft := pageMargin + 22 + tickW + 8
	geo := c.geometry(plotLeft)

	legends := [][]legendItem{c.mainLegend()}
	for _, p := range c.panels {
		legends = append(legends, p.legend)
	}
	legendW := 0.0
	for _, l := range legends {
		for _, it := range l {
			legendW = math.Max(legendW, 30+textWidth(it.name, captionPx))
		}
	}
	width := math.Max(minWidth, plotLeft+geo.plotW+legendGap+legendW+pageMargin)
	lineW := width - 2*pageMargin

	var head svgWriter
	y := pageMargin
	for _, l := range wrap(c.title, lineW, titlePx, true) {
		y += 20
		head.text("title", pageMargin, y-4, titlePx, "", "", l, false, true)
	}
	for _, parts := range c.caption {
		for _, l := range wrapParts(parts, lineW, captionPx) {
			y += 16
			head.text("caption", pageMargin, y-4, captionPx, "", "#444444", l, false, false)
		}
	}
	for _, n := range c.notices {
		for _, l := range wrap(n, lineW, captionPx, true) {
			y += 16
			head.text("notice", pageMargin, y-4, captionPx, "", "#c00000", l, false, true)
		}
	}
	y += 20

	var body svgWriter
	mainScale.top = y
	y = c.renderMain(&body, geo, mainScale, legends[0])
	for i, p := range c.panels {
		scales[i].top = y + 24
		y = p.render(&body, geo, scales[i], c.groups)
	}
	height := y + pageMargin

	var b svgWriter
	b.printf(`<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s" font-size="12">`+"\n",
		f(width), f(height), f(width), f(height), chartFontFamily)
	b.printf("<title>%s</title>\n", esc(c.title))
	if defs := c.patternDefs(); defs != "" {
		b.printf("<defs>\n%s</defs>\n", defs)
	}
	b.printf(`<rect class="background" x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", f(width), f(height))
	b.WriteString(head.String())
	b.WriteString(body.String())
	b.WriteString("</svg>\n")
	return b.String()
}

// topValue is the highest figure the throughput axis must reach.
func (c chart) topValue() float64 {
	top := 0.0
	for _, s := range c.series {
		for _, v := range s.values {
			for _, x := range v.vals {
				top = math.Max(top, x)
			}
		}
	}
	for _, g := range c.groups {
		for _, v := range g.lineRates {
			top = math.Max(top, v)
		}
	}
	return top
}

func (p panel) topValue() float64 {
	top := 0.0
	for _, b := range p.bars {
		top = math.Max(top, math.Max(mean(b.vals), b.marker))
	}
	for _, r := range p.refs {
		top = math.Max(top, r.value)
	}
	return top
}

// ticks are the axis' values, 0 to its maximum.
func (s scale) ticks() []float64 {
	var ts []float64
	for i := 0; float64(i)*s.step <= s.max+s.step/2; i++ {
		ts = append(ts, float64(i)*s.step)
	}
	return ts
}

func maxTickWidth(s scale) float64 {
	w := 0.0
	for _, t := range s.ticks() {
		w = math.Max(w, textWidth(num(t), tickPx))
	}
	return w
}

// yAxis draws a panel's grid lines, tick labels and axis line.
func yAxis(w *svgWriter, geo geometry, s scale) {
	for _, t := range s.ticks() {
		w.printf(`<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>`+"\n", f(geo.plotLeft), f(s.y(t)), f(geo.plotLeft+geo.plotW), f(s.y(t)))
		w.text("tick", geo.plotLeft-6, s.y(t), tickPx, "end", "", num(t), true, false)
	}
	w.printf(`<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333333"/>`+"\n", f(geo.plotLeft), f(s.top), f(geo.plotLeft), f(s.base()))
	w.printf(`<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333333"/>`+"\n", f(geo.plotLeft), f(s.base()), f(geo.plotLeft+geo.plotW), f(s.base()))
}

// lineRateNumbers is a group's line rates under its label: "941.5", or
// "941.5 / 918.3" when the runs compared differ.
func lineRateNumbers(lrs []float64) string {
	var s []string
	for _, v := range lrs {
		s = append(s, lineRateCell(v))
	}
	return strings.Join(s, " / ")
}

func (c chart) renderMain(w *svgWriter, geo geometry, s scale, legend []legendItem) float64 {
	w.printf(`<g class="y-axis">` + "\n")
	yAxis(w, geo, s)
	cy := s.top + s.height/2
	w.printf(`<text class="y-label" x="%s" y="%s" text-anchor="middle" transform="rotate(-90 %s %s)">%s</text>`+"\n",
		f(pageMargin+12), f(cy), f(pageMargin+12), f(cy), esc(c.yLabel))
	w.WriteString("</g>\n")

	var spread, values, missing svgWriter
	w.WriteString(`<g class="bars">` + "\n")
	for si, se := range c.series {
		for gi, v := range se.values {
			bx, bw := geo.slot(gi, si)+1, geo.barW-2
			group := c.groups[gi].label
			attrs := fmt.Sprintf(` data-series="%s" data-group="%s"`, esc(se.name), esc(group))
			if len(v.vals) == 0 {
				if v.missing {
					missing.printf(`<rect class="missing"%s x="%s" y="%s" width="%s" height="22" fill="none" stroke="#888888" stroke-dasharray="3 2"><title>%s</title></rect>`+"\n",
						attrs, f(bx), f(s.base()-22), f(bw), esc("not measured: "+v.tip))
					missing.text("missing-mark", bx+bw/2, s.base()-11, valuePx, "middle", "#888888", "×", true, false)
				}
				continue
			}
			m := mean(v.vals)
			w.printf(`<rect class="bar"%s data-mbps="%s" x="%s" y="%s" width="%s" height="%s" fill="%s">`,
				attrs, num(m), f(bx), f(s.y(m)), f(bw), f(m/s.max*s.height), se.fill.paint())
			tip := fmt.Sprintf("%s: %s Mbit/s", v.tip, formatMbps(m))
			if n := len(v.vals); n > 1 {
				lo, hi := minMax(v.vals)
				tip += fmt.Sprintf(" (mean of %d, %s–%s; median %s)", n, formatMbps(lo), formatMbps(hi), formatMbps(median(v.vals)))
				spreadMarks(&spread, attrs, bx+bw/2, bw, s, v.vals)
			}
			for _, wn := range v.warnings {
				tip += "; warning: " + wn
			}
			w.printf("<title>%s</title></rect>\n", esc(tip))
			values.WriteString(barLabel(s, v, bx, bw, se.fill).svg(attrs))
		}
	}
	for gi, g := range c.groups {
		x0 := geo.plotLeft + float64(gi)*geo.groupW
		for _, lr := range g.lineRates {
			w.printf(`<line class="line-rate" data-mbps="%s" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="1.5" stroke-dasharray="6 4"><title>%s</title></line>`+"\n",
				num(lr), f(x0+4), f(s.y(lr)), f(x0+geo.groupW-4), f(s.y(lr)), esc(fmt.Sprintf("line rate at %s: %.1f Mbit/s", g.lineRateAt, lr)))
		}
	}
	w.WriteString("</g>\n")
	for _, part := range []struct {
		class string
		w     *svgWriter
	}{{"spread", &spread}, {"values", &values}, {"missing", &missing}} {
		if part.w.Len() > 0 {
			w.printf(`<g class="%s">`+"\n%s</g>\n", part.class, part.w.String())
		}
	}

	// x axis: the groups, their line rates, the axis title.
	w.WriteString(`<g class="x-axis">` + "\n")
	sub := false
	for gi, g := range c.groups {
		cx := geo.plotLeft + (float64(gi)+0.5)*geo.groupW
		w.text("group", cx, s.base()+16, groupPx, "middle", "", g.label, false, false)
		if len(g.lineRates) > 0 {
			label := "line rate " + lineRateNumbers(g.lineRates)
			if textWidth(label, smallPx) > geo.groupW-4 {
				label = lineRateNumbers(g.lineRates)
			}
			w.text("line-rate-label", cx, s.base()+30, smallPx, "middle", "#555555", label, false, false)
			sub = true
		}
	}
	xl := s.base() + 34
	if sub {
		xl += 14
	}
	w.text("x-label", geo.plotLeft+geo.plotW/2, xl, groupPx, "middle", "", c.xLabel, false, false)
	w.WriteString("</g>\n")

	legendH := writeLegend(w, "legend", geo.plotLeft+geo.plotW+legendGap, s.top, legend)
	return math.Max(xl+8, s.top+legendH) + 8
}

func minMax(vs []float64) (lo, hi float64) {
	lo, hi = vs[0], vs[0]
	for _, v := range vs {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}

// spreadMarks draws the repetitions of a bar: a min–max whisker with caps,
// the median as a thick tick and each repetition as a dot, each in black
// over a white halo so that they read on any bar colour.
func spreadMarks(w *svgWriter, attrs string, cx, bw float64, s scale, vals []float64) {
	lo, hi := minMax(vals)
	capW := math.Min(6, bw/2-2)
	med := math.Min(9, bw/2-1)
	line := func(class string, x1, y1, x2, y2, width float64) {
		w.printf(`<line class="%s-halo" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ffffff" stroke-width="%s"/>`+"\n", class, f(x1), f(y1), f(x2), f(y2), f(width+2))
		w.printf(`<line class="%s"%s x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="%s"/>`+"\n", class, attrs, f(x1), f(y1), f(x2), f(y2), f(width))
	}
	line("whisker", cx, s.y(lo), cx, s.y(hi), 1)
	line("cap", cx-capW, s.y(lo), cx+capW, s.y(lo), 1)
	line("cap", cx-capW, s.y(hi), cx+capW, s.y(hi), 1)
	line("median", cx-med, s.y(median(vals)), cx+med, s.y(median(vals)), 2.5)
	for _, v := range vals {
		w.printf(`<circle class="repeat"%s data-mbps="%s" cx="%s" cy="%s" r="2.2" fill="#ffffff" stroke="#000000"/>`+"\n", attrs, num(v), f(cx), f(s.y(v)))
	}
}

func (c chart) mainLegend() []legendItem {
	var l []legendItem
	for _, s := range c.series {
		l = append(l, legendItem{name: s.name, fill: s.fill})
	}
	lineRate, repeats, missing := false, false, false
	for _, g := range c.groups {
		lineRate = lineRate || len(g.lineRates) > 0
	}
	for _, s := range c.series {
		for _, v := range s.values {
			repeats = repeats || len(v.vals) > 1
			missing = missing || v.missing
		}
	}
	if lineRate {
		l = append(l, legendItem{name: "theoretical line rate", kind: legendDashed})
	}
	if repeats {
		l = append(l, legendItem{name: "repeats: min–max, median (thick)", kind: legendSpread},
			legendItem{name: "each repeat (bar: their mean)", kind: legendDot})
	}
	if missing {
		l = append(l, legendItem{name: "not measured (run failed)", kind: legendMissing})
	}
	return l
}

// writeLegend draws items from (x, y) down and returns their height.
func writeLegend(w *svgWriter, class string, x, y float64, items []legendItem) float64 {
	if len(items) == 0 {
		return 0
	}
	w.printf(`<g class="%s">`+"\n", class)
	for i, it := range items {
		ly := y + float64(i)*legendRow
		switch it.kind {
		case legendSwatch:
			w.printf(`<rect class="swatch" x="%s" y="%s" width="12" height="12" fill="%s"/>`, f(x), f(ly), it.fill.paint())
		case legendDashed:
			w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="1.5" stroke-dasharray="4 3"/>`, f(x-2), f(ly+6), f(x+14), f(ly+6))
		case legendMarker:
			w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="2.5"/>`, f(x-1), f(ly+6), f(x+13), f(ly+6))
		case legendSpread:
			w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000"/><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000"/><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000"/><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="2.5"/>`,
				f(x+6), f(ly), f(x+6), f(ly+12), f(x+2), f(ly), f(x+10), f(ly), f(x+2), f(ly+12), f(x+10), f(ly+12), f(x), f(ly+7), f(x+12), f(ly+7))
		case legendDot:
			w.printf(`<circle cx="%s" cy="%s" r="2.2" fill="#ffffff" stroke="#000000"/>`, f(x+6), f(ly+6))
		case legendMissing:
			w.printf(`<rect x="%s" y="%s" width="12" height="12" fill="none" stroke="#888888" stroke-dasharray="3 2"/>`, f(x), f(ly))
		}
		w.text("legend-text", x+18, ly+6, captionPx, "", "", it.name, true, false)
	}
	w.WriteString("</g>\n")
	return float64(len(items)) * legendRow
}

// render draws a panel whose plot starts at s.top and returns the y
// under it.
func (p panel) render(w *svgWriter, geo geometry, s scale, groups []chartGroup) float64 {
	w.printf(`<g class="panel-%s">`+"\n", p.class)
	w.text("panel-title", geo.plotLeft, s.top-10, captionPx, "", "", p.title, false, true)
	yAxis(w, geo, s)
	var labels svgWriter
	for _, b := range p.bars {
		bx, bw := geo.panelBarBox(b)
		m := mean(b.vals)
		attrs := fmt.Sprintf(` data-series="%s" data-group="%s"`, esc(b.name), esc(groups[b.group].label))
		tip := b.tip
		if len(b.vals) > 1 {
			lo, hi := minMax(b.vals)
			tip += fmt.Sprintf(" (mean of %d, %s–%s)", len(b.vals), p.format(lo), p.format(hi))
		}
		w.printf(`<rect class="bar"%s data-value="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`+"\n",
			attrs, num(m), f(bx), f(s.y(m)), f(bw), f(m/s.max*s.height), b.fill.paint(), esc(tip))
		if b.marker > 0 {
			my := s.y(math.Min(b.marker, s.max))
			w.printf(`<line class="marker-halo" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ffffff" stroke-width="4.5"/>`+"\n", f(bx), f(my), f(bx+bw), f(my))
			w.printf(`<line class="marker"%s data-value="%s" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="2.5"/>`+"\n", attrs, num(b.marker), f(bx), f(my), f(bx+bw), f(my))
		}
		labels.WriteString(panelLabel(s, p, b, bx, bw).svg(attrs))
	}
	for _, r := range p.refs {
		w.printf(`<line class="ref" data-value="%s" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="1.2" stroke-dasharray="4 3"><title>%s</title></line>`+"\n",
			num(r.value), f(geo.plotLeft), f(s.y(r.value)), f(geo.plotLeft+geo.plotW), f(s.y(r.value)), esc(r.name))
	}
	w.WriteString(labels.String())
	for gi, g := range groups {
		w.text("group", geo.plotLeft+(float64(gi)+0.5)*geo.groupW, s.base()+13, smallPx, "middle", "#555555", g.label, false, false)
	}
	w.WriteString("</g>\n")
	legendH := writeLegend(w, "legend", geo.plotLeft+geo.plotW+legendGap, s.top, p.legend)
	return math.Max(s.base()+20, s.top+legendH) + 4
}

// patternDefs are the <pattern> elements of the hatched fills in use.
func (c chart) patternDefs() string {
	seen := map[string]bool{}
	var b strings.Builder
	add := func(fl fill) {
		if fl.hatch == hatchNone || seen[fl.patternID()] {
			return
		}
		seen[fl.patternID()] = true
		b.WriteString(fl.pattern() + "\n")
	}
	for _, s := range c.series {
		add(s.fill)
	}
	for _, p := range c.panels {
		for _, b := range p.bars {
			add(b.fill)
		}
		for _, it := range p.legend {
			add(it.fill)
		}
	}
	return b.String()
}

// wrapParts packs parts, joined with " · ", into lines no wider than
// width; a part wider than a line is wrapped on its own.
func wrapParts(parts []string, width, px float64) []string {
	var lines []string
	line := ""
	for _, p := range parts {
		try := p
		if line != "" {
			try = line + " · " + p
		}
		if textWidth(try, px) <= width {
			line = try
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		line = ""
		ws := wrap(p, width, px, false)
		if len(ws) > 0 {
			lines = append(lines, ws[:len(ws)-1]...)
			line = ws[len(ws)-1]
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
