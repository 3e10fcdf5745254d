package routeros

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// healthValue is a sensor reading with its unit ("W", "V", "A", "C", "RPM").
type healthValue struct {
	v    float64
	unit string
}

var healthV6 = regexp.MustCompile(`^\s*([a-z0-9-]+):\s*([-+]?\d+(?:\.\d+)?)\s*([A-Za-z%]*)\s*$`)

// ParseHealth reads the power draw, in watts, from `/system health print`.
// RouterOS v7 prints a table
//
//	Columns: NAME, VALUE, TYPE
//	#  NAME                VALUE  TYPE
//	0  power-consumption   12.3   W
//
// and v6 a list ("power-consumption: 12.3W"). Without a power-consumption
// sensor, voltage × current (input voltage and current) is used when the
// board reports both. Whether the figure is plausible (not negative) is
// the power meter's check, which applies to every meter alike.
func ParseHealth(out string) (float64, error) {
	vals := map[string]healthValue{}
	var names []string
	add := func(name, num, unit string) {
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return
		}
		if _, dup := vals[name]; !dup {
			names = append(names, name)
			vals[name] = healthValue{v, unit}
		}
	}
	table := false
	for _, line := range device.Lines(out) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if f[0] == "#" && slices.Contains(f, "NAME") && slices.Contains(f, "VALUE") {
			table = true
			continue
		}
		if table {
			if _, err := strconv.Atoi(f[0]); err == nil && len(f) >= 3 {
				unit := ""
				if len(f) >= 4 {
					unit = f[3]
				}
				add(f[1], f[2], unit)
			}
			continue
		}
		if m := healthV6.FindStringSubmatch(line); m != nil {
			add(m[1], m[2], m[3])
		}
	}
	if p, ok := vals["power-consumption"]; ok {
		switch p.unit {
		case "W", "":
			return p.v, nil
		case "mW":
			return p.v / 1000, nil
		}
		return 0, fmt.Errorf("power-consumption is in %q, not W", p.unit)
	}
	v, okV := vals["voltage"]
	c, okC := vals["current"]
	if okV && okC && v.unit == "V" && (c.unit == "A" || c.unit == "mA") {
		amps := c.v
		if c.unit == "mA" {
			amps /= 1000
		}
		return v.v * amps, nil
	}
	if len(names) == 0 {
		return 0, fmt.Errorf("no sensors in the output %s (CHR and some small boards have none)", device.Snippet(out))
	}
	return 0, fmt.Errorf("no power-consumption (nor voltage and current) among this board's sensors: %s; use another meter type", strings.Join(names, ", "))
}
