package edgeossim

import (
	"strings"
	"testing"
)

const testKey = "-----BEGIN OpenVPN Static key V1-----\n0123456789abcdef0123456789abcdef\n-----END OpenVPN Static key V1-----\n"

// A key file written by a here-document under umask 077 has mode 0600 and
// the body verbatim ($ and quotes untouched); the OpenVPN interface that
// names it commits, and one naming a missing file fails naming the file.
func TestOpenVPNKeyFileAndCommit(t *testing.T) {
	s := newSim(t, Options{})
	const key = AuthDir + "/routerlab-ovpn.key"
	body := testKey + "$HOME 'quoted' \"double\"\n"
	write := "umask 077\ncat >" + key + " <<'RL_EOF' || exit 1\n" + body + "RL_EOF\n"
	vtun := func(file string) string {
		return script(
			"set interfaces openvpn vtun0 mode site-to-site",
			"set interfaces openvpn vtun0 local-address 198.18.60.1",
			"set interfaces openvpn vtun0 remote-address 198.18.60.2",
			"set interfaces openvpn vtun0 shared-secret-key-file "+file,
			"set interfaces openvpn vtun0 encryption aes256",
			"set interfaces openvpn vtun0 hash sha256",
			"commit",
		)
	}
	out, code := s.run(t, vtun(AuthDir+"/missing.key"))
	if code != 1 || !strings.Contains(out, `File "/config/auth/missing.key" does not exist`) || s.d.Commits() != 0 {
		t.Fatalf("missing key: exit %d, %q", code, out)
	}
	if out, code := s.run(t, write+vtun(key)); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	data, mode, ok := s.d.File(key)
	if !ok || string(data) != body || mode != 0o600 {
		t.Errorf("key file: ok %v mode %o data %q", ok, mode, data)
	}
	// The daemon is reset by interface; one that does not exist fails.
	if _, code := s.run(t, OpWrapper+" reset openvpn interface vtun0"); code != 0 || s.d.OpenVPNResets("vtun0") != 1 {
		t.Errorf("reset vtun0: exit %d, %d resets", code, s.d.OpenVPNResets("vtun0"))
	}
	if _, code := s.run(t, OpWrapper+" reset openvpn interface vtun7"); code == 0 {
		t.Error("reset of a missing interface succeeded")
	}
	if out, code := s.run(t, "cp=x; cmp -s "+key+" "+key+" && echo same"); code != 0 || out != "same\n" {
		t.Errorf("cmp: exit %d %q", code, out)
	}
	// mv, chmod, rm and test on the files.
	out, code = s.run(t, "mv -f "+key+" "+key+".old && chmod 640 "+key+".old && [ -f "+key+".old ] && [ ! -e "+key+" ] && rm -f "+key+".old "+key+" && echo gone")
	if code != 0 || out != "gone\n" || len(s.d.Files()) != 0 {
		t.Errorf("file commands: exit %d %q, files %v", code, out, s.d.Files())
	}
	if out, code := s.run(t, "cat >/nonexistent/dir/f <<'X'\nx\nX\n"); code == 0 {
		t.Errorf("a file in a missing directory: exit 0 %q", out)
	}
}

// Here-documents are the real shell's: a quoted delimiter hands the body
// over literally (how a driver gives a secret to a file without a
// command line), an unquoted one expands it, and two on one line are
// read in order.
func TestHereDocs(t *testing.T) {
	s := newSim(t, Options{})
	out, code := s.run(t, "x=expanded\ncat <<'EOF'\n$x `id -un` \\\nEOF\ncat <<EOF\n$x `id -un`\nEOF\n")
	if code != 0 || out != "$x `id -un` \\\nexpanded ubnt\n" {
		t.Errorf("exit %d, %q", code, out)
	}
	out, code = s.run(t, "cat <<'A' && cat <<'B'\none\nA\ntwo\nB\necho end\n")
	if code != 0 || out != "one\ntwo\nend\n" {
		t.Errorf("exit %d, %q", code, out)
	}
	if out, code := s.run(t, "cat <<'EOF'\nx\n"); code != 0 || out != "x\n" {
		t.Errorf("a here-document the end of the script ends: exit %d, %q (dash takes the end of file as its delimiter)", code, out)
	}
}

