package rossim

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Flag legends of the status menus' tables (v7 words them in capitals).
var legends = map[string][2]string{
	"/ppp active":            {"R - radius", "R - RADIUS"},
	"/interface":             {"D - dynamic, X - disabled, R - running", "D - DYNAMIC; X - DISABLED; R - RUNNING"},
	"/interface l2tp-server": {"X - disabled, D - dynamic, R - running", "X - DISABLED; D - DYNAMIC; R - RUNNING"},
}

func (s *Sim) print(c *cmdLine, out *console) *runtimeErr {
	terse := slices.Contains(c.flags, "terse") || slices.Contains(c.flags, "detail")
	path := c.node.path
	switch path {
	case "/system resource":
		s.printResource(out)
	case "/system resource cpu":
		s.printCPU(out)
	case "/system health":
		s.printHealth(out)
	case "/system routerboard":
		s.printRouterboard(out)
	case "/interface":
		if slices.Contains(c.flags, "stats") {
			s.printInterfaceStats(out)
			return nil
		}
		s.printRows(out, path, s.interfaceRows(), terse)
	case "/ppp active", "/ip ipsec active-peers", "/ip ipsec remote-peers":
		s.printRows(out, path, s.rows[path], terse)
	case "/interface l2tp-server":
		s.printRows(out, path, append(s.itemRows(c.node.table), s.rows[path]...), terse)
	case "/interface wireguard peers":
		// Peers print their read-only last handshake after their
		// configuration.
		rows := s.itemRows(c.node.table)
		for i, r := range rows {
			for _, kv := range r.Attrs {
				if ago, ok := s.handshakes[kv.Value]; ok && kv.Key == "public-key" {
					rows[i].Attrs = append(rows[i].Attrs, KV{"last-handshake", ago})
				}
			}
		}
		s.printRows(out, path, rows, true)
	default:
		t := c.node.table
		if t.m.list {
			// Configuration lists print in the terse form whatever the
			// flags: their default form (a wrapped detail view) is not
			// simulated.
			s.printRows(out, path, s.itemRows(t), true)
			return nil
		}
		var props []KV
		for _, n := range t.m.names {
			if t.m.attrs[n].secret && s.major >= 7 {
				continue
			}
			props = append(props, KV{n, t.value(t.items[0], n)})
		}
		keyValues(out, props)
	}
	return nil
}

// keyValues prints a property list as RouterOS does: keys right-aligned
// two columns in from the margin, then a blank line.
func keyValues(out *console, props []KV) {
	w := 0
	for _, p := range props {
		w = max(w, len(p.Key))
	}
	for _, p := range props {
		out.line(fmt.Sprintf("%*s: %s", w+2, p.Key, p.Value))
	}
	out.line("")
}

