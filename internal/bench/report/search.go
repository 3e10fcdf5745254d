package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// A search run (bench.Run.Search) is rendered as RFC 2544 reports and
// vendors' test results are: one row per frame size with frames/s, Mbit/s
// and the share of the line rate, here with the hosts' own ceiling beside
// it (a host-limited figure is marked, never shown as the router's) and
// the RTT idle and under load.

// searchTitle says what the search looked for: NDR or a PDR.
func searchKind(s *bench.SearchSpec) string {
	if s == nil || s.LossPercent == 0 {
		return "zero-loss throughput (NDR)"
	}
	return fmt.Sprintf("partial-drop rate (PDR, loss ≤ %s %%)", strconv.FormatFloat(s.LossPercent, 'f', -1, 64))
}

func searchSummaryLine(r bench.Run) string {
	p := r.Plan
	s := p.Search
	trial := time.Second
	if s.TrialDuration > 0 {
		trial = s.TrialDuration
	}
	dir := bench.Upload
	if len(p.Directions) == 1 {
		dir = p.Directions[0]
	}
	return fmt.Sprintf("%s search over UDP, %s, %s trials while searching, %s confirmation; iperf3 -l = frame − %d bytes (Ethernet MAC header 14, FCS 4, IPv4 20, UDP 8)",
		searchKind(s), dir, trial, p.Duration, linerate.FrameHeaders)
}

func writeSearchMarkdown(b *strings.Builder, r bench.Run) {
	fmt.Fprintf(b, "# %s\n\n", md(runTitle(r)))
	if r.Status == bench.RunFailed {
		fmt.Fprintf(b, "**Search failed after %d frame size(s): %s**\n\n", len(r.Search), md(r.Error))
	}
	p := r.Plan
	fmt.Fprintf(b, "- Run: %s\n", md(r.ID))
	if r.BaselineID != "" {
		fmt.Fprintf(b, "- Hosts' ceiling: baseline run %s (the same search without the router)\n", md(r.BaselineID))
	}
	fmt.Fprintf(b, "- Started: %s; finished: %s", formatTime(r.Started), formatTime(r.Finished))
	if !r.Started.IsZero() && !r.Finished.IsZero() {
		fmt.Fprintf(b, " (%s)", r.Finished.Sub(r.Started).Round(time.Second))
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "- iperf3 %s: %s\n", md(orUnknown(r.Iperf3Version)), md(searchSummaryLine(r)))
	for _, d := range r.DUTs {
		fmt.Fprintf(b, "- DUT %s: %s\n", md(d.Device), dutSummary(d))
	}
	for i, pr := range p.Pairs {
		fmt.Fprintf(b, "- Pair %s: %s → %s (%s port %d)\n", md(pr.Label()), md(pr.Client), md(pr.Server), md(pr.Target), p.PairPort(i))
	}
	fmt.Fprintf(b, "- Link: %s Mbit/s; line rate in frames/s = link / ((frame + 20) × 8)\n", strconv.FormatFloat(p.LinkMbps, 'f', -1, 64))
	if pac := searchPacings(r.Search); pac != "" {
		fmt.Fprintf(b, "- Pacing: %s\n", md(pac))
	}
	b.WriteString("\n")
	head := []string{"Frame (bytes)", "Frames/s", "Mbit/s (wire)", "Mbit/s (UDP payload)", "% line rate", "Host-limited / ceiling", "Loss %", "Loss where (failing trials)", "Trials (confirmations)", "RTT idle p50 (ms)", "RTT under load p50 / p90 / p99 (ms)"}
	refs := hasReferences(r.Search)
	if refs {
		head = append(head[:5], append([]string{"% datasheet"}, head[5:]...)...)
	}
	energy := hasSearchPower(r.Search)
	if energy {
		head = append(head, "Power (W)", "µJ per frame", "Mbit/s per W")
	}
	var rows [][]string
	var notes []string
	var sources []string
	for _, s := range r.Search {
		row := []string{strconv.Itoa(s.Frame)}
		if s.Outcome != bench.SearchFound {
			row = append(row, "none found", "-", "-", "-")
			notes = append(notes, fmt.Sprintf("%d bytes: no rate passed: %s", s.Frame, s.Reason))
		} else {
			row = append(row, formatFPS(s.FramesPerSecond), searchMbps(s.WireMbps), searchMbps(s.PayloadMbps), fmt.Sprintf("%.1f %%", s.LineRatePercent))
		}
		if refs {
			row = append(row, referenceCell(s, &sources))
		}
		row = append(row, hostLimitCell(s))
		if s.HostLimited {
			notes = append(notes, fmt.Sprintf("%d bytes: host-limited: %s. The figure is the traffic generator's, not the router's.", s.Frame, s.HostLimitReason))
		}
		if s.Outcome == bench.SearchFound {
			row = append(row, strconv.FormatFloat(s.LossPercent, 'g', 3, 64))
		} else {
			row = append(row, "-")
		}
		row = append(row, lossWhereCell(s.Loss), fmt.Sprintf("%d (%d)", s.Trials, s.Confirmations))
		if l := s.Latency; l != nil {
			row = append(row, rttMs(l.Idle.P50), fmt.Sprintf("%s / %s / %s (%d replies)", rttMs(l.Load.P50), rttMs(l.Load.P90), rttMs(l.Load.P99), l.Load.Samples))
		} else {
			row = append(row, "-", "-")
		}
		if energy {
			if p := s.Power; p != nil && p.Samples > 0 {
				row = append(row, fmt.Sprintf("%.2f (idle %.2f, %d samples)", p.AvgWatts, p.IdleWatts, p.Samples), strconv.FormatFloat(p.MicrojoulesPerFrame, 'g', 4, 64), strconv.FormatFloat(p.MbpsPerWatt, 'f', 1, 64))
			} else {
				row = append(row, "-", "-", "-")
			}
		}
		rows = append(rows, row)
	}
	writeTable(b, head, 1, rows)
	if len(sources) > 0 {
		b.WriteString("\nDatasheet figures (frames/s from kpps × 1000, or from Mbit/s = kpps × frame bytes × 8 / 1000, no preamble):\n\n")
		for _, src := range sources {
			fmt.Fprintf(b, "- %s\n", md(src))
		}
	}
	if len(notes) > 0 {
		b.WriteString("\nNotes:\n\n")
		for _, n := range notes {
			fmt.Fprintf(b, "- %s\n", md(n))
		}
	}
	if energy {
		b.WriteString("\nPower: the meter's average over the passing confirmation trial at each result; µJ per frame = W / forwarded frames per second × 10⁶ (forwarded: the result's frames/s less the confirmation's loss); Mbit/s per W from the wire rate.\n")
	}
	b.WriteString("\nRTT: ping every 200 ms from the client to the target, idle before the first trial and during each frame size's passing confirmation trial; percentiles by nearest rank.\n")
	writeEnvironment(b, r)
}