func TestL2TPServerCommit(t *testing.T) {
	s := newSim(t, Options{})
	base := []string{
		"set vpn l2tp remote-access authentication mode local",
		"set vpn l2tp remote-access authentication local-users username bench password pw",
		"set vpn l2tp remote-access client-ip-pool start 198.18.50.10",
		"set vpn l2tp remote-access client-ip-pool stop 198.18.50.99",
		"set vpn l2tp remote-access ipsec-settings authentication mode pre-shared-secret",
		"set vpn l2tp remote-access ipsec-settings authentication pre-shared-secret psk",
		"set vpn l2tp remote-access mtu 1400",
	}
	out, code := s.run(t, script(append(base, "commit")...))
	if code != 1 || !strings.Contains(out, "[ vpn l2tp remote-access ]\nRemote access VPN configuration error: Outside address not defined.") {
		t.Fatalf("exit %d, %q", code, out)
	}
	if out, code := s.run(t, script(append(base, "set vpn l2tp remote-access client-ip-pool stop 198.18.50.1", "set vpn l2tp remote-access outside-address 0.0.0.0", "commit")...)); code != 1 || !strings.Contains(out, "Stop IP must be higher than start IP") {
		t.Errorf("pool backwards: exit %d, %q", code, out)
	}
	if out, code := s.run(t, script(append(base, "set vpn l2tp remote-access outside-address 0.0.0.0", "commit")...)); code != 0 {
		t.Fatalf("exit %d, %q", code, out)
	}
	if out, code := s.run(t, script("set vpn l2tp remote-access mtu 64")); code != 1 || !strings.Contains(out, "MTU must be between 128 and 16384") {
		t.Errorf("mtu 64: exit %d, %q", code, out)
	}
}

// EdgeOS has `interfaces wireguard` only with the package; VyOS always,
// with its own peer syntax. Both refuse an interface without a private
// key at commit.
func TestWireGuardPaths(t *testing.T) {
	const key = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk="
	const pub = "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg="
	plain := newSim(t, Options{})
	if out, code := plain.run(t, script("set interfaces wireguard wg0 address 198.18.61.1/24")); code != 1 || !strings.Contains(out, "Configuration path: [interfaces wireguard] is not valid") {
		t.Errorf("no package: exit %d, %q", code, out)
	}
	if _, code := plain.run(t, "[ -d "+WireGuardTemplates+" ]"); code != 1 {
		t.Error("the package's templates exist without the package")
	}
	edge := newSim(t, Options{WireGuard: true})
	if _, code := edge.run(t, "[ -d "+WireGuardTemplates+" ]"); code != 0 {
		t.Error("the package's templates are missing")
	}
	lines := []string{
		"set interfaces wireguard wg0 address 198.18.61.1/24",
		"set interfaces wireguard wg0 listen-port 51820",
		"set interfaces wireguard wg0 peer " + pub + " allowed-ips 198.18.62.0/24",
		"set interfaces wireguard wg0 peer " + pub + " endpoint 198.18.0.2:51820",
		"commit",
	}
	if out, code := edge.run(t, script(lines...)); code != 1 || !strings.Contains(out, "Private key must be specified for wg0") {
		t.Errorf("no key: exit %d, %q", code, out)
	}
	if out, code := edge.run(t, script(append([]string{"set interfaces wireguard wg0 private-key " + key}, lines...)...)); code != 0 {
		t.Errorf("exit %d, %q", code, out)
	}
	vyos := newSim(t, Options{Flavour: VyOS})
	if out, code := vyos.run(t, script(
		"set interfaces wireguard wg0 private-key "+key,
		"set interfaces wireguard wg0 port 51820",
		"set interfaces wireguard wg0 peer p1 public-key "+pub,
		"set interfaces wireguard wg0 peer p1 allowed-ips 198.18.62.0/24",
		"set interfaces wireguard wg0 peer p1 address 198.18.0.2",
		"set interfaces wireguard wg0 peer p1 port 51820",
		"set protocols static route 198.18.63.0/24 interface wg0",
		"commit")); code != 0 {
		t.Errorf("vyos: exit %d, %q", code, out)
	}
	if out, code := vyos.run(t, script("set interfaces wireguard wg0 peer p1 public-key not-a-key")); code != 1 || !strings.Contains(out, "Key is not valid") {
		t.Errorf("vyos bad key: exit %d, %q", code, out)
	}
}