// itemRows are a configuration list's items as print rows: all their
// non-empty attributes (secrets only on v6), flagged X when disabled and
// R when a running interface.
func (s *Sim) itemRows(t *table) []Row {
	rows := make([]Row, 0, len(t.items))
	for _, it := range t.items {
		var r Row
		if t.value(it, "disabled") == "yes" {
			r.Flags += "X"
		}
		if s.running(t, it) {
			r.Flags += "R"
		}
		for _, n := range t.m.names {
			if n == "disabled" || (t.m.attrs[n].secret && s.major >= 7) {
				continue
			}
			if v := t.value(it, n); v != "" {
				r.Attrs = append(r.Attrs, KV{n, v})
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// interfaceRows is /interface print: every interface in creation order,
// then the dynamic L2TP server sessions.
func (s *Sim) interfaceRows() []Row {
	type entry struct {
		t  *table
		it *item
	}
	var all []entry
	for _, t := range s.interfaceTables() {
		for _, it := range t.items {
			all = append(all, entry{t, it})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].it.id < all[j].it.id })
	var rows []Row
	for _, e := range all {
		t, it := e.t, e.it
		var r Row
		if t.value(it, "disabled") == "yes" {
			r.Flags += "X"
		}
		if s.running(t, it) {
			r.Flags += "R"
		}
		r.Attrs = append(r.Attrs, KV{"name", t.value(it, "name")})
		if dn := t.value(it, "default-name"); dn != "" {
			r.Attrs = append(r.Attrs, KV{"default-name", dn})
		}
		r.Attrs = append(r.Attrs, KV{"type", interfaceType(t.m.path)})
		mtu := s.interfaceMTU(t, it)
		r.Attrs = append(r.Attrs, KV{"mtu", mtu})
		if mtu == "auto" {
			mtu = "1500"
		}
		r.Attrs = append(r.Attrs, KV{"actual-mtu", mtu})
		if l2 := t.value(it, "l2mtu"); l2 != "" {
			r.Attrs = append(r.Attrs, KV{"l2mtu", l2})
		}
		if mac := t.value(it, "mac-address"); mac != "" {
			r.Attrs = append(r.Attrs, KV{"mac-address", mac})
		}
		if c := t.value(it, "comment"); c != "" {
			r.Attrs = append(r.Attrs, KV{"comment", c})
		}
		rows = append(rows, r)
	}
	for _, r := range s.rows["/interface l2tp-server"] {
		rr := Row{Flags: r.Flags}
		for _, p := range r.Attrs {
			if p.Key == "name" {
				rr.Attrs = append(rr.Attrs, p, KV{"type", "l2tp-in"})
			}
		}
		rows = append(rows, rr)
	}
	return rows
}

func (s *Sim) interfaceMTU(t *table, it *item) string {
	for _, k := range []string{"mtu", "max-mtu"} {
		if _, ok := t.m.attrs[k]; ok {
			if v := t.value(it, k); v != "" && v != "auto" || t.m.path == "/interface bridge" {
				return v
			}
		}
	}
	if t.m.path == "/interface pppoe-client" {
		return "1480"
	}
	return "1500"
}

// printRows prints status rows as a table, or in the terse form (one
// line per row: number, flags, key=value words quoted as in exports).
func (s *Sim) printRows(out *console, path string, rows []Row, terse bool) {
	if terse {
		for i, r := range rows {
			var b strings.Builder
			fmt.Fprintf(&b, "%2d %2s", i, r.Flags)
			for _, p := range r.Attrs {
				if p.Value != "" {
					b.WriteString(" " + p.Key + "=" + quote(p.Value))
				}
			}
			out.line(b.String())
		}
		return
	}
	if len(rows) == 0 {
		return
	}
	var cols []string
	flags := false
	for _, r := range rows {
		flags = flags || r.Flags != ""
		for _, p := range r.Attrs {
			if !slices.Contains(cols, p.Key) {
				cols = append(cols, p.Key)
			}
		}
	}
	head := []string{"#"}
	if flags {
		head = append(head, "")
	}
	for _, c := range cols {
		head = append(head, strings.ToUpper(c))
	}
	grid := [][]string{head}
	for i, r := range rows {
		cells := []string{strconv.Itoa(i)}
		if flags {
			cells = append(cells, r.Flags)
		}
		for _, c := range cols {
			v := ""
			for _, p := range r.Attrs {
				if p.Key == c {
					v = p.Value
				}
			}
			cells = append(cells, v)
		}
		grid = append(grid, cells)
	}
	legend := legends[path]
	if s.major >= 7 {
		if flags && legend[1] != "" {
			out.line("Flags: " + legend[1])
		}
		out.line("Columns: " + strings.Join(head[len(head)-len(cols):], ", "))
		tableLines(out, grid, "  ", false)
		return
	}
	if flags && legend[0] != "" {
		out.line("Flags: " + legend[0])
	}
	tableLines(out, grid, " ", true)
}

// tableLines pads every column to its widest cell. v6 right-aligns the
// item number in two columns; v7 left-aligns it and pads even the last
// column (as the v7 tables in the routeros package's testdata show).
func tableLines(out *console, grid [][]string, gap string, v6 bool) {
	widths := make([]int, len(grid[0]))
	for _, row := range grid {
		for i, c := range row {
			widths[i] = max(widths[i], len(c))
		}
	}
	for _, row := range grid {
		var b strings.Builder
		for i, c := range row {
			if i > 0 {
				b.WriteString(gap)
			}
			if i == 0 && v6 {
				fmt.Fprintf(&b, "%*s", max(widths[0], 2), c)
				continue
			}
			fmt.Fprintf(&b, "%-*s", widths[i], c)
		}
		line := b.String()
		if v6 {
			line = strings.TrimRight(line, " ")
		}
		out.line(line)
	}
}

func (s *Sim) printResource(out *console) {
	channel, build, factory := "stable", "2024-01-10 13:22:31", "7.4.1"
	if s.major < 7 {
		channel, build, factory = "long-term", "Aug/30/2023 09:27:26", "6.44.6"
	}
	props := []KV{
		{"uptime", "3d4h12m55s"},
		{"version", s.version + " (" + channel + ")"},
		{"build-time", build},
		{"factory-software", factory},
		{"free-memory", "197.6MiB"},
		{"total-memory", s.board.totalMemory},
		{"cpu", s.board.cpu},
		{"cpu-count", strconv.Itoa(s.board.cpuCount)},
		{"cpu-frequency", strconv.Itoa(s.board.cpuMHz) + "MHz"},
		{"cpu-load", strconv.Itoa(s.cpuLoad) + "%"},
		{"free-hdd-space", "2932.0KiB"},
		{"total-hdd-space", s.board.totalHDD},
		{"write-sect-since-reboot", "1211"},
		{"write-sect-total", "28871"},
	}
	if s.board.routerboard {
		props = append(props, KV{"bad-blocks", "0%"})
	}
	props = append(props, KV{"architecture-name", s.board.arch}, KV{"board-name", s.board.boardName},
		KV{"platform", "MikroTik"})
	keyValues(out, props)
}

func (s *Sim) coreLoads() []int {
	loads := make([]int, s.board.cpuCount)
	for i := range loads {
		loads[i] = s.cpuLoad
		if i < len(s.coreLoad) {
			loads[i] = s.coreLoad[i]
		}
	}
	return loads
}

// printCPU is `/system resource cpu print`: a table per core.
func (s *Sim) printCPU(out *console) {
	loads := s.coreLoads()
	if s.major < 7 {
		// v6's wide fixed columns, right-aligned values.
		out.line(fmt.Sprintf("%2s %-63s%4s%12s%12s", "#", "CPU", "LOAD", "IRQ", "DISK"))
		for i, l := range loads {
			out.line(fmt.Sprintf("%2d %-63s%4s%12s%12s", i, "cpu"+strconv.Itoa(i), strconv.Itoa(l)+"%", strconv.Itoa(l/2)+"%", "0%"))
		}
		return
	}
	grid := [][]string{{"#", "CPU", "LOAD", "IRQ", "DISK"}}
	for i, l := range loads {
		grid = append(grid, []string{strconv.Itoa(i), "cpu" + strconv.Itoa(i), strconv.Itoa(l) + "%", strconv.Itoa(l/2) + "%", "0%"})
	}
	out.line("Columns: CPU, LOAD, IRQ, DISK")
	tableLines(out, grid, "  ", false)
}

// printHealth is `/system health print`: v7 a NAME/VALUE/TYPE table, v6 a
// property list. A CHR has no sensors and prints nothing.
func (s *Sim) printHealth(out *console) {
	type sensor struct{ name, value, unit string }
	var sensors []sensor
	if s.power > 0 {
		sensors = append(sensors, sensor{"power-consumption", strconv.FormatFloat(s.power, 'f', 1, 64), "W"})
	}
	if s.board.voltage != "" {
		sensors = append(sensors, sensor{"voltage", s.board.voltage, "V"}, sensor{"temperature", s.board.temperature, "C"})
	}
	if len(sensors) == 0 {
		return
	}
	if s.major < 7 {
		props := make([]KV, len(sensors))
		for i, x := range sensors {
			props[i] = KV{x.name, x.value + x.unit}
		}
		keyValues(out, props)
		return
	}
	grid := [][]string{{"#", "NAME", "VALUE", "TYPE"}}
	for i, x := range sensors {
		grid = append(grid, []string{strconv.Itoa(i), x.name, x.value, x.unit})
	}
	out.line("Columns: NAME, VALUE, TYPE")
	tableLines(out, grid, "  ", false)
}

func (s *Sim) printRouterboard(out *console) {
	if !s.board.routerboard {
		keyValues(out, []KV{{"routerboard", "no"}})
		return
	}
	factory := "6.48"
	if s.major >= 7 {
		factory = "7.4.1"
	}
	keyValues(out, []KV{
		{"routerboard", "yes"},
		{"board-name", s.board.boardName},
		{"model", s.model},
		{"revision", "r2"},
		{"serial-number", s.serial},
		{"firmware-type", s.board.firmwareType},
		{"factory-firmware", factory},
		{"current-firmware", s.version},
		{"upgrade-firmware", s.version},
	})
}

// monitor is `/interface pppoe-client monitor <client> once`.
func (s *Sim) monitor(c *cmdLine, out *console) *runtimeErr {
	t := c.node.table
	items, err := s.resolve(c, t, c.sel)
	if err != nil {
		return err
	}
	for _, it := range items {
		name := t.value(it, "name")
		props, ok := s.monitors[name]
		if !ok {
			status := "disconnected"
			if t.value(it, "disabled") == "yes" {
				status = "disabled"
			} else if s.running(t, it) {
				status = "connected"
			}
			props = []KV{{"status", status}}
		}
		keyValues(out, props)
	}
	return nil
}
