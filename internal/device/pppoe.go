package device

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strings"
)

// PPPoEConfig is one PPPoE session endpoint (seed 002: EdgeRouter client,
// RouterOS server): a client dialling out of Interface, or a server
// answering on it.
type PPPoEConfig struct {
	Name        string // see ValidateObjectName
	Role        string // RoleServer or RoleClient
	Interface   string // the Ethernet interface PPPoE runs on
	ServiceName string // optional
	MTU, MRU    *int
	MSSClamp    *MSSClamp

	// Client.
	User         string
	Password     string // secret
	DefaultRoute bool
	UsePeerDNS   bool

	// Server.
	LocalAddress string
	RemotePool   string // CIDR or "first-last"
	Users        []PPPUser
}

// PPPUser is one account of a PPPoE (or L2TP) server.
type PPPUser struct {
	Name     string
	Password string // secret
}

// PPPoEState is a session as the device reports it, without secrets.
type PPPoEState struct {
	PPPoEConfig
}

// PPPoEStatus is a session's operational state.
type PPPoEStatus struct {
	Established                 bool
	Interface                   string // the ppp interface, e.g. ppp0
	LocalAddress, RemoteAddress string
}

// PPPoE frames carry 8 bytes of PPPoE and PPP header inside a 1500-byte
// Ethernet payload (RFC 2516).
const MaxPPPoEMTU = 1492

// ValidatePPPoEShape checks what every platform requires, the interface
// name by the platform's rule (see ValidateFirewallShape).
func ValidatePPPoEShape(c PPPoEConfig, interfaceRule func(string) error) error {
	if err := ValidateObjectName(c.Name); err != nil {
		return err
	}
	if err := interfaceRule(c.Interface); err != nil {
		return fmt.Errorf("interface: %w", err)
	}
	if c.ServiceName != "" {
		if err := validatePPPName("service_name", c.ServiceName); err != nil {
			return err
		}
	}
	if c.MTU != nil && (*c.MTU < MinPPPMTU || *c.MTU > MaxPPPoEMTU) {
		return fmt.Errorf("pppoe %s: mtu %d is out of range: allowed are %d to %d (1500 minus 8 bytes of PPPoE)", c.Name, *c.MTU, MinPPPMTU, MaxPPPoEMTU)
	}
	if c.MRU != nil && (*c.MRU < MinPPPMTU || *c.MRU > MaxPPPoEMTU) {
		return fmt.Errorf("pppoe %s: mru %d is out of range: allowed are %d to %d", c.Name, *c.MRU, MinPPPMTU, MaxPPPoEMTU)
	}
	switch c.Role {
	case RoleClient:
		if err := validatePPPName("user", c.User); err != nil {
			return err
		}
		if err := ValidateSecret("password", c.Password); err != nil {
			return err
		}
		if c.LocalAddress != "" || c.RemotePool != "" || len(c.Users) > 0 {
			return fmt.Errorf("local_address, remote_pool and users are for role \"server\"")
		}
	case RoleServer:
		if c.Password != "" {
			// The secret itself is never in the message.
			return fmt.Errorf("password is for role \"client\"; a server's accounts take theirs in users")
		}
		if c.User != "" || c.DefaultRoute || c.UsePeerDNS {
			return fmt.Errorf("user, default_route and use_peer_dns are for role \"client\"")
		}
		if !IsIP(c.LocalAddress) {
			return fmt.Errorf("local_address %q is not an IP address", c.LocalAddress)
		}
		if _, _, err := ParsePool(c.RemotePool); err != nil {
			return fmt.Errorf("remote_pool: %w", err)
		}
		if len(c.Users) == 0 {
			return fmt.Errorf("a server needs at least one entry in users")
		}
		for i, u := range c.Users {
			if err := validatePPPName(fmt.Sprintf("users[%d].name", i), u.Name); err != nil {
				return err
			}
			if err := ValidateSecret(fmt.Sprintf("users[%d].password", i), u.Password); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("role %q: allowed are \"server\" and \"client\"", c.Role)
	}
	return nil
}

// ParsePool reads an address pool: a CIDR (its host addresses) or
// "first-last". It returns the first and last address.
func ParsePool(s string) (first, last netip.Addr, err error) {
	if a, b, ok := strings.Cut(s, "-"); ok {
		first, err1 := ParseIP(a)
		last, err2 := ParseIP(b)
		if err1 != nil || err2 != nil || !first.Is4() || !last.Is4() || last.Less(first) {
			return first, last, fmt.Errorf("%q: want first-last IPv4 addresses in order (198.18.50.10-198.18.50.99) or a CIDR", s)
		}
		return first, last, nil
	}
	p, perr := netip.ParsePrefix(s)
	if perr != nil || !p.Addr().Is4() || p.Bits() > 30 {
		return first, last, fmt.Errorf("%q: want an IPv4 CIDR of at most /30 (198.18.50.0/24) or first-last", s)
	}
	p = p.Masked()
	first = p.Addr().Next()
	// The last host address: the network with every host bit set (the
	// broadcast address), less one.
	b := p.Addr().As4()
	n := binary.BigEndian.Uint32(b[:]) | (1<<(32-p.Bits()) - 1)
	binary.BigEndian.PutUint32(b[:], n-1)
	return first, netip.AddrFrom4(b), nil
}
