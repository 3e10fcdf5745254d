package hostenv

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// Environment makes the run's record of a host out of the read before the
// first step and, when there was one, the read after the last (nil:
// none, because the run was cancelled or the read failed; afterErr says
// why when it failed). The record holds what was read before, the tc
// statistics of both reads, and names in Changed what read differently
// after. It is nil for a host that is not Linux.
func Environment(before Reading, after *Reading, afterErr error) *bench.HostEnvironment {
	if before.OS != "Linux" {
		return nil
	}
	env := &bench.HostEnvironment{
		CPUModel: before.CPUModel,
		CPUCount: before.CPUCount,
		Sysctls:  before.Sysctls,
		Missing:  slices.Clone(before.Missing),
	}
	for _, i := range before.Interfaces {
		env.Interfaces = append(env.Interfaces, bench.PathInterface{
			Name: i.Name, Targets: i.Targets, Link: i.Link, Offloads: i.Offloads, QdiscsBefore: i.Qdiscs,
		})
	}
	switch {
	case afterErr != nil:
		env.Missing = append(env.Missing, "after the last step: "+afterErr.Error())
	case after == nil:
		env.Missing = append(env.Missing, "not read after the last step: the run ended first")
	default:
		env.Changed = changes(before, *after)
		for _, m := range after.Missing {
			if !slices.Contains(env.Missing, m) {
				env.Missing = append(env.Missing, "after the last step: "+m)
			}
		}
		for k := range env.Interfaces {
			p := &env.Interfaces[k]
			if i := find(after.Interfaces, p.Name); i != nil {
				p.QdiscsAfter = i.Qdiscs
			}
		}
	}
	return env
}

func find(ifs []Interface, name string) *Interface {
	for k := range ifs {
		if ifs[k].Name == name {
			return &ifs[k]
		}
	}
	return nil
}

// changes names what differs between the two reads other than the
// counters, which are expected to move: a sysctl, an interface's link
// or offloads, a qdisc replaced, a path interface come or gone. Each as
// "<what> <before> → <after>".
func changes(before, after Reading) []string {
	var out []string
	diff := func(what string, b, a any) {
		if b != a {
			out = append(out, fmt.Sprintf("%s %v → %v", what, b, a))
		}
	}
	bs, as := before.Sysctls, after.Sysctls
	diff("net.ipv4.tcp_congestion_control", bs.CongestionControl, as.CongestionControl)
	diff("net.core.default_qdisc", bs.DefaultQdisc, as.DefaultQdisc)
	diff("net.core.rmem_max", bs.RmemMax, as.RmemMax)
	diff("net.core.wmem_max", bs.WmemMax, as.WmemMax)
	diff("net.ipv4.tcp_rmem", bs.TCPRmem, as.TCPRmem)
	diff("net.ipv4.tcp_wmem", bs.TCPWmem, as.TCPWmem)
	diff("CPU count", before.CPUCount, after.CPUCount)
	for _, b := range before.Interfaces {
		a := find(after.Interfaces, b.Name)
		if a == nil {
			out = append(out, b.Name+": not on the path after the last step")
			continue
		}
		diff(b.Name+": speed", b.Link.Speed, a.Link.Speed)
		diff(b.Name+": duplex", b.Link.Duplex, a.Link.Duplex)
		diff(b.Name+": driver", b.Link.Driver+" "+b.Link.DriverVersion, a.Link.Driver+" "+a.Link.DriverVersion)
		for _, k := range slices.Sorted(maps.Keys(b.Offloads)) {
			if av, ok := a.Offloads[k]; ok {
				diff(b.Name+": "+k, onOff(b.Offloads[k]), onOff(av))
			}
		}
		if bq, aq := shapes(b.Qdiscs), shapes(a.Qdiscs); !slices.Equal(bq, aq) {
			out = append(out, fmt.Sprintf("%s: qdiscs %s → %s", b.Name, strings.Join(bq, ", "), strings.Join(aq, ", ")))
		}
	}
	for _, a := range after.Interfaces {
		if find(before.Interfaces, a.Name) == nil {
			out = append(out, a.Name+": on the path only after the last step")
		}
	}
	return out
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// shapes is each qdisc without its counters: what it was set to be.
func shapes(qs []bench.Qdisc) []string {
	var out []string
	for _, q := range qs {
		out = append(out, strings.TrimSpace(q.Kind+" "+q.Handle+" "+q.Parent+" "+q.Params))
	}
	return out
}
