package linux

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// Tunnels on Linux. Each type is a tunnelImpl in its own file
// (tunnel_ipsec.go, tunnel_l2tp.go, tunnel_openvpn.go,
// tunnel_wireguard.go); this file dispatches on the type and joins their
// snapshot sections. Every file routerlab writes for a tunnel carries its
// name, so a tunnel is found, read and deleted by name, and nothing of
// the user's is ever touched. Secrets live in files of their own under
// secretDir (mode 0600) that the snapshot never reads.
const (
	// configDir holds routerlab's non-secret tunnel files (OpenVPN,
	// WireGuard, L2TP); strongSwan's live where swanctl --load-all finds
	// them: swanctlDir/routerlab-<name>.conf.
	configDir  = "/etc/routerlab"
	secretDir  = "/etc/routerlab/secrets"
	runDir     = "/run/routerlab"
	swanctlDir = "/etc/swanctl/conf.d"
)

// tunnelImpl is one tunnel type on Linux. All functions are pure.
type tunnelImpl struct {
	// tools are the device commands the type needs (checked at plan
	// against Facts.Missing); needsPPP: it needs the kernel's PPP
	// support (/dev/ppp).
	tools    []string
	needsPPP bool
	// validate adds Linux's rules to device.ValidateTunnelShape.
	validate func(t device.TunnelConfig) error
	// apply returns the script that creates the tunnel, or changes it
	// from observed (nil: it does not exist) to t, and starts it.
	apply func(t device.TunnelConfig, observed *device.TunnelState) (string, error)
	// remove returns the script that stops the tunnel and deletes all it
	// owns; it must succeed when parts are already gone.
	remove func(observed device.TunnelState) string
	// script prints the type's "##name" snapshot sections for every
	// tunnel of the type routerlab owns.
	script string
	// parse reads those sections: each tunnel's state (no secrets), its
	// status, and the lines of the normalised text.
	parse func(sec map[string]string) (map[string]device.TunnelState, map[string]device.TunnelStatus, []string, error)
}

// tunnelImpls maps a type to its implementation; a type missing here is
// one Linux does not run.
var tunnelImpls = map[device.TunnelType]tunnelImpl{
	device.TunnelIPsec:     ipsecImpl,
	device.TunnelL2TPIPsec: l2tpImpl,
	device.TunnelOpenVPN:   openvpnImpl,
	device.TunnelWireGuard: wireguardImpl,
}

// tunnelTypesInOrder fixes the order of snapshot sections and text.
var tunnelTypesInOrder = []device.TunnelType{device.TunnelIPsec, device.TunnelL2TPIPsec, device.TunnelOpenVPN, device.TunnelWireGuard}

var tunnelPart = snapshotPart{
	script: func() string {
		var b strings.Builder
		for _, t := range tunnelTypesInOrder {
			b.WriteString(tunnelImpls[t].script)
		}
		return b.String()
	}(),
	parse: func(sec map[string]string, snap *device.Snapshot) ([]string, error) {
		snap.Tunnels = map[string]device.TunnelState{}
		if snap.Status.Tunnels == nil {
			snap.Status.Tunnels = map[string]device.TunnelStatus{}
		}
		var text []string
		routes := tunnelRoutes(sec)
		for _, typ := range tunnelTypesInOrder {
			states, status, lines, err := tunnelImpls[typ].parse(sec)
			if err != nil {
				return nil, fmt.Errorf("linux snapshot: %s tunnels: %w", typ, err)
			}
			for name, st := range states {
				if _, dup := snap.Tunnels[name]; dup {
					return nil, fmt.Errorf("linux snapshot: two routerlab tunnels are named %q", name)
				}
				if routedTypes[typ] {
					st.Routes = routes[name]
					for _, r := range st.Routes {
						text = append(text, fmt.Sprintf("tunnel %s route %s", name, r))
					}
				}
				snap.Tunnels[name] = st
			}
			for name, s := range status {
				snap.Status.Tunnels[name] = s
			}
			text = append(text, lines...)
		}
		return text, nil
	},
}

// ValidateTunnel implements device.TunnelEndpoints.
func (d *Driver) ValidateTunnel(t device.TunnelConfig) error { return ValidateTunnel(t) }

// ValidateTunnel checks t against what Linux runs.
func ValidateTunnel(t device.TunnelConfig) error {
	if err := device.ValidateTunnelShape(t); err != nil {
		return err
	}
	impl, ok := tunnelImpls[t.Type]
	if !ok {
		return device.Unsupported(device.Linux, fmt.Sprintf("tunnel type %q", t.Type))
	}
	return impl.validate(t)
}

// tunnelRouteProtocol tags the routes a tunnel's `routes` puts into its
// interface (`ip route ... proto 245`): neither routerlab_router's (244)
// nor anybody else's, so each side reads and removes only its own.
const tunnelRouteProtocol = 245

// routedTypes are the tunnel types with an interface named after the
// tunnel that lasts as long as the tunnel (OpenVPN keeps it with
// persist-tun), so routes into it hold.
var routedTypes = map[device.TunnelType]bool{device.TunnelOpenVPN: true, device.TunnelWireGuard: true}

