package device

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// ParseIP is the one parser of the IP addresses routerlab writes to a
// device: every validator of an address, in this package, the platform
// packages and the provider, calls it (archtest keeps it so). It accepts a
// plain IPv4 or IPv6 address and nothing else.
//
// netip.ParseAddr alone is not enough: it accepts an IPv6 zone,
// "fe80::1%<anything>", and the zone may hold any byte: line breaks,
// quotes, "$(...)". No router CLI or configuration file routerlab writes
// can carry a zone (an OpenVPN `remote`, a WireGuard `Endpoint`, a
// RouterOS or RTX address), and its text would reach them verbatim, so a
// zone is refused here, once, rather than quoted in every renderer.
func ParseIP(s string) (netip.Addr, error) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("%q is not an IP address (e.g. 198.18.0.1 or 2001:db8::1)", s)
	}
	if a.Zone() != "" {
		// The zone is not quoted back: it is exactly the part that may
		// hold anything.
		return netip.Addr{}, fmt.Errorf("%q is not an IP address: an IPv6 zone (the text after %%) cannot be written to a router's configuration", s[:strings.IndexByte(s, '%')]+"%…")
	}
	return a, nil
}

// IsIP reports whether ParseIP accepts s.
func IsIP(s string) bool {
	_, err := ParseIP(s)
	return err == nil
}

// ParseIPv4 is ParseIP for an IPv4 address only.
func ParseIPv4(s string) (netip.Addr, error) {
	a, err := ParseIP(s)
	if err != nil {
		return a, err
	}
	if !a.Is4() {
		return netip.Addr{}, fmt.Errorf("%q is not an IPv4 address (e.g. 198.18.0.1)", s)
	}
	return a, nil
}

// ParseIPPort reads "address:port" ("[2001:db8::1]:51820" for IPv6), a
// WireGuard endpoint, with the address as ParseIP takes it and a port
// from 1 to 65535 written plainly.
func ParseIPPort(s string) (netip.AddrPort, error) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return netip.AddrPort{}, fmt.Errorf("%q: want address:port, e.g. 198.18.0.1:51820 or [2001:db8::1]:51820", s)
	}
	host, port := s[:i], s[i+1:]
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	} else if strings.Contains(host, ":") {
		return netip.AddrPort{}, fmt.Errorf("%q: an IPv6 endpoint is written in brackets, e.g. [2001:db8::1]:51820", s)
	}
	a, err := ParseIP(host)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("endpoint: %w", err)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 1 || p > 65535 || strconv.Itoa(p) != port {
		return netip.AddrPort{}, fmt.Errorf("%q: port %q is not 1 to 65535", s, port)
	}
	return netip.AddrPortFrom(a, uint16(p)), nil
}
