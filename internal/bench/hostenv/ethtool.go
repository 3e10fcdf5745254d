package hostenv

import (
	"fmt"
	"strings"
)

// offloadNames maps the ethtool -k features read (ethtool 6.1's names)
// to the names ethtool -K takes, which bench.PathInterface.Offloads
// uses: those that decide how many packets the host's CPU handles per
// byte (segmentation and receive coalescing) and whether it checksums.
var offloadNames = map[string]string{
	"tcp-segmentation-offload":     "tso",
	"generic-segmentation-offload": "gso",
	"generic-receive-offload":      "gro",
	"large-receive-offload":        "lro",
	"rx-checksumming":              "rx",
	"tx-checksumming":              "tx",
}

// OffloadOrder is the order in which offloads are shown.
var OffloadOrder = []string{"tso", "gso", "gro", "lro", "rx", "tx"}

// ParseOffloads parses `ethtool -k <if>`: "name: on", "name: off
// [fixed]", sub-features indented (not read). It is an error when none
// of the features read is there (ethtool printing an error instead).
func ParseOffloads(out string) (map[string]bool, error) {
	m := map[string]bool{}
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, " ") {
			continue // a sub-feature of the line above
		}
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		name, known := offloadNames[k]
		if !known {
			continue
		}
		state, _, _ := strings.Cut(strings.TrimSpace(v), " ")
		switch state {
		case "on":
			m[name] = true
		case "off":
			m[name] = false
		}
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("%s", unexpected(out))
	}
	return m, nil
}

// ParseLinkSettings reads "Speed:" and "Duplex:" of `ethtool <if>`; ""
// where it prints none (lo prints only "Link detected").
func ParseLinkSettings(out string) (speed, duplex string) {
	for line := range strings.Lines(out) {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		switch k {
		case "Speed":
			speed = strings.TrimSpace(v)
		case "Duplex":
			duplex = strings.TrimSpace(v)
		}
	}
	return speed, duplex
}

// Driver is what `ethtool -i <if>` says of the driver.
type Driver struct {
	Driver, DriverVersion, Firmware string
}

// ParseDriver parses `ethtool -i <if>`. Without a "driver:" line (lo:
// "Cannot get driver information: Operation not supported") it is an
// error quoting what ethtool said.
func ParseDriver(out string) (Driver, error) {
	var d Driver
	found := false
	for line := range strings.Lines(out) {
		k, v, ok := strings.Cut(strings.TrimRight(line, "\r\n"), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "driver":
			d.Driver, found = v, true
		case "version":
			d.DriverVersion = v
		case "firmware-version":
			d.Firmware = v
		}
	}
	if !found {
		return Driver{}, fmt.Errorf("%s", unexpected(out))
	}
	return d, nil
}
