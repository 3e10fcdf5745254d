package linux

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// Linux limits that ValidateRouter enforces before anything is sent.
const (
	minMTU         = 68    // IPv4 minimum (RFC 791)
	maxMTU         = 65535 // veth and most virtual links
	maxIfNameLen   = 15    // IFNAMSIZ - 1
	maxDescription = 255   // IFALIASZ - 1
)

// ValidateRouter checks desired against what a Linux router accepts.
func ValidateRouter(desired device.RouterConfig) error {
	if err := device.ValidateRouterValues(desired); err != nil {
		return err
	}
	if desired.Hostname != nil {
		if err := device.ValidateHostname(*desired.Hostname); err != nil {
			return err
		}
		if len(*desired.Hostname) > 64 {
			return fmt.Errorf("hostname %q: Linux allows at most 64 characters", *desired.Hostname)
		}
	}
	for _, name := range device.SortedKeys(desired.Interfaces) {
		if err := device.ValidateInterfaceName(name); err != nil {
			return err
		}
		if len(name) > maxIfNameLen || strings.Contains(name, "/") {
			return fmt.Errorf("interface name %q: Linux names are at most %d characters without '/'", name, maxIfNameLen)
		}
		ifc := desired.Interfaces[name]
		if ifc.MTU != nil && (*ifc.MTU < minMTU || *ifc.MTU > maxMTU) {
			return fmt.Errorf("interface %q: mtu %d is out of range: Linux allows %d to %d", name, *ifc.MTU, minMTU, maxMTU)
		}
		if ifc.Description != nil {
			if err := device.ValidateDescription(*ifc.Description, maxDescription); err != nil {
				return fmt.Errorf("interface %q: %w", name, err)
			}
		}
	}
	for _, dst := range device.SortedKeys(desired.Routes) {
		r := desired.Routes[dst]
		if r == nil {
			continue
		}
		if r.Gateway == "" && r.Interface == "" {
			return fmt.Errorf("route %s: set gateway, interface or both", dst)
		}
		if r.Gateway != "" {
			if err := device.ValidateGateway(dst, r.Gateway); err != nil {
				return fmt.Errorf("route %s: %w", dst, err)
			}
		}
		if r.Interface != "" {
			if err := device.ValidateInterfaceName(r.Interface); err != nil {
				return fmt.Errorf("route %s: %w", dst, err)
			}
		}
	}
	return nil
}

// RenderRouter returns the shell script that moves a Linux router from
// observed to desired, or "" when nothing differs. It touches only keys
// desired manages, and only routes tagged with RouteProtocol.
func RenderRouter(desired device.RouterConfig, observed device.RouterState) (string, error) {
	if err := ValidateRouter(desired); err != nil {
		return "", err
	}
	if err := device.CheckInterfacesExist(desired, observed); err != nil {
		return "", err
	}
	return render(desired, observed), nil
}

// RenderRestore returns the script that puts back values the device itself
// had (saved originals): no validation against today's rules, since Linux
// accepted these values once (every value is still quoted), and what
// vanished from the device is dropped with a warning.
func RenderRestore(original device.RouterConfig, observed device.RouterState) (script string, warnings []string) {
	original, warnings = device.DropVanished(original, observed)
	return render(original, observed), warnings
}

// render writes the commands that move observed to desired.
func render(desired device.RouterConfig, observed device.RouterState) string {
	var cmds []string
	if desired.Hostname != nil && *desired.Hostname != observed.Hostname {
		// The kernel's UTS name, not hostname(1): that tool refuses names
		// the kernel holds happily ("lab_r1" from /etc/hostname at boot),
		// and restoring such a name must never fail.
		cmds = append(cmds, "sysctl -qw "+shell.Quote("kernel.hostname="+*desired.Hostname))
	}
	for _, name := range device.SortedKeys(desired.Interfaces) {
		cmds = append(cmds, renderInterface(name, desired.Interfaces[name], observed.Interfaces[name])...)
	}
	for _, dst := range device.SortedKeys(desired.Routes) {
		cmds = append(cmds, renderRoute(dst, desired.Routes[dst], observed.Routes)...)
	}
	cmds = append(cmds, renderSysctl("net.ipv4.ip_forward", desired.IPv4Forwarding, observed.IPv4Forwarding)...)
	cmds = append(cmds, renderSysctl("net.ipv6.conf.all.forwarding", desired.IPv6Forwarding, observed.IPv6Forwarding)...)
	if desired.ConnectionTracking != nil && *desired.ConnectionTracking != observed.ConnectionTracking {
		cmds = append(cmds, renderConntrack(*desired.ConnectionTracking)...)
	}
	if len(cmds) == 0 {
		return ""
	}
	return strings.Join(cmds, "\n") + "\n"
}

