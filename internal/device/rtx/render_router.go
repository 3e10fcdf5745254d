package rtx

import (
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// RenderRouter returns the commands that move the device from observed to
// desired, touching only what desired manages; nil when nothing differs.
func RenderRouter(desired device.RouterConfig, observed device.RouterState) ([]Cmd, error) {
	if err := ValidateRouter(desired); err != nil {
		return nil, err
	}
	if err := device.CheckInterfacesExist(routerInterfacesOnly(desired), observed); err != nil {
		return nil, err
	}
	return renderRouter(desired, observed), nil
}

// routerInterfacesOnly drops route interfaces (ppN, tunnelN) from the
// existence check: they are not LAN interfaces of RouterState.
func routerInterfacesOnly(c device.RouterConfig) device.RouterConfig {
	out := c
	out.Routes = nil
	return out
}

// renderRouter is RenderRouter without validation, for restoring
// originals the device once held (a route's saved gateway may be any
// gateway expression RTX printed, written back as it was).
func renderRouter(desired device.RouterConfig, observed device.RouterState) []Cmd {
	var out []Cmd
	top := func(w ...string) { out = append(out, cmd("", w...)) }
	for _, name := range device.SortedKeys(desired.Interfaces) {
		want, have := desired.Interfaces[name], observed.Interfaces[name]
		if want.Addresses != nil && !slices.Equal(want.Addresses, have.Addresses) {
			if len(want.Addresses) == 0 {
				top("no", "ip", name, "address")
			} else {
				top("ip", name, "address", want.Addresses[0])
			}
		}
		if want.MTU != nil && *want.MTU != have.MTU {
			if *want.MTU == DefaultMTU {
				// The default is written by removing the setting, so a
				// router that had none is left with none.
				top("no", "ip", name, "mtu")
			} else {
				top("ip", name, "mtu", strconv.Itoa(*want.MTU))
			}
		}
		if d := want.Description; d != nil && *d != have.Description {
			if *d == "" {
				top("no", "description", name)
			} else {
				top("description", name, *d)
			}
		}
	}
	for _, dst := range device.SortedKeys(desired.Routes) {
		want := desired.Routes[dst]
		have, had := observed.Routes[dst]
		switch {
		case want == nil && had:
			top("no", "ip", "route", routeDestinationWord(dst))
		case want != nil && (!had || have.Gateway != want.Gateway || have.Interface != want.Interface):
			top(append([]string{"ip", "route", routeDestinationWord(dst), "gateway"}, gatewayWords(*want)...)...)
		}
	}
	return out
}

// gatewayWords writes a route's gateway: an address, `pp N`, `tunnel N`,
// or a saved gateway expression as RTX printed it.
func gatewayWords(r device.Route) []string {
	if kind, n, ok := splitIface(r.Interface); ok {
		return []string{kind, strconv.Itoa(n)}
	}
	return strings.Fields(r.Gateway)
}

// RenderOffload sets `ip routing process`: fast (the default) is written
// by removing the setting where the device has one, normal by setting it.
func RenderOffload(desired device.OffloadConfig, c *Config) []Cmd {
	on, ok := desired.Settings[OffloadGroup][OffloadKey]
	if !ok {
		return nil
	}
	have, set := c.Value("", "ip", "routing", "process")
	switch {
	case on && set:
		return []Cmd{cmd("", "no", "ip", "routing", "process")}
	case !on && !slices.Equal(have, []string{"normal"}):
		return []Cmd{cmd("", "ip", "routing", "process", "normal")}
	}
	return nil
}
