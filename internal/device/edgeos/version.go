package edgeos

import (
	"regexp"
	"strconv"
	"strings"
)

// Version is the EdgeOS or VyOS release a router runs, major.minor (the
// syntax routerlab writes changes between minor releases only); zero
// when unknown. The driver reads it from `show version` (Facts.Firmware)
// with every snapshot.
//
// What each release takes, as routerlab writes it:
//
//   - EdgeOS 1.10 and 2.0: one syntax for everything routerlab writes
//     (the DHCP scope `start <a> stop <b>`, `authoritative
//     enable|disable`, `dns-server`; WireGuard from its package;
//     `protocols static interface-route … next-hop-interface`).
//   - VyOS 1.3 (equuleus): DHCP `range <n> start|stop`, a valueless
//     `authoritative`, `default-router` and `name-server` on the subnet
//     (vyos-1x equuleus interface-definitions/dhcp-server.xml.in;
//     dns-server was renamed name-server in 1.3, T3838, migration
//     dhcp-server/5-to-6); WireGuard peers `pubkey` and an interface
//     `private-key` that names a key pair in /config/auth/wireguard/
//     (equuleus interfaces-wireguard.xml.in: "Private key to use on that
//     interface", default "default"; interfaces-wireguard.py reads
//     /config/auth/wireguard/<name>/private.key), so no key inline;
//     interface routes `protocols static interface-route <net>
//     next-hop-interface <if>` (equuleus smoketest/scripts/cli/
//     test_protocols_static.py).
//   - VyOS 1.4 (sagitta): DHCP as 1.3 (sagitta
//     service_dhcp-server.xml.in; smoketest/config-tests/basic-vyos:
//     `authoritative`, `subnet … default-router`, `name-server`, `range
//     LANDynamic start|stop`); WireGuard `public-key` and the private key
//     inline (migration interfaces/25-to-26: "Migrate Wireguard to store
//     keys in CLI", pubkey renamed public-key); routes `protocols static
//     route <net> interface <if>` (migration quagga/8-to-9, T2450: drop
//     interface-route and interface-route6).
//   - VyOS 1.5 (circinus, and the rolling releases of current): DHCP on
//     Kea: default-router and name-server under `option`, and a
//     `subnet-id` every subnet must have, unique on the router (circinus
//     service_dhcp-server.xml.in and include/dhcp/option-v4.xml.i;
//     migration dhcp-server/9-to-10, T3316; service_dhcp-server.py:
//     "Unique subnet ID not specified for subnet"); WireGuard and routes
//     as 1.4 (circinus interfaces_wireguard.xml.in, protocols_static.xml.in).
type Version struct{ Major, Minor int }

// AtLeast reports whether v is major.minor or newer.
func (v Version) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// Known reports whether the version was read.
func (v Version) Known() bool { return v.Major != 0 }

func (v Version) String() string {
	if !v.Known() {
		return "unknown"
	}
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor)
}

// versionNumber is the release number at the start of a `show version`
// "Version:" value: EdgeOS "v1.10.9", "v2.0.9-hotfix.7"; VyOS "VyOS
// 1.3.8", "VyOS 1.4.0", "VyOS 1.5-rolling-202410010007"
// (vyos-1x src/op_mode/version.py: "Version:          VyOS {{version}}").
var versionNumber = regexp.MustCompile(`^(?:VyOS )?v?([0-9]+)\.([0-9]+)(?:[.+-]|$)`)

// vyOSRolling is a date-numbered VyOS rolling release ("VyOS
// 2025.01.20-0021-rolling"), built from current.
var vyOSRolling = regexp.MustCompile(`^(?:VyOS )?20[0-9]{2}\.[0-9]{2}\.[0-9]{2}`)

// ParseFirmware reads the release of a `show version` Version value
// (Facts.Firmware) on flavour f; zero when it is none routerlab can tell.
// A date-numbered VyOS rolling release is read as 1.5: the rolling
// releases are built from current, which circinus (1.5) was branched from
// and which writes DHCP, WireGuard and routes as circinus does
// (assumption for the releases after the branch: checked against
// vyos-1x current as of October 2024 only).
func ParseFirmware(firmware string, f Flavour) Version {
	firmware = strings.TrimSpace(firmware)
	if f == VyOS && vyOSRolling.MatchString(firmware) {
		return Version{1, 5}
	}
	if f == VyOS && strings.HasPrefix(firmware, "v") || f == EdgeOS && strings.HasPrefix(firmware, "VyOS") {
		return Version{}
	}
	m := versionNumber.FindStringSubmatch(firmware)
	if m == nil {
		return Version{}
	}
	major, err1 := strconv.Atoi(m[1])
	minor, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil || major == 0 || major > 99 || minor > 99 {
		return Version{}
	}
	return Version{major, minor}
}

// Releases routerlab models, per flavour: what it has checked the syntax
// of. Another release is refused where its syntax matters (a DHCP scope,
// a WireGuard tunnel), naming it.
var modelled = map[Flavour][]Version{
	EdgeOS: {{1, 10}, {2, 0}},
	VyOS:   {{1, 3}, {1, 4}, {1, 5}},
}

func modelledList(f Flavour) string {
	var s []string
	for _, v := range modelled[f] {
		s = append(s, v.String())
	}
	return strings.Join(s, ", ")
}

// vyosModelled reports whether v is a VyOS release routerlab writes for.
func vyosModelled(v Version) bool { return v.Major == 1 && v.Minor >= 3 && v.Minor <= 5 }