func renderInterface(name string, want device.InterfaceConfig, have device.InterfaceState) []string {
	var cmds []string
	dev := shell.Quote(name)
	if want.MTU != nil && *want.MTU != have.MTU {
		cmds = append(cmds, fmt.Sprintf("ip link set dev %s mtu %d", dev, *want.MTU))
	}
	if want.Description != nil && *want.Description != have.Description {
		cmds = append(cmds, fmt.Sprintf("ip link set dev %s alias %s", dev, shell.Quote(*want.Description)))
	}
	if want.Addresses != nil {
		// Remove first: an address moving to another prefix length must
		// go before it can be added again.
		for _, a := range have.Addresses {
			if !slices.Contains(want.Addresses, a) {
				cmds = append(cmds, fmt.Sprintf("ip addr del %s dev %s", shell.Quote(a), dev))
			}
		}
		for _, a := range want.Addresses {
			if !slices.Contains(have.Addresses, a) {
				cmds = append(cmds, fmt.Sprintf("ip addr add %s dev %s", shell.Quote(a), dev))
			}
		}
	}
	return cmds
}

func renderRoute(dst string, want *device.Route, owned map[string]device.Route) []string {
	have, exists := owned[dst]
	family := "-4"
	if strings.Contains(dst, ":") {
		family = "-6"
	}
	del := fmt.Sprintf("ip %s route del %s proto %d", family, dst, RouteProtocol)
	if have.Metric != nil {
		del += " metric " + strconv.Itoa(*have.Metric)
	}
	switch {
	case want == nil && exists:
		return []string{del}
	case want == nil:
		return nil
	case exists && routeMatches(*want, have):
		return nil
	}
	add := fmt.Sprintf("ip %s route add %s", family, dst)
	if want.Gateway != "" {
		add += " via " + want.Gateway
	}
	if want.Interface != "" {
		add += " dev " + shell.Quote(want.Interface)
	}
	if want.Metric != nil {
		add += " metric " + strconv.Itoa(*want.Metric)
	}
	add += fmt.Sprintf(" proto %d", RouteProtocol)
	if exists {
		return []string{del, add}
	}
	return []string{add}
}

// routeMatches compares only what the desired route sets: an unset metric
// or interface accepts whatever the kernel chose.
func routeMatches(want, have device.Route) bool {
	if want.Gateway != have.Gateway {
		return false
	}
	if want.Interface != "" && want.Interface != have.Interface {
		return false
	}
	if want.Metric != nil && (have.Metric == nil || *want.Metric != *have.Metric) {
		// The kernel omits metric 0 from ip -j output.
		return *want.Metric == 0 && (have.Metric == nil || *have.Metric == 0)
	}
	return true
}

func renderSysctl(key string, want *bool, have bool) []string {
	if want == nil || *want == have {
		return nil
	}
	return []string{fmt.Sprintf("sysctl -qw %s=%s", key, boolDigit(*want))}
}

// renderConntrack switches connection tracking off with notrack rules at raw
// priority in routerlab's own table, or on by removing exactly those chains
// (and the table when nothing else of ours is left in it).
func renderConntrack(on bool) []string {
	need := `command -v nft >/dev/null || { echo "nftables is not installed on the device (nft not found): apt-get install nftables" >&2; exit 127; }`
	if !on {
		return []string{need, strings.TrimSuffix(shell.MustHereDoc("nft -f -", fmt.Sprintf(`table inet %[1]s {
	chain %[2]s { type filter hook prerouting priority raw; policy accept; notrack; }
	chain %[3]s { type filter hook output priority raw; policy accept; notrack; }
}
`, nftTable, notrackPrerouting, notrackOutput)), "\n")}
	}
	return []string{need,
		fmt.Sprintf("nft delete chain inet %s %s 2>/dev/null || true", nftTable, notrackPrerouting),
		fmt.Sprintf("nft delete chain inet %s %s 2>/dev/null || true", nftTable, notrackOutput),
		fmt.Sprintf("nft list table inet %[1]s 2>/dev/null | grep -q chain || nft delete table inet %[1]s 2>/dev/null || true", nftTable),
	}
}
