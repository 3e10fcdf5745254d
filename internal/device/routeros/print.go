package routeros

import (
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Row is one row of a `print terse` listing: its flags ("R", "XS") and
// its key=value properties.
type Row struct {
	Flags string
	Attrs map[string]string
}

// ParsePrintTerse reads `print terse` output: one row per line, an item
// number, then flag letters, then key=value words quoted as in exports
// (` 0  R name=ether1 default-name=ether1 type=ether mtu=1500 ...`). The
// key=value part is the same grammar as an export's arguments, so each
// row is read by the export parser as one `add` item.
func ParsePrintTerse(out string) ([]Row, error) {
	var rows []Row
	for _, line := range device.Lines(out) {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") || strings.HasPrefix(fields[0], "Flags:") {
			continue
		}
		// Leading words without "=" are the item number and flags.
		var flags []string
		rest := strings.TrimSpace(line)
		for len(fields) > 0 && !strings.Contains(fields[0], "=") {
			if c := fields[0][0]; c < '0' || c > '9' {
				flags = append(flags, fields[0])
			}
			rest = strings.TrimSpace(strings.TrimPrefix(rest, fields[0]))
			fields = fields[1:]
		}
		if rest == "" {
			continue
		}
		exp, err := ParseExport("/row\nadd " + rest + "\n")
		if err != nil {
			return nil, fmt.Errorf("row %q: %w", device.Snippet(line), err)
		}
		sec := exp.Section("/row")
		if sec == nil || len(sec.Items) != 1 {
			return nil, fmt.Errorf("row %q: not key=value words", device.Snippet(line))
		}
		r := Row{Flags: strings.Join(flags, ""), Attrs: map[string]string{}}
		for _, a := range sec.Items[0].Attrs {
			r.Attrs[a.Key] = a.Value
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// links is the operational state of each interface: RouterOS flags a
// running interface "R" and a disabled one "X".
func links(rows []Row) map[string]string {
	out := map[string]string{}
	for _, r := range rows {
		name := r.Attrs["name"]
		if name == "" {
			continue
		}
		switch {
		case strings.Contains(r.Flags, "X"):
			out[name] = "DISABLED"
		case strings.Contains(r.Flags, "R"):
			out[name] = "UP"
		default:
			out[name] = "DOWN"
		}
	}
	return out
}
