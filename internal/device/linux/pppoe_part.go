package linux

import (
	"context"
	"fmt"
	"net/netip"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// PPPoE sessions on Linux (routerlab_pppoe_session), both ends of seed 002:
//
//   - a client is pppd with the rp-pppoe plugin, reading its options from
//     pppoeDir/<name>.options; it names its interface after the session
//     (ifname) and writes /run/ppp-<name>.pid (linkname). The password is an
//     options file of its own under secretDir, pulled in with pppd's `file`.
//   - a server is pppoe-server on the Ethernet interface; the pppd of each
//     session reads pppoeDir/<name>.server-options, and the accounts are a
//     block of /etc/ppp/chap-secrets between "# routerlab <name> begin" and
//     "# routerlab <name> end" (the L2TP server's convention), kept whole in
//     secretDir/<name>.chap so that no command line ever carries a password.
//   - an MSS clamp is the nftables chain pppoe_<name>_mss in routerlab's
//     table.
//
// The snapshot reads the options files, the user names of our chap-secrets
// blocks (never the file itself) and the nft table the router part already
// lists, so a hand edit of any of them shows as drift.
const (
	pppoeDir      = configDir + "/pppoe"
	pppoeChapFile = "/etc/ppp/chap-secrets"
	// pppoePPPDPath is where Debian's ppp installs pppd and where pppoe-server
	// looks for it.
	pppoePPPDPath = "/usr/sbin/pppd"
	// maxPPPoESessions: session IDs are 16 bits, 0 and 0xffff reserved
	// (RFC 2516); pppoe-server holds one slot per pool address.
	maxPPPoESessions = 65534
)

func pppoeClientOptions(name string) string { return pppoeDir + "/" + name + ".options" }
func pppoeServerOptions(name string) string { return pppoeDir + "/" + name + ".server-options" }
func pppoeServerPPPD(name string) string    { return pppoeDir + "/" + name + ".server-pppd" }
func pppoeClientSecret(name string) string  { return secretDir + "/" + name + ".ppp" }
func pppoeServerSecret(name string) string  { return secretDir + "/" + name + ".chap" }
func pppoeClientPID(name string) string     { return "/run/ppp-" + name + ".pid" }
func pppoeServerPID(name string) string     { return runDir + "/pppoe-server-" + name + ".pid" }
func pppoeMSSChain(name string) string      { return "pppoe_" + name + "_mss" }
func pppoeChapBegin(name string) string     { return "# routerlab " + name + " begin" }
func pppoeChapEnd(name string) string       { return "# routerlab " + name + " end" }

var _ device.PPPoESessions = (*Driver)(nil)

// ValidatePPPoE implements device.PPPoESessions.
func (d *Driver) ValidatePPPoE(c device.PPPoEConfig) error { return ValidatePPPoE(c) }

// CheckPPPoE implements device.PPPoESessions: the tools and the kernel's
// PPP support a session needs, its Ethernet interface, and names the
// session would take from something else.
func (d *Driver) CheckPPPoE(c device.PPPoEConfig, snap *device.Snapshot) error {
	what, tools := "a PPPoE client", []string{"pppd"}
	if c.Role == device.RoleServer {
		what, tools = "a PPPoE server", []string{"pppd", "pppoe-server"}
	}
	if c.MSSClamp != nil {
		tools = append(tools, "nft")
	}
	if err := checkDeviceSupport(what, tools, true, snap.Facts.Missing); err != nil {
		return err
	}
	if _, ok := snap.Router.Interfaces[c.Interface]; !ok {
		return fmt.Errorf("pppoe %s: interface %q not found on the device; it has: %s", c.Name, c.Interface, strings.Join(device.SortedKeys(snap.Router.Interfaces), ", "))
	}
	if t, ok := snap.Tunnels[c.Name]; ok {
		return fmt.Errorf("a %s tunnel named %q already exists on the device; PPPoE sessions and tunnels share interface names and chap-secrets blocks on Linux, so choose another name", t.Type, c.Name)
	}
	if c.Role == device.RoleClient {
		own, ours := snap.PPPoE[c.Name]
		if _, taken := snap.Router.Interfaces[c.Name]; taken && (!ours || own.Role != device.RoleClient) {
			return fmt.Errorf("pppoe %s: an interface named %q already exists on the device, and pppd names the session's interface after the session; choose another name", c.Name, c.Name)
		}
	}
	return nil
}

// ApplyPPPoE implements device.PPPoESessions. observed is not needed: the
// script stops and removes whatever the name owns, of either role, before
// writing desired (pppd reads its options only when it starts).
func (d *Driver) ApplyPPPoE(ctx context.Context, desired device.PPPoEConfig, _ *device.PPPoEState) error {
	script, err := RenderPPPoE(desired)
	if err != nil {
		return err
	}
	return d.run(ctx, fmt.Sprintf("applying pppoe session %q", desired.Name), script)
}

// DeletePPPoE implements device.PPPoESessions.
func (d *Driver) DeletePPPoE(ctx context.Context, observed device.PPPoEState) error {
	script, err := RenderPPPoEDelete(observed.Name)
	if err != nil {
		return err
	}
	return d.run(ctx, fmt.Sprintf("deleting pppoe session %q", observed.Name), script)
}

// ValidatePPPoE checks c against what Linux runs, beyond the shape every
// platform checks.
func ValidatePPPoE(c device.PPPoEConfig) error {
	if err := device.ValidatePPPoEShape(c, device.ValidateInterfaceName); err != nil {
		return err
	}
	if len(c.Interface) > maxIfNameLen || strings.Contains(c.Interface, "/") {
		return fmt.Errorf("pppoe %s: interface %q: Linux names are at most %d characters without '/'", c.Name, c.Interface, maxIfNameLen)
	}
	if c.Role == device.RoleClient {
		if c.Interface == c.Name {
			return fmt.Errorf("pppoe %s: interface %q is the session's own name, which pppd gives the PPP interface; name the Ethernet interface PPPoE runs on", c.Name, c.Interface)
		}
		return nil
	}
	local, err := pppoeLocalIP(c.LocalAddress)
	if err != nil {
		return fmt.Errorf("pppoe %s: %w", c.Name, err)
	}
	first, last, _ := device.ParsePool(c.RemotePool) // checked by the shape
	if n := pppoePoolSize(first, last); n > maxPPPoESessions {
		return fmt.Errorf("pppoe %s: remote_pool %q holds %d addresses; pppoe-server serves at most %d sessions (16-bit session IDs)", c.Name, c.RemotePool, n, maxPPPoESessions)
	}
	if !local.Less(first) && !last.Less(local) {
		return fmt.Errorf("pppoe %s: local_address %s lies inside remote_pool %q, so a client could be given the server's own address", c.Name, local, c.RemotePool)
	}
	seen := map[string]bool{}
	for _, u := range c.Users {
		if seen[u.Name] {
			return fmt.Errorf("pppoe %s: user %q is listed twice", c.Name, u.Name)
		}
		seen[u.Name] = true
	}
	return nil
}

// pppoeLocalIP is the server's own PPP address for pppoe-server -L,
// which takes an IPv4 address.
func pppoeLocalIP(s string) (netip.Addr, error) {
	a, err := device.ParseIP(s)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("local_address %q is not an IP address", s)
	}
	if !a.Is4() {
		return netip.Addr{}, fmt.Errorf("local_address %q: pppoe-server takes an IPv4 address", s)
	}
	return a, nil
}

// pppoePoolSize counts the addresses from first to last (IPv4).
func pppoePoolSize(first, last netip.Addr) uint64 {
	f, l := first.As4(), last.As4()
	return uint64(pppoeUint32(l)) - uint64(pppoeUint32(f)) + 1
}

func pppoeUint32(b [4]byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}
