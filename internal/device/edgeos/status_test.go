package edgeos

import (
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func TestParseIPsecSA(t *testing.T) {
	got := ParseIPsecSA(readTestdata(t, "sa_edgeos_1_10.txt"))
	want := []SAPeer{
		{Peer: "198.18.1.1", Local: "198.18.2.1", Description: "routerlab:s2s", Tunnels: []SATunnel{
			{Tunnel: "1", Up: true, BytesOut: 7864320, BytesIn: 236134},
			{Tunnel: "2", Up: true, BytesOut: 463, BytesIn: 413},
		}},
		{Peer: "198.18.7.7", Local: "198.18.2.1", Description: "branch by hand", Tunnels: []SATunnel{{Tunnel: "1"}}},
		{Peer: "0.0.0.0", Local: "198.18.2.1", Tunnels: []SATunnel{{Tunnel: "1", Up: true, BytesOut: 1288490188, BytesIn: 1028023910}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	for _, notice := range []string{"", "IPSec process not running\n", "no such command\n"} {
		if p := ParseIPsecSA(notice); len(p) != 0 {
			t.Errorf("%q parsed as %+v", notice, p)
		}
	}
}

// The SA table gives ipsec tunnels their status, matched by routerlab's
// description, else by the peer's tag: s2s (seed 001, described) is
// established with both tunnels' bytes; site-b (a responder, peer
// 0.0.0.0) is matched by tag; a peer without SAs reads down.
func TestTunnelStatusFromSA(t *testing.T) {
	tr := NewTree()
	for _, cfg := range []device.TunnelConfig{ipsecSeed001("aes128-sha1"), ipsecResponderEdge()} {
		lines, err := RenderIPsec(cfg, tr)
		if err != nil {
			t.Fatal(err)
		}
		apply(t, tr, lines)
	}
	sa := readTestdata(t, "sa_edgeos_1_10.txt")
	st := status(rp(t, tr), sa)
	if s := st["s2s"]; !s.Established || s.BytesOut != 7864320+463 || s.BytesIn != 236134+413 || s.RemoteAddress != "198.18.1.1" || s.LocalAddress != "198.18.2.1" {
		t.Errorf("s2s = %+v", s)
	}
	if s := st["site-b"]; !s.Established || s.BytesOut != 1288490188 || s.RemoteAddress != "%any" {
		t.Errorf("site-b = %+v", s)
	}
	down := strings.Replace(sa, "1       up     7.5M/230.6K", "1       down   n/a        ", 1)
	if s := status(rp(t, tr), down)["s2s"]; s.Established {
		t.Errorf("one tunnel of two down, yet %+v", s)
	}
	if s := status(rp(t, tr), "")["s2s"]; s.Established || s.BytesOut != 0 {
		t.Errorf("without SAs: %+v", s)
	}
	// Interface tunnels report their interface.
	tun := status(mustParse(t, readTestdata(t, "cfg_edgeos_tunnels.txt")), "")
	if tun["ovpn"].Interface != "vtun0" || tun["wg"].Interface != "wg0" || tun["ra"].Interface != "" {
		t.Errorf("interfaces: %+v", tun)
	}
}

func status(tr *Tree, sa string) map[string]device.TunnelStatus {
	return TunnelStatus(tr, ParseTunnels(tr, EdgeOS), sa)
}

func TestParseUbntOffload(t *testing.T) {
	loaded := ParseUbntOffload(readTestdata(t, "offload_er6p_loaded.txt"))
	want := map[string]map[string]bool{
		"ipv4": {"forwarding": true, "vlan": false, "pppoe": true, "gre": false, "bonding": false},
		"ipv6": {"forwarding": false, "vlan": false, "pppoe": false},
	}
	if !reflect.DeepEqual(loaded, want) {
		t.Errorf("loaded: %v", loaded)
	}
	off := ParseUbntOffload(readTestdata(t, "offload_er6p_not_loaded.txt"))
	if off["ipv4"]["forwarding"] || off["ipv4"]["pppoe"] || len(off["ipv4"]) != 5 || len(off["ipv6"]) != 3 {
		t.Errorf("not loaded: %v", off)
	}
	if ParseUbntOffload("") != nil || ParseUbntOffload("  Invalid command: show [ubnt]\n") != nil {
		t.Error("no offload output must give nil")
	}
}

// A switch in effect as configured leaves the text (and digest) as the
// configuration's; one that differs adds a line, so the digest a
// benchmark records changes with what the router really does.
func TestEffectiveOffloadInText(t *testing.T) {
	cfg := readTestdata(t, "seed_002.txt") // ipv4 forwarding and pppoe enabled
	agree, err := ParseSections(map[string]string{"commands": cfg, "offload": readTestdata(t, "offload_er6p_loaded.txt")}, EdgeOS)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := ParseSnapshot("", cfg, EdgeOS)
	if agree.Text != plain.Text || agree.SHA256 != plain.SHA256 {
		t.Errorf("agreeing offload changed the text:\n%s", agree.Text)
	}
	if !agree.Offload.Effective["ipv4"]["pppoe"] {
		t.Errorf("effective = %v", agree.Offload.Effective)
	}
	differ, _ := ParseSections(map[string]string{"commands": cfg, "offload": readTestdata(t, "offload_er6p_not_loaded.txt")}, EdgeOS)
	wantLines := "# effective: system offload ipv4 forwarding disabled (configured enable)\n" +
		"# effective: system offload ipv4 pppoe disabled (configured enable)\n"
	if !strings.HasSuffix(differ.Text, wantLines) || differ.SHA256 == plain.SHA256 {
		t.Errorf("differing offload:\n%s", differ.Text)
	}
	// Settings stay the configuration: routerlab_offload plans nothing.
	if !differ.Offload.Settings["ipv4"]["pppoe"] {
		t.Errorf("settings = %v", differ.Offload.Settings)
	}
	// VyOS has no such command: nothing effective is reported.
	vy, _ := ParseSections(map[string]string{"commands": readTestdata(t, "cfg_vyos_1_4.txt"), "offload": readTestdata(t, "offload_er6p_not_loaded.txt")}, VyOS)
	if vy.Offload.Effective != nil {
		t.Errorf("vyos effective = %v", vy.Offload.Effective)
	}
}

func TestSplitSections(t *testing.T) {
	got := splitSections("##version\nVersion: v1\n##commands\nset a b\n##ipsec-sa\n##wireguard\ninstalled\n")
	want := map[string]string{"version": "Version: v1\n", "commands": "set a b\n", "ipsec-sa": "", "wireguard": "installed\n"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
}
