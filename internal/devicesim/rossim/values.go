package rossim

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
)

// runtimeErr is a command that failed while the script ran: the console
// prints msg and stops there, keeping what earlier commands did.
type runtimeErr struct{ msg string }

func (e *runtimeErr) Error() string { return e.msg }

func fail(msg string) *runtimeErr { return &runtimeErr{msg: msg} }

// Messages as the console words them. Those seen in published material:
// "input does not match any value of interface" (API and console),
// "no such item", "failure: already have such address", "failure: already
// have interface with such name", "invalid value for argument address".
// "value of X out of range (LO..HI)" follows the same console's wording
// for numbers but was not seen verbatim.
func noMatch(name string) *runtimeErr { return fail("input does not match any value of " + name) }
func invalid(name string) *runtimeErr { return fail("invalid value for argument " + name) }

// check validates v for attribute a of menu path and returns the value as
// the router stores it.
func (s *Sim) check(a *attr, v string) (string, *runtimeErr) {
	t := a.typ
	switch t.kind {
	case "text", "time":
		return v, nil
	case "yesno":
		switch v {
		case "yes", "true":
			return "yes", nil
		case "no", "false":
			return "no", nil
		}
		return "", noMatch(a.name)
	case "enum":
		if slices.Contains(t.values, v) {
			return v, nil
		}
		return "", noMatch(a.name)
	case "set":
		if v == "" {
			return v, nil
		}
		for _, part := range strings.Split(v, ",") {
			if !slices.Contains(t.values, part) {
				return "", noMatch(a.name)
			}
		}
		return v, nil
	case "int":
		if v == "" {
			return v, nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return "", invalid(a.name)
		}
		if n < t.lo || n > t.hi {
			return "", fail("value of " + a.name + " out of range (" + strconv.FormatInt(t.lo, 10) + ".." + strconv.FormatInt(t.hi, 10) + ")")
		}
		return strconv.FormatInt(n, 10), nil
	case "ip":
		if v == "" {
			return v, nil
		}
		if _, err := netip.ParseAddr(v); err != nil {
			return "", invalid(a.name)
		}
		return v, nil
	case "cidr":
		if _, err := parseCIDR(v); err != nil {
			return "", invalid(a.name)
		}
		return v, nil
	case "ifaddr":
		// Stored with its prefix length ("198.18.0.1/32" whether written
		// so or bare), as print and get show it (assumption); the export
		// prints a host prefix bare (hostBare).
		p, err := parseCIDR(v)
		if err != nil {
			return "", invalid(a.name)
		}
		return p.String(), nil
	case "proto":
		if v == "" || slices.Contains(protocols, v) {
			return v, nil
		}
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 255 {
			return v, nil
		}
		return "", noMatch(a.name)
	case "iface":
		if s.findInterface(v) == "" {
			return "", noMatch(a.name)
		}
		return v, nil
	case "ref":
		if t := s.tables[t.ref]; t == nil || t.byName(v) == nil {
			return "", noMatch(a.name)
		}
		return v, nil
	}
	return v, nil
}

// parseCIDR reads "198.18.1.1/24" or a bare address (a host prefix).
func parseCIDR(v string) (netip.Prefix, error) {
	if strings.Contains(v, "/") {
		return netip.ParsePrefix(v)
	}
	a, err := netip.ParseAddr(v)
	if err != nil {
		return netip.Prefix{}, err
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// networkOf is the network= an address gets: its prefix's first address.
func networkOf(address string) string {
	p, err := parseCIDR(address)
	if err != nil {
		return ""
	}
	return p.Masked().Addr().String()
}

// hostBare is an interface address as exports print it: a host prefix
// (/32, /128) without its length, anything else as stored.
func hostBare(v string) string {
	p, err := netip.ParsePrefix(v)
	if err != nil || p.Bits() != p.Addr().BitLen() {
		return v
	}
	return p.Addr().String()
}

// sameValue reports whether find's written value w names the stored value
// v of attribute a. Booleans compare as yes/no, whichever of yes/no and
// true/false either side uses; addresses compare as prefixes, so that
// 198.18.0.1 and 198.18.0.1/32 name the same host address (assumption:
// the console reads a find value as the attribute's type, as it does a
// set value).
func sameValue(a *attr, v, w string) bool {
	if v == w {
		return true
	}
	if a == nil {
		return false
	}
	switch a.typ.kind {
	case "yesno":
		return boolWord(v) == boolWord(w)
	case "ifaddr", "cidr":
		pv, err1 := parseCIDR(v)
		pw, err2 := parseCIDR(w)
		return err1 == nil && err2 == nil && pv == pw
	}
	return false
}

// boolWord is a boolean as yes/no: v7 reads true/false too.
func boolWord(v string) string {
	switch v {
	case "true":
		return "yes"
	case "false":
		return "no"
	}
	return v
}