func hasSearchPower(ss []bench.FrameSearch) bool {
	for _, s := range ss {
		if s.Power != nil {
			return true
		}
	}
	return false
}

func hasReferences(ss []bench.FrameSearch) bool {
	for _, s := range ss {
		if s.Reference != nil {
			return true
		}
	}
	return false
}

// referenceCell is the result's share of the published figure, with the
// figure; its source joins sources once, numbered.
func referenceCell(s bench.FrameSearch, sources *[]string) string {
	ref := s.Reference
	if ref == nil {
		return "-"
	}
	n := 0
	for i, src := range *sources {
		if strings.HasSuffix(src, ": "+ref.Source) {
			n = i + 1
		}
	}
	if n == 0 {
		*sources = append(*sources, fmt.Sprintf("ref. %d: %s", len(*sources)+1, ref.Source))
		n = len(*sources)
	}
	cell := fmt.Sprintf("of %s frames/s (ref. %d)", formatFPS(ref.FPS()), n)
	if s.Outcome == bench.SearchFound {
		cell = fmt.Sprintf("%.1f %% ", s.ReferencePercent) + cell
	}
	if s.HostLimited {
		cell += " (host-limited: not the router's)"
	}
	return cell
}

// lossWhereCell: where the failing trials' datagrams were lost.
func lossWhereCell(l *bench.LossAttribution) string {
	switch {
	case l == nil:
		return "not read"
	case l.Lost == 0:
		return "none lost"
	}
	s := fmt.Sprintf("%s: of %d lost, %d in host %s", l.Where(), l.Lost, l.ReceiverDropped, l.Receiver)
	if len(l.Routers) == 0 {
		return s + ", router counters not read"
	}
	s += fmt.Sprintf(", %d in %s", l.RouterDropped, strings.Join(l.Routers, "+"))
	if lbl := l.RouterLabel(); lbl != "" {
		s += " (" + lbl + ")"
	}
	return s
}

