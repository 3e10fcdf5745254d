package provider

import (
	"fmt"
	"testing"
)

// ipsecTunnel is a valid IKEv2 tunnel on device r with one attribute
// line of the ipsec block replaced by override (or extra top-level lines).
func ipsecTunnel(ipsecExtra, topExtra string) string {
	return fmt.Sprintf(`resource "routerlab_tunnel" "t" {
  device = "r"
  name   = "s2s"
  type   = "ipsec"
  %s
  ipsec = {
    ike_version    = 2
    remote_address = "198.18.3.2"
    local_subnets  = ["198.18.1.0/24"]
    remote_subnets = ["198.18.2.0/24"]
    %s
  }
}`, topExtra, ipsecExtra)
}

// Bad tunnel, firewall and offload input fails at plan, before anything
// reaches a device, with a message naming the attribute, the value and
// what is allowed. The device behind "r" does not exist (port 1): these
// errors come before any read.
func TestPlanValidationTunnels(t *testing.T) {
	t.Parallel()
	okDevice := closedPortDevice("r", "linux")
	rtx := closedPortDevice("rtx", "rtx")
	okSuites := `ike_proposals = ["aes128-sha256-modp2048"]
    esp_proposals = ["aes128-sha256"]`
	cases := []struct{ name, config, want string }{
		{"malformed proposal",
			providerWith(okDevice) + ipsecTunnel(`ike_proposals = ["aes128-sha265-modp2048"]
    esp_proposals = ["aes128-sha256"]
    psk = "lab-psk-1"`, ""),
			`(?s)ike_proposals.*ike proposal "aes128-sha265-modp2048": unexpected "sha265": after the encryption come an integrity algorithm`},
		{"IKE proposal without DH group",
			providerWith(okDevice) + ipsecTunnel(`ike_proposals = ["aes128-sha256"]
    esp_proposals = ["aes128-sha256"]
    psk = "lab-psk-1"`, ""),
			`(?s)an IKE proposal needs a DH group; allowed are modp1024`},
		{"PSK with a newline",
			providerWith(okDevice) + ipsecTunnel(okSuites+"\n    psk = \"lab\\npsk\"", ""),
			`(?s)ipsec.psk contains a line break \(at byte 3\): a secret must be one line`},
		{"MTU 20",
			providerWith(okDevice) + ipsecTunnel(okSuites+"\n    psk = \"lab-psk-1\"", "mtu = 20"),
			`(?s)Attribute mtu value must be between 576 and 9000, got: 20`},
		{"subnet that is not a CIDR",
			providerWith(okDevice) + `resource "routerlab_tunnel" "t" {
  device = "r"
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    remote_address = "198.18.3.2"
    ` + okSuites + `
    psk            = "lab-psk-1"
    remote_subnets = ["198.18.2.0/33"]
  }
}`, `(?s)remote_subnets.*"198.18.2.0/33" is not a network in CIDR form`},
		{"mss clamp out of range",
			providerWith(okDevice) + ipsecTunnel(okSuites+"\n    psk = \"lab-psk-1\"", `mss_clamp = "20"`),
			`(?s)mss clamp 20 is out of range: allowed are 88 to 65495 bytes, or "pmtu"`},
		{"block of another type",
			providerWith(okDevice) + `resource "routerlab_tunnel" "t" {
  device = "r"
  name   = "s2s"
  type   = "wireguard"
  ipsec = {
    remote_address = "198.18.3.2"
    ` + okSuites + `
    psk = "lab-psk-1"
  }
}`, `(?s)tunnel "s2s" of type "wireguard" needs its "wireguard" block`},
		{"wireguard on a platform without it",
			providerWith(rtx) + `resource "routerlab_tunnel" "t" {
  device = "rtx"
  name   = "wg0"
  type   = "wireguard"
  wireguard = {
    private_key = "eF1aXvwVJ0PLs4N5yY0bXXsLiXDnX6dyZo4nG7bI4Ec="
    peers = [{ public_key = "hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=", allowed_ips = ["198.18.60.0/24"] }]
  }
}`, `(?s)tunnel "wg0": type = "wireguard" is not\s+supported on RTX: RTX has no WireGuard \(type on RTX: "ipsec", "l2tp_ipsec"\)`},
		{"openvpn AEAD cipher with a static key",
			providerWith(okDevice) + `resource "routerlab_tunnel" "t" {
  device = "r"
  name   = "ovpn"
  type   = "openvpn"
  openvpn = {
    role = "server", cipher = "AES-256-GCM", auth = "SHA256"
    local_address = "198.18.70.1", remote_address = "198.18.70.2"
    static_key = "x"
  }
}`, `(?s)openvpn.cipher value must be one of:.*"AES-128-CBC".*got: "AES-256-GCM"`},
		{"firewall stateful without WAN",
			providerWith(okDevice) + `resource "routerlab_firewall" "f" {
  device = "r"
  preset = "stateful"
}`, `(?s)preset "stateful" needs wan_interfaces`},
		{"offload key the platform lacks",
			providerWith(okDevice) + `resource "routerlab_offload" "o" {
  device   = "r"
  settings = { eth1 = { fasttrack = false } }
}`, `(?s)offload key "fasttrack" is not known on platform "linux"; known keys are .*gro.*gso.*tso`},
		{"dhcp server on linux",
			providerWith(okDevice) + `resource "routerlab_router" "r" {
  device       = "r"
  dhcp_servers = { LAN1 = { subnet = "198.18.1.0/24", range_start = "198.18.1.2", range_stop = "198.18.1.199" } }
}`, `(?s)dhcp_servers is not supported on Linux:\s+routerlab runs no DHCP daemon on Linux`},
		{"pppoe mtu above 1492",
			providerWith(okDevice) + `resource "routerlab_pppoe_session" "p" {
  device    = "r"
  name      = "wan"
  role      = "client"
  interface = "eth1"
  user      = "bench"
  password  = "lab-pw-1"
  mtu       = 1500
}`, `(?s)Attribute mtu value must be between 128 and 1492, got: 1500`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { planError(t, c.config, c.want) })
	}
}
