package hostenv

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// Reading is one read of a host's environment, parsed.
type Reading struct {
	OS         string // uname -s; the rest is read only on "Linux"
	CPUModel   string
	CPUCount   int
	Sysctls    bench.HostSysctls
	Interfaces []Interface
	Missing    []string
	// Ended is true when the script ran to its last line.
	Ended bool
}

// Interface is one path interface as one read saw it.
type Interface struct {
	Name     string
	Targets  []string
	Link     bench.LinkInfo
	Offloads map[string]bool
	Qdiscs   []bench.Qdisc
}

// section is one "@@ <name> <args...>" block of the script's output.
type section struct {
	name string
	args []string
	body string
}

// sections splits the script's output at its marker lines.
func sections(out string) []section {
	var secs []section
	for line := range strings.Lines(out) {
		if rest, ok := strings.CutPrefix(line, marker); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				continue
			}
			secs = append(secs, section{name: f[0], args: f[1:]})
			continue
		}
		if len(secs) > 0 {
			secs[len(secs)-1].body += line
		}
	}
	return secs
}

// Parse reads the output of Script. It never fails: what is not there
// or not understood is named in Reading.Missing.
func Parse(out string) Reading {
	var r Reading
	secs := sections(out)
	// The interfaces first, in the order their targets were met, so that
	// the pointers into r.Interfaces below stay valid.
	byName := map[string]*Interface{}
	for _, s := range secs {
		if s.name == "dev" && len(s.args) == 2 && !slices.ContainsFunc(r.Interfaces, func(i Interface) bool { return i.Name == s.args[1] }) {
			r.Interfaces = append(r.Interfaces, Interface{Name: s.args[1]})
		}
	}
	for i := range r.Interfaces {
		byName[r.Interfaces[i].Name] = &r.Interfaces[i]
	}
	routes := map[string]string{}
	for _, s := range secs {
		arg := func(i int) string {
			if i < len(s.args) {
				return s.args[i]
			}
			return ""
		}
		switch s.name {
		case "os":
			r.OS = arg(0)
		case "nproc":
			if n, err := strconv.Atoi(strings.TrimSpace(s.body)); err == nil && n > 0 {
				r.CPUCount = n
			} else {
				r.Missing = append(r.Missing, "CPU count: "+unexpected(s.body))
			}
		case "cpuinfo":
			r.CPUModel = ParseCPUModel(s.body)
		case "sysctl":
			if err := setSysctl(&r.Sysctls, arg(0), s.body); err != nil {
				r.Missing = append(r.Missing, err.Error())
			}
		case "missing":
			r.Missing = append(r.Missing, arg(0)+" not installed")
		case "route":
			routes[arg(0)] = s.body
		case "dev":
			target := arg(0)
			if len(s.args) < 2 {
				r.Missing = append(r.Missing, fmt.Sprintf("no interface routes to %s: %s", target, unexpected(routes[target])))
				continue
			}
			i := byName[arg(1)]
			i.Targets = append(i.Targets, target)
		case "tc":
			i := byName[arg(0)]
			if i == nil {
				continue
			}
			q, err := ParseQdiscs(s.body)
			if err != nil {
				r.Missing = append(r.Missing, fmt.Sprintf("%s: tc -s qdisc: %v", i.Name, err))
			}
			i.Qdiscs = q
		case "ethtool-k":
			if i := byName[arg(0)]; i != nil {
				off, err := ParseOffloads(s.body)
				if err != nil {
					r.Missing = append(r.Missing, fmt.Sprintf("%s: ethtool -k: %v", i.Name, err))
				}
				i.Offloads = off
			}
		case "ethtool":
			if i := byName[arg(0)]; i != nil {
				speed, duplex := ParseLinkSettings(s.body)
				i.Link.Speed, i.Link.Duplex = speed, duplex
				if speed == "" && duplex == "" && !strings.Contains(s.body, "Settings for") {
					r.Missing = append(r.Missing, fmt.Sprintf("%s: ethtool: %s", i.Name, unexpected(s.body)))
				}
			}
		case "ethtool-i":
			if i := byName[arg(0)]; i != nil {
				d, err := ParseDriver(s.body)
				if err != nil {
					r.Missing = append(r.Missing, fmt.Sprintf("%s: ethtool -i: %v", i.Name, err))
				}
				i.Link.Driver, i.Link.DriverVersion, i.Link.Firmware = d.Driver, d.DriverVersion, d.Firmware
			}
		case "end":
			r.Ended = true
		}
	}
	if r.OS == "Linux" && r.CPUModel == "" && r.CPUCount > 0 {
		// Not an error of the read: many ARM kernels print no model
		// name. Said so that an empty model is not taken for a bug.
		r.Missing = append(r.Missing, "CPU model: /proc/cpuinfo has no model name")
	}
	return r
}

// ParseCPUModel is the first "model name" of /proc/cpuinfo lines.
func ParseCPUModel(cpuinfo string) string {
	for line := range strings.Lines(cpuinfo) {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// setSysctl parses the /proc/sys file key (as the script names it,
// net/ipv4/tcp_rmem) into its field of s.
func setSysctl(s *bench.HostSysctls, key, body string) error {
	name := strings.ReplaceAll(key, "/", ".")
	v := strings.TrimSpace(body)
	bad := func() error { return fmt.Errorf("%s: %s", name, unexpected(body)) }
	one := func(dst *int64) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return bad()
		}
		*dst = n
		return nil
	}
	three := func(dst *[3]int64) error {
		f := strings.Fields(v)
		if len(f) != 3 {
			return bad()
		}
		for i, x := range f {
			n, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				return bad()
			}
			dst[i] = n
		}
		return nil
	}
	word := func(dst *string) error {
		if v == "" || strings.ContainsAny(v, " \t\n") {
			return bad()
		}
		*dst = v
		return nil
	}
	switch key {
	case "net/ipv4/tcp_congestion_control":
		return word(&s.CongestionControl)
	case "net/core/default_qdisc":
		return word(&s.DefaultQdisc)
	case "net/core/rmem_max":
		return one(&s.RmemMax)
	case "net/core/wmem_max":
		return one(&s.WmemMax)
	case "net/ipv4/tcp_rmem":
		return three(&s.TCPRmem)
	case "net/ipv4/tcp_wmem":
		return three(&s.TCPWmem)
	}
	return nil
}

// unexpected quotes the first line of what a tool printed instead of
// what was asked for, for Missing.
func unexpected(body string) string {
	line := firstLine(body)
	if line == "" {
		return "no output"
	}
	const limit = 200
	if len(line) > limit {
		line = line[:limit] + "…"
	}
	return line
}
