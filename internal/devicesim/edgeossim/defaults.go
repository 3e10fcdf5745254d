package edgeossim

import (
	"fmt"
	"slices"
)

// edgeosFirewallGlobals are the global firewall options every EdgeOS
// configuration prints, a factory one too (FactoryLines' sources), in
// the CLI's order.
var edgeosFirewallGlobals = []string{
	"set firewall all-ping enable",
	"set firewall broadcast-ping disable",
	"set firewall ipv6-receive-redirects disable",
	"set firewall ipv6-src-route disable",
	"set firewall ip-src-route disable",
	"set firewall log-martians enable",
	"set firewall receive-redirects disable",
	"set firewall send-redirects enable",
	"set firewall source-validation disable",
	"set firewall syn-cookies enable",
}

// FactoryLANAddress stands in for the EdgeRouters' factory LAN address
// 192.168.1.1/24 on eth0 (Ubiquiti's "EdgeRouter - Reset to Factory
// Defaults"): the simulator's addresses are 198.18.0.0/15, and within it
// this one is used by no example or test network (198.19.168.x for
// 192.168.x). The real factory address lies outside every lab network the
// examples configure, so a stand-in inside one of them (198.18.1.1/24, LAN
// A of seed 004's example on eth1) would make the commit refuse what a
// real factory router takes: the commit refuses an address on two
// interfaces (Lochnair/vyatta-cfg src/ubnt/interface/ubnt_interface.cpp,
// is_valid_addr_commit: "duplicate address" unless is_uniq_address;
// commitErrors models it).
const FactoryLANAddress = "198.19.168.1/24"

// FactoryPasswordHash stands in for the factory login's password hash:
// the factory configurations carry the published hash of the default
// password, replaced here by a placeholder (no secret, real or public, in
// testdata).
const FactoryPasswordHash = "$6$routerlab$factory.placeholder.hash"

// FactoryLines is the factory default configuration of release rel, as
// `show configuration commands` prints it on a fresh router; board names
// the EdgeRouter (Boards; "" is the ER-6P) and is ignored on VyOS. The
// factory LAN address 192.168.1.1/24 is FactoryLANAddress here. Sources
// per line below; the README of testdata lists the assumptions.
func FactoryLines(rel Release, board string) []string {
	switch rel {
	case VyOS13, VyOS14, VyOS15:
		return vyosFactory(rel)
	}
	b, err := boardOf(board)
	if err != nil {
		panic(err.Error())
	}
	// EdgeOS 1.10 and 2.0: Ubiquiti's "EdgeRouter - Reset to Factory
	// Defaults" article (eth0 192.168.1.1/24, user ubnt); the firewall
	// globals, gui, ssh, ntp, syslog and time-zone lines as users publish
	// the `show configuration commands` of a router fresh from reset (the
	// same on v1.10 and v2.0: assumption, no published pair shows a
	// difference). Assumption: every port prints `duplex auto` and `speed
	// auto`, as in the published factory configurations of the ER-6P and
	// ERL; the ER-X's switch0 (its factory LAN on eth1-eth4) is not
	// modelled.
	lines := slices.Clone(edgeosFirewallGlobals)
	for i, e := range b.Ethernets {
		if i == 0 {
			lines = append(lines, "set interfaces ethernet eth0 address "+FactoryLANAddress)
		}
		lines = append(lines, "set interfaces ethernet "+e+" duplex auto", "set interfaces ethernet "+e+" speed auto")
	}
	lines = append(lines,
		"set interfaces loopback lo",
		"set service gui http-port 80",
		"set service gui https-port 443",
		"set service gui older-ciphers enable",
		"set service ssh port 22",
		"set service ssh protocol-version v2",
		"set system host-name ubnt",
		"set system login user ubnt authentication encrypted-password '"+FactoryPasswordHash+"'",
		"set system login user ubnt level admin",
		"set system ntp server 0.ubnt.pool.ntp.org",
		"set system ntp server 1.ubnt.pool.ntp.org",
		"set system ntp server 2.ubnt.pool.ntp.org",
		"set system ntp server 3.ubnt.pool.ntp.org",
		"set system syslog global facility all level notice",
		"set system syslog global facility protocols level debug",
		"set system time-zone UTC",
	)
	return lines
}

// vyosFactory: the default config.boot of each release, as `show
// configuration commands` prints it once loaded. 1.3 and 1.4: vyos-build's
// data/live-build-config/includes.chroot/opt/vyatta/etc/config.boot.default
// on equuleus and sagitta; 1.5: vyos-1x's data/config.boot.default on
// circinus. 1.4's file still has `system ntp`; vyos-router copies it to
// config.boot and the migration ntp/1-to-2 moves it to `service ntp`, as
// printed here. Each Ethernet port gets its `hw-id`, written at first boot
// by vyos_net_name (sagitta src/helpers/vyos_net_name); the MACs are
// QEMU's 52:54:00 range, invented.
func vyosFactory(rel Release) []string {
	var lines []string
	for i := range 4 {
		lines = append(lines, fmt.Sprintf("set interfaces ethernet eth%d hw-id '52:54:00:00:00:%02x'", i, i+1))
	}
	lines = append(lines, "set interfaces loopback lo")
	if rel != VyOS13 {
		for _, a := range []string{"127.0.0.0/8", "169.254.0.0/16", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "::1/128", "fe80::/10", "fc00::/7"} {
			lines = append(lines, "set service ntp allow-client address '"+a+"'")
		}
		for i := 1; i <= 3; i++ {
			lines = append(lines, fmt.Sprintf("set service ntp server time%d.vyos.net", i))
		}
	}
	lines = append(lines,
		"set system config-management commit-revisions '100'",
		"set system console device ttyS0 speed '115200'",
		"set system host-name 'vyos'",
		"set system login user vyos authentication encrypted-password '"+FactoryPasswordHash+"'",
		"set system login user vyos authentication plaintext-password ''",
	)
	if rel == VyOS13 {
		for i := 1; i <= 3; i++ {
			lines = append(lines, fmt.Sprintf("set system ntp server time%d.vyos.net", i))
		}
	}
	lines = append(lines, "set system syslog global facility all level 'info'")
	if rel == VyOS15 {
		lines = append(lines, "set system syslog global facility local7 level 'debug'")
	} else {
		lines = append(lines, "set system syslog global facility protocols level 'debug'")
	}
	return lines
}