// routesScript points t.Routes into the tunnel's interface, replacing the
// routes it had: it waits for the interface (an OpenVPN daemon opens it
// after it detaches), drops the tunnel's old routes and adds the wanted.
func routesScript(t device.TunnelConfig) string {
	if !routedTypes[t.Type] {
		return ""
	}
	dev := shell.Quote(t.Name)
	var b strings.Builder
	fmt.Fprintf(&b, "i=0; until ip link show dev %[1]s >/dev/null 2>&1; do i=$((i+1)); [ $i -lt 100 ] || { echo \"tunnel interface %[2]s did not appear within 10 s\" >&2; exit 1; }; sleep 0.1; done\n", dev, t.Name)
	fmt.Fprintf(&b, "ip -4 route flush dev %[1]s proto %[2]d\nip -6 route flush dev %[1]s proto %[2]d\n", dev, tunnelRouteProtocol)
	for _, r := range device.CanonicalCIDRs(t.Routes) {
		fmt.Fprintf(&b, "ip route replace %s dev %s proto %d\n", shell.Quote(r), dev, tunnelRouteProtocol)
	}
	return b.String()
}

// tunnelRoutes reads, from the router's route sections, the routes each
// tunnel's interface carries with routerlab's tunnel tag.
func tunnelRoutes(sec map[string]string) map[string][]string {
	out := map[string][]string{}
	for _, key := range []string{"route4", "route6"} {
		var routes []ipRoute
		if json.Unmarshal([]byte(sec[key]), &routes) != nil {
			continue
		}
		for _, r := range normaliseRoutes(routes, key == "route6") {
			if r.Protocol == strconv.Itoa(tunnelRouteProtocol) && r.Interface != "" {
				out[r.Interface] = append(out[r.Interface], r.Destination)
			}
		}
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}

// CheckTunnel implements device.TunnelEndpoints: the tools the type needs
// and, for PPP-based types, the kernel's PPP support; a name taken by a
// tunnel of another type.
func (d *Driver) CheckTunnel(t device.TunnelConfig, snap *device.Snapshot) error {
	impl := tunnelImpls[t.Type]
	if other, ok := snap.Tunnels[t.Name]; ok && other.Type != t.Type {
		return fmt.Errorf("a %s tunnel named %q already exists on the device; delete it or choose another name", other.Type, t.Name)
	}
	// PPPoE sessions share the name space: interface names, and the
	// chap-secrets blocks of L2TP and PPPoE servers.
	if _, ok := snap.PPPoE[t.Name]; ok {
		return fmt.Errorf("a PPPoE session named %q already exists on the device; choose another name", t.Name)
	}
	if t.Type == device.TunnelL2TPIPsec {
		// xl2tpd holds udp/1701: one L2TP tunnel per Linux device.
		for name, other := range snap.Tunnels {
			if other.Type == device.TunnelL2TPIPsec && name != t.Name {
				return fmt.Errorf("the device already runs l2tp_ipsec tunnel %q, and Linux runs one (xl2tpd holds udp/1701)", name)
			}
		}
	}
	tools := impl.tools
	if t.MSSClamp != nil {
		tools = append(slices.Clone(tools), "nft")
	}
	if t.Type == device.TunnelWireGuard && slices.Contains(snap.Facts.Missing, "wireguard-module") && slices.Contains(snap.Facts.Missing, "wireguard-go") {
		return fmt.Errorf("a wireguard tunnel needs the kernel's wireguard module or wireguard-go, and this device has neither: install wireguard-go (apt-get install wireguard-go) or a kernel with WireGuard")
	}
	return checkDeviceSupport(fmt.Sprintf("a %s tunnel", t.Type), tools, impl.needsPPP, snap.Facts.Missing)
}

// checkDeviceSupport reports the tools and kernel support what needs
// that the device lacks (Facts.Missing), with how to get them.
func checkDeviceSupport(what string, tools []string, needsPPP bool, missing []string) error {
	if needsPPP && slices.Contains(missing, "/dev/ppp") {
		return fmt.Errorf("%s needs the kernel's PPP support, and this device has no /dev/ppp (its kernel lacks the ppp_generic module, or it is not loaded: modprobe ppp_generic)", what)
	}
	var lack []string
	for _, t := range tools {
		if slices.Contains(missing, t) {
			lack = append(lack, t)
		}
	}
	if len(lack) > 0 {
		return fmt.Errorf("%s needs %s on the device, which it lacks: install %s", what, strings.Join(lack, ", "), debianPackages(lack))
	}
	return nil
}

// debianPackages names the Debian packages that provide tools.
func debianPackages(tools []string) string {
	pkg := map[string]string{
		"nft": "nftables", "ethtool": "ethtool", "swanctl": "strongswan-swanctl and charon-systemd",
		"openvpn": "openvpn", "wg": "wireguard-tools", "wireguard-go": "wireguard-go", "xl2tpd": "xl2tpd",
		"pppd": "ppp", "pppoe-server": "pppoe",
	}
	var out []string
	for _, t := range tools {
		if p, ok := pkg[t]; ok && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ")
}

// ApplyTunnel implements device.TunnelEndpoints.
func (d *Driver) ApplyTunnel(ctx context.Context, t device.TunnelConfig, observed *device.TunnelState) error {
	if err := ValidateTunnel(t); err != nil {
		return err
	}
	script, err := tunnelImpls[t.Type].apply(t, observed)
	if err != nil {
		return err
	}
	script += routesScript(t)
	return d.run(ctx, fmt.Sprintf("applying %s tunnel %q", t.Type, t.Name), script)
}

// DeleteTunnel implements device.TunnelEndpoints.
func (d *Driver) DeleteTunnel(ctx context.Context, observed device.TunnelState) error {
	impl, ok := tunnelImpls[observed.Type]
	if !ok {
		return device.Unsupported(device.Linux, fmt.Sprintf("tunnel type %q", observed.Type))
	}
	return d.run(ctx, fmt.Sprintf("deleting %s tunnel %q", observed.Type, observed.Name), impl.remove(observed))
}