func hostLimitCell(s bench.FrameSearch) string {
	var parts []string
	if s.HostLimited {
		parts = append(parts, "⚠ host-limited")
	}
	if s.CeilingFPS > 0 {
		parts = append(parts, fmt.Sprintf("ceiling %s frames/s (%.0f %%)", formatFPS(s.CeilingFPS), s.CeilingPercent))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

func searchPacings(ss []bench.FrameSearch) string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if s.Pacing != "" && !seen[s.Pacing] {
			seen[s.Pacing] = true
			switch s.Pacing {
			case "fq_rate":
				out = append(out, "fq_rate (iperf3 --fq-rate: the socket's pacing rate spaces every datagram)")
			case "iperf3_timer":
				out = append(out, "iperf3_timer (iperf3's own: what -b allows per 1 ms slot, sent as a burst)")
			default:
				out = append(out, s.Pacing)
			}
		}
	}
	return strings.Join(out, "; ")
}

func formatFPS(v float64) string {
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
}

func searchMbps(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func rttMs(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// searchCSV: one row per frame size.
func searchCSVRows(r bench.Run) [][]string {
	rows := [][]string{{"run", "frame", "pair", "direction", "outcome", "frames_per_second", "wire_mbps", "payload_mbps", "line_rate_fps", "line_rate_percent",
		"loss_percent", "trials", "confirmations", "pacing", "sender_limited", "ceiling_fps", "ceiling_percent", "host_limited",
		"datasheet_fps", "datasheet_percent", "datasheet_source",
		"lost_in_failing_trials", "lost_in_receiver", "lost_in_router", "loss_router_counters", "loss_where",
		"rtt_idle_p50_ms", "rtt_idle_p90_ms", "rtt_idle_p99_ms", "rtt_load_p50_ms", "rtt_load_p90_ms", "rtt_load_p99_ms", "rtt_load_replies",
		"power_idle_watts", "power_avg_watts", "power_max_watts", "microjoules_per_frame", "mbps_per_watt"}}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	for _, s := range r.Search {
		row := []string{r.ID, strconv.Itoa(s.Frame), s.Pair, string(s.Direction), s.Outcome, num(s.FramesPerSecond), num(s.WireMbps), num(s.PayloadMbps),
			num(s.LineRateFPS), num(s.LineRatePercent), num(s.LossPercent), strconv.Itoa(s.Trials), strconv.Itoa(s.Confirmations), s.Pacing, strconv.FormatBool(s.SenderLimited),
			num(s.CeilingFPS), num(s.CeilingPercent), strconv.FormatBool(s.HostLimited)}
		if ref := s.Reference; ref != nil {
			row = append(row, num(ref.FPS()), num(s.ReferencePercent), ref.Source)
		} else {
			row = append(row, "", "", "")
		}
		if l := s.Loss; l != nil {
			router := ""
			if len(l.Routers) > 0 {
				router = strconv.FormatInt(l.RouterDropped, 10)
			}
			row = append(row, strconv.FormatInt(l.Lost, 10), strconv.FormatInt(l.ReceiverDropped, 10), router, l.RouterLabel(), l.Where())
		} else {
			row = append(row, "", "", "", "", "")
		}
		if l := s.Latency; l != nil {
			row = append(row, num(l.Idle.P50), num(l.Idle.P90), num(l.Idle.P99), num(l.Load.P50), num(l.Load.P90), num(l.Load.P99), strconv.Itoa(l.Load.Samples))
		} else {
			row = append(row, "", "", "", "", "", "", "")
		}
		if p := s.Power; p != nil {
			row = append(row, num(p.IdleWatts), num(p.AvgWatts), num(p.MaxWatts), num(p.MicrojoulesPerFrame), num(p.MbpsPerWatt))
		} else {
			row = append(row, "", "", "", "", "")
		}
		rows = append(rows, row)
	}
	return rows
}

// searchSVG draws frames/s against frame size on a logarithmic axis (the
// line rate falls from 1.49 million frames/s at 64 bytes to 81,274 at
// 1518 on 1 Gbit/s, and a linear axis flattens the large frames): the
// line rate as a curve through every frame size, the result as a marker
// on a line of its own (a host-limited one hollow and grey, labelled so:
// the generator's figure, not the router's), and the hosts' ceiling as a
// red dash across it. Plain shapes only (no patterns), so that every
// renderer draws the same.
func searchSVG(r bench.Run) string {
	const (
		width, left, right, top, plotH, bottom = 760.0, 78.0, 24.0, 64.0, 300.0, 96.0
		titlePx, tickPx, labelPx               = 16.0, 11.0, 10.0
		routerColor, limitedColor, ceilColor   = "#4e79a7", "#9d9d9d", "#e15759"
	)
	ss := r.Search
	lo, hi := math.Inf(1), 0.0
	for _, s := range ss {
		refFPS := 0.0
		if s.Reference != nil {
			refFPS = s.Reference.FPS()
		}
		for _, v := range []float64{s.LineRateFPS, s.FramesPerSecond, s.CeilingFPS, refFPS} {
			if v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if hi == 0 {
		lo, hi = 1, 10
	}
	// The axis runs between the 1-2-5 steps around every figure.
	bottomV, topV := logStep(lo, false), logStep(hi, true)
	if topV <= bottomV {
		topV = logStep(bottomV*1.01, true)
	}
	dLo, dHi := math.Log10(bottomV), math.Log10(topV)
	height := top + plotH + bottom
	plotW := width - left - right
	y := func(v float64) float64 {
		return top + plotH - (math.Log10(v)-dLo)/(dHi-dLo)*plotH
	}
	slot := plotW / math.Max(1, float64(len(ss)))
	cx := func(i int) float64 { return left + slot*(float64(i)+0.5) }

	var w svgWriter
	w.printf(`<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s">`+"\n", f(width), f(height), f(width), f(height), chartFontFamily)
	w.printf(`<rect width="%s" height="%s" fill="white"/>`+"\n", f(width), f(height))
	w.text("title", left, 24, titlePx, "", "#222", runTitle(r), false, true)
	w.text("subtitle", left, 44, labelPx+1, "", "#444", searchKind(r.Plan.Search)+" per frame size, link "+strconv.FormatFloat(r.Plan.LinkMbps, 'f', -1, 64)+" Mbit/s", false, false)
	// Decades, with 2 and 5 between them.
	for d := math.Floor(dLo); d <= dHi; d++ {
		base := math.Pow(10, d)
		for _, m := range []float64{1, 2, 5} {
			v := base * m
			if v < bottomV*0.9999 || v > topV*1.0001 {
				continue
			}
			stroke := "#eeeeee"
			if m == 1 {
				stroke = "#d9d9d9"
			}
			w.printf(`<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`+"\n", f(left), f(y(v)), f(width-right), f(y(v)), stroke)
			w.text("tick", left-6, y(v), tickPx, "end", "#444", fpsTick(v), true, false)
		}
	}
	w.printf(`<text class="axis" transform="translate(18 %s) rotate(-90)" text-anchor="middle" font-size="%s" fill="#444">frames/s (log scale)</text>`+"\n", f(top+plotH/2), f(labelPx+1))
	w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#444"/>`+"\n", f(left), f(top+plotH), f(width-right), f(top+plotH))
	// The line rate.
	var d []string
	for i, s := range ss {
		if s.LineRateFPS > 0 {
			d = append(d, map[bool]string{true: "M", false: "L"}[len(d) == 0]+f(cx(i))+" "+f(y(s.LineRateFPS)))
		}
	}
	if len(d) > 0 {
		w.printf(`<path class="linerate" d="%s" fill="none" stroke="#222" stroke-width="1.5"/>`+"\n", strings.Join(d, " "))
	}
	// The results, joined where consecutive sizes found one.
	var seg []string
	for i, s := range ss {
		if s.Outcome == bench.SearchFound && s.FramesPerSecond > 0 {
			seg = append(seg, map[bool]string{true: "M", false: "L"}[len(seg) == 0 || ss[i-1].Outcome != bench.SearchFound]+f(cx(i))+" "+f(y(s.FramesPerSecond)))
		}
	}
	if len(seg) > 1 {
		w.printf(`<path class="measured" d="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-opacity="0.6"/>`+"\n", strings.Join(seg, " "), routerColor)
	}
	for i, s := range ss {
		x := cx(i)
		w.text("xtick", x, top+plotH+16, tickPx, "middle", "#444", strconv.Itoa(s.Frame), false, false)
		if s.LineRateFPS > 0 {
			w.printf(`<circle class="linerate" cx="%s" cy="%s" r="2.5" fill="#222"><title>%s</title></circle>`+"\n", f(x), f(y(s.LineRateFPS)),
				esc(fmt.Sprintf("line rate at %d bytes: %s frames/s", s.Frame, formatFPS(s.LineRateFPS))))
		}
		if s.CeilingFPS > 0 {
			w.printf(`<line class="ceiling" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" stroke-dasharray="4 3"><title>%s</title></line>`+"\n",
				f(x-14), f(y(s.CeilingFPS)), f(x+14), f(y(s.CeilingFPS)), ceilColor,
				esc(fmt.Sprintf("hosts' ceiling at %d bytes: %s frames/s", s.Frame, formatFPS(s.CeilingFPS))))
		}
		if ref := s.Reference; ref != nil && ref.FPS() > 0 {
			rx, ry := x-12, y(ref.FPS())
			w.printf(`<path class="datasheet" d="M%s %s L%s %s L%s %s L%s %s Z" fill="#f28e2b"><title>%s</title></path>`+"\n",
				f(rx), f(ry-5), f(rx+5), f(ry), f(rx), f(ry+5), f(rx-5), f(ry),
				esc(fmt.Sprintf("datasheet at %d bytes: %s frames/s (%s)", s.Frame, formatFPS(ref.FPS()), ref.Source)))
		}
		if s.Outcome != bench.SearchFound || s.FramesPerSecond <= 0 {
			w.text("none", x, top+plotH-8, labelPx, "middle", "#b00", "none found", false, false)
			continue
		}
		fill, stroke, label := routerColor, routerColor, fmt.Sprintf("%.1f%%", s.LineRatePercent)
		if s.HostLimited {
			fill, stroke, label = "white", limitedColor, "host-limited"
		}
		w.printf(`<circle class="result" cx="%s" cy="%s" r="5" fill="%s" stroke="%s" stroke-width="2"><title>%s</title></circle>`+"\n",
			f(x), f(y(s.FramesPerSecond)), fill, stroke,
			esc(fmt.Sprintf("%d bytes: %s frames/s, %.1f %% of the line rate", s.Frame, formatFPS(s.FramesPerSecond), s.LineRatePercent)))
		w.text("value", x+9, y(s.FramesPerSecond), labelPx, "", map[bool]string{true: "#666", false: "#222"}[s.HostLimited], label, true, false)
	}
	// Legend.
	ly := top + plotH + 40
	w.text("axis", left+plotW/2, top+plotH+32-4, labelPx+1, "middle", "#444", "frame size (bytes)", false, false)
	lx := left
	item := func(swatch func(x, y float64) string, name string) {
		w.printf("%s\n", swatch(lx, ly))
		w.text("legend", lx+22, ly+5, labelPx, "", "#222", name, true, false)
		lx += 34 + textWidth(name, labelPx)
	}
	item(func(x, y float64) string {
		return fmt.Sprintf(`<circle cx="%s" cy="%s" r="5" fill="%s"/>`, f(x+8), f(y+5), routerColor)
	}, "measured")
	item(func(x, y float64) string {
		return fmt.Sprintf(`<circle cx="%s" cy="%s" r="5" fill="white" stroke="%s" stroke-width="2"/>`, f(x+8), f(y+5), limitedColor)
	}, "host-limited (the generator's figure)")
	item(func(x, y float64) string {
		return fmt.Sprintf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" stroke-dasharray="4 3"/>`, f(x), f(y+5), f(x+16), f(y+5), ceilColor)
	}, "hosts' ceiling without the router")
	item(func(x, y float64) string {
		return fmt.Sprintf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#222" stroke-width="1.5"/>`, f(x), f(y+5), f(x+16), f(y+5))
	}, "line rate")
	if hasReferences(ss) {
		item(func(x, y float64) string {
			return fmt.Sprintf(`<path d="M%s %s L%s %s L%s %s L%s %s Z" fill="#f28e2b"/>`, f(x+8), f(y), f(x+13), f(y+5), f(x+8), f(y+10), f(x+3), f(y+5))
		}, "datasheet")
	}
	w.printf("</svg>\n")
	return w.String()
}

// logStep is the 1-2-5 step at or above v (up) or at or below it.
func logStep(v float64, up bool) float64 {
	base := math.Pow(10, math.Floor(math.Log10(v)))
	steps := []float64{1, 2, 5, 10}
	if up {
		for _, m := range steps {
			if base*m >= v*0.9999 {
				return base * m
			}
		}
		return base * 10
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if base*steps[i] <= v*1.0001 {
			return base * steps[i]
		}
	}
	return base
}

// fpsTick labels a frames/s tick: 20k, 1M.
func fpsTick(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	default:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
}
