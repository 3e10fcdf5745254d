package linuxsim

import (
	"fmt"
	"net/netip"
)

// The setters below change the router "by hand", behind Terraform's back,
// to exercise drift detection. They go through the same code as the
// simulated commands, so they fail where `ip`, `sysctl` or `hostname` would,
// with the tool's message.

// SetHostname is `hostname NAME`.
func (r *Router) SetHostname(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := validHostname(name); err != nil {
		return err
	}
	r.hostname = name
	return nil
}

// SetMTU is `ip link set dev IFNAME mtu MTU`.
func (r *Router) SetMTU(ifname string, mtu int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	ifc, err := r.findIface(ifname)
	if err != nil {
		return err
	}
	if err := r.setMTU(ifc, mtu); err != nil {
		return err
	}
	return nil
}

// SetAlias is `ip link set dev IFNAME alias ALIAS` (the driver's
// interface description).
func (r *Router) SetAlias(ifname, alias string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	ifc, err := r.findIface(ifname)
	if err != nil {
		return err
	}
	if err := r.setAlias(ifc, alias); err != nil {
		return err
	}
	return nil
}

// AddAddress is `ip addr add CIDR dev IFNAME`.
func (r *Router) AddAddress(ifname, cidr string) error {
	return r.changeAddr(ifname, cidr, true)
}

// DelAddress is `ip addr del CIDR dev IFNAME`.
func (r *Router) DelAddress(ifname, cidr string) error {
	return r.changeAddr(ifname, cidr, false)
}

func (r *Router) changeAddr(ifname, cidr string, add bool) error {
	p, perr := netip.ParsePrefix(cidr)
	if perr != nil {
		return fmt.Errorf("linuxsim: %q is not an address with prefix length: %w", cidr, perr)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ifc, err := r.findIface(ifname)
	if err != nil {
		return err
	}
	if add {
		err = r.addAddr(ifc, p)
	} else {
		err = r.delAddr(ifc, p, false)
	}
	if err != nil {
		return err
	}
	return nil
}

// AddRoute is `ip route add` (Protocol "" means boot, ip's default; use
// "244" for a route routerlab would own). Dev may be left out when a
// Gateway is set.
func (r *Router) AddRoute(rt Route) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.addRouteSpec(rt)
}

// DeleteRoute removes every route to dst (a prefix, or "default"), owned
// by routerlab or not, as if an operator deleted it. Connected routes
// follow their address: use DelAddress.
func (r *Router) DeleteRoute(dst string) error {
	p, err := parseDst(dst, 0)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.routes)
	kept := r.routes[:0]
	for _, rt := range r.routes {
		if rt.dst != p {
			kept = append(kept, rt)
		}
	}
	r.routes = kept
	if len(kept) == n {
		return errNoProcess
	}
	return nil
}

// SetSysctl is `sysctl -w KEY=VALUE` (the router knows the two forwarding
// switches, SysctlIPv4Forwarding and SysctlIPv6Forwarding; values 0 or 1).
func (r *Router) SetSysctl(key, value string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.setSysctl(key, value); err != nil {
		return err
	}
	return nil
}

// SetConntrack switches connection tracking the way the driver does: off
// creates routerlab's table with the two notrack chains, on deletes the
// table. It fails on a router without nftables.
func (r *Router) SetConntrack(on bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.noNft {
		return fmt.Errorf("linuxsim: nft: not found (NoNft router)")
	}
	if t := r.nft.table("inet", nftTable); t != nil && !on && t.chain(notrackPrerouting) != nil {
		return nil // already off
	}
	r.setConntrack(on)
	return nil
}

// AddInterface is `ip link add NAME type dummy; ip link set NAME up`, with
// the given MTU, alias and addresses.
func (r *Router) AddInterface(spec Interface) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.findIface(spec.Name); err == nil {
		return fmt.Errorf("RTNETLINK answers: File exists")
	}
	return r.addInterface(spec)
}

// DeleteInterface is `ip link del NAME`: the interface goes with its
// addresses, the kernel drops every route through it, and a daemon whose
// TUN device it was (wireguard-go, OpenVPN) ends.
func (r *Router) DeleteInterface(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.findIface(name); err != nil {
		return err
	}
	r.removeInterface(name)
	return nil
}
