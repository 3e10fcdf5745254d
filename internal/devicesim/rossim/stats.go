package rossim

import (
	"fmt"
	"strconv"
	"strings"
)

// IfStats are an interface's counters as `/interface print stats` shows
// them (SetInterfaceStats); an interface without any prints zeros.
type IfStats struct {
	RxByte, TxByte, RxPacket, TxPacket, RxDrop, TxDrop, TxQueueDrop, RxError, TxError int64
}

// SetInterfaceStats sets the counters `/interface print stats` prints for
// the interface named name.
func (s *Sim) SetInterfaceStats(name string, st IfStats) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ifStats == nil {
		s.ifStats = map[string]IfStats{}
	}
	s.ifStats[name] = st
}

// statsColumns are `/interface print stats`'s columns. Source: the
// RouterOS 7 header public tooling reproduces (a bandwidth-monitor test
// fixture and a RouterOS console in a game; MikroTik's own manual page
// was not read, so the v6 table is an assumption) ("Columns: NAME, RX-BYTE, TX-BYTE, RX-PACKET,
// TX-PACKET, RX-DROP, TX-DROP, TX-QUEUE-DROP, RX-ERROR, TX-ERROR").
var statsColumns = []string{"RX-BYTE", "TX-BYTE", "RX-PACKET", "TX-PACKET", "RX-DROP", "TX-DROP", "TX-QUEUE-DROP", "RX-ERROR", "TX-ERROR"}

// printInterfaceStats is `/interface print stats`: the flag legend, on v7
// the Columns line, then "#", flags, NAME and one right-aligned number
// per column. Assumptions (internal/device/routeros/testdata/README.md):
// digits grouped by single spaces, numbers right-aligned under the end of
// their column's name, columns two spaces apart on v7 and one on v6.
func (s *Sim) printInterfaceStats(out *console) {
	rows := s.interfaceRows()
	legend := legends["/interface"][0]
	gap := " "
	if s.major >= 7 {
		legend, gap = legends["/interface"][1], "  "
	}
	out.line("Flags: " + legend)
	if s.major >= 7 {
		out.line("Columns: NAME, " + strings.Join(statsColumns, ", "))
	}
	type line struct {
		flags, name string
		vals        []string
	}
	var lines []line
	nameW, flagW := len("NAME"), 1
	widths := make([]int, len(statsColumns))
	for i, c := range statsColumns {
		widths[i] = len(c)
	}
	for _, r := range rows {
		name := ""
		for _, kv := range r.Attrs {
			if kv.Key == "name" {
				name = kv.Value
			}
		}
		st := s.ifStats[name]
		vals := []string{}
		for _, v := range []int64{st.RxByte, st.TxByte, st.RxPacket, st.TxPacket, st.RxDrop, st.TxDrop, st.TxQueueDrop, st.RxError, st.TxError} {
			vals = append(vals, grouped(v))
		}
		for i, v := range vals {
			widths[i] = max(widths[i], len(v))
		}
		nameW, flagW = max(nameW, len(name)), max(flagW, len(r.Flags))
		lines = append(lines, line{r.Flags, name, vals})
	}
	idxW := max(len(strconv.Itoa(len(rows))), 1)
	var h strings.Builder
	fmt.Fprintf(&h, " %*s %-*s %-*s", idxW, "#", flagW, "", nameW, "NAME")
	for i, c := range statsColumns {
		fmt.Fprintf(&h, "%s%*s", gap, widths[i], c)
	}
	out.line(h.String())
	for i, l := range lines {
		var b strings.Builder
		fmt.Fprintf(&b, " %*d %-*s %-*s", idxW, i, flagW, l.flags, nameW, l.name)
		for j, v := range l.vals {
			fmt.Fprintf(&b, "%s%*s", gap, widths[j], v)
		}
		out.line(b.String())
	}
}

// grouped prints n with its digits in groups of three, separated by
// single spaces, as RouterOS's tables print counters ("1 503 228 904").
func grouped(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	return b.String()
}