// `show vpn ipsec sa` lists every peer with its description and tunnels,
// down until the test brings the SAs up.
func TestShowIPsecSA(t *testing.T) {
	s := newSim(t, Options{})
	if out, code := s.run(t, script(
		"set vpn ipsec esp-group RL-s2s proposal 1 encryption aes128",
		"set vpn ipsec esp-group RL-s2s proposal 1 hash sha256",
		"set vpn ipsec esp-group RL-s2s lifetime 1800",
		"set vpn ipsec site-to-site peer 198.18.3.2 description routerlab:s2s",
		"set vpn ipsec site-to-site peer 198.18.3.2 local-address 198.18.0.1",
		"set vpn ipsec site-to-site peer 198.18.3.2 tunnel 1 esp-group RL-s2s",
		"set vpn ipsec site-to-site peer 198.18.3.2 tunnel 2 esp-group RL-s2s",
		"commit")); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	const show = OpWrapper + " show vpn ipsec sa"
	down, _ := s.run(t, show)
	want := "Peer ID / IP                            Local ID / IP\n" +
		"------------                            -------------\n" +
		"198.18.3.2                              198.18.0.1\n\n" +
		"    Description: routerlab:s2s\n\n" +
		"    Tunnel  State  Bytes Out/In   Encrypt  Hash    NAT-T  A-Time  L-Time  Proto\n" +
		"    ------  -----  -------------  -------  ----    -----  ------  ------  -----\n" +
		"    1       down   n/a            n/a      n/a     no     0       1800    all\n" +
		"    2       down   n/a            n/a      n/a     no     0       1800    all\n\n"
	if down != want {
		t.Errorf("down:\n%s\nwant\n%s", down, want)
	}
	s.d.SetSAUp("198.18.3.2")
	up, _ := s.run(t, show)
	if !strings.Contains(up, "    1       up     7.5M/230.6K    aes128   sha256  no     567     1800    all\n") {
		t.Errorf("up:\n%s", up)
	}
}

func TestShowUbntOffload(t *testing.T) {
	s := newSim(t, Options{})
	if _, code := s.run(t, script("set system offload ipv4 forwarding enable", "set system offload ipv4 pppoe enable", "commit")); code != 0 {
		t.Fatal("commit failed")
	}
	const show = OpWrapper + " show ubnt offload"
	out, _ := s.run(t, show)
	for _, want := range []string{"IP offload module   : loaded\nIPv4\n  forwarding: enabled\n  vlan      : disabled\n  pppoe     : enabled\n", "IPv6\n  forwarding: disabled\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	s.d.SetOffloadEffective("ipv4", "pppoe", false)
	if out, _ := s.run(t, show); !strings.Contains(out, "  pppoe     : disabled\n  gre") {
		t.Errorf("override not shown:\n%s", out)
	}
	s.d.SetOffloadModuleLoaded(false)
	if out, _ := s.run(t, show); !strings.Contains(out, "IP offload module   : not loaded\nIPv4\n  forwarding: disabled") {
		t.Errorf("module not loaded:\n%s", out)
	}
	vyos := newSim(t, Options{Flavour: VyOS})
	if _, code := vyos.run(t, show); code == 0 {
		t.Error("VyOS has no show ubnt offload")
	}
}
