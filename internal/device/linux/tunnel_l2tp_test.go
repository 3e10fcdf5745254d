package linux

import (
	"fmt"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

func intp(n int) *int { return &n }

// seed000Client is seed 000's Debian side (L2TP/IPsec client of the
// RB750Gr3) as a TunnelConfig: IKEv1 transport, ike=aes128-sha1-modp1024,
// esp=aes128-sha1, CHAP user ppp1 (ours: labuser), PPP MTU and MRU 1350.
// Lab addresses and secrets of our own; the password has a space, a
// backslash and a '#' to exercise pppd's quoting.
func seed000Client() device.TunnelConfig {
	return device.TunnelConfig{Name: "vpn1", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{
		Role: device.RoleClient, Server: "198.18.1.1", MTU: intp(1350), MRU: intp(1350),
		User: "labuser", Password: `lab pass\1 #x`, PSK: "lab-psk-1",
		IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"},
	}}
}

// seed000Server is the RB750Gr3's role (l2tp-server with the seed's
// profile: a local address, a pool, max-mtu/mru 1350, change-tcp-mss)
// played by Linux.
func seed000Server() device.TunnelConfig {
	return device.TunnelConfig{Name: "lns1", Type: device.TunnelL2TPIPsec, MSSClamp: &device.MSSClamp{ToPMTU: true}, L2TP: &device.L2TPConfig{
		Role: device.RoleServer, LocalAddress: "198.18.100.1", RemotePool: "198.18.100.16/28", MTU: intp(1350), MRU: intp(1350),
		User: "labuser", Password: "lab-pass-1", PSK: "lab-psk-1",
		IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"},
	}}
}

// l2tpSections is what the l2tp script prints for files: the xl2tpd and
// pppd files, the account names as chapUsersAwk prints them (the first
// column of the block chapSecretsApply writes), and the interface.
func l2tpSections(cfg device.TunnelConfig, files []renderedFile, ipAddr string) string {
	var b strings.Builder
	get := func(path string) string {
		for _, f := range files {
			if f.path == path {
				return f.content
			}
		}
		return ""
	}
	fmt.Fprintf(&b, "##%s%s\n%s", secL2TPXL2TPD, cfg.Name, get(xl2tpdConfPath(cfg.Name)))
	fmt.Fprintf(&b, "##%s%s\n%s", secL2TPPPP, cfg.Name, get(pppOptionsPath(cfg.Name)))
	fmt.Fprintf(&b, "##%s%s\n", secL2TPUsers, cfg.Name)
	if cfg.L2TP.Role == device.RoleServer {
		b.WriteString(pppdQuote(cfg.L2TP.User) + "\n")
	}
	fmt.Fprintf(&b, "##%s%s\n%s\n", secL2TPStatus, cfg.Name, ipAddr)
	return b.String()
}

// TestL2TPSeedGolden renders seed 000's client and the server role,
// compares the scripts with golden files, and reads the rendered files
// back through the snapshot format: no drift, no secret.
func TestL2TPSeedGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		cfg    device.TunnelConfig
	}{
		{"l2tp_seed000_client", seed000Client()},
		{"l2tp_server", seed000Server()},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			if err := ValidateTunnel(tc.cfg); err != nil {
				t.Fatal(err)
			}
			script, err := l2tpImpl.apply(tc.cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.golden+"_apply.sh.golden", script)
			observed := device.TunnelState{TunnelConfig: withoutSecrets(tc.cfg)}
			golden(t, tc.golden+"_remove.sh.golden", l2tpImpl.remove(observed))
			update, err := l2tpImpl.apply(tc.cfg, &observed)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.golden+"_update.sh.golden", update)

			files := l2tpFiles(tc.cfg)
			sec := snapshotOf(files, "", nftMSSJSON(tc.cfg), l2tpSections(tc.cfg, files, ""))
			if ipsecStates, _, _, err := ipsecImpl.parse(sec); err != nil || len(ipsecStates) != 0 {
				t.Errorf("the ipsec parser takes the l2tp_ipsec file: %v %v", ipsecStates, err)
			}
			states, status, text, err := l2tpImpl.parse(sec)
			if err != nil {
				t.Fatal(err)
			}
			got := states[tc.cfg.Name]
			if want := withoutSecrets(tc.cfg); len(states) != 1 || !reflect.DeepEqual(got.TunnelConfig, want) {
				t.Errorf("parsed back:\n%+v %+v\nwant\n%+v %+v", got.TunnelConfig, got.L2TP, want, want.L2TP)
			}
			if status[tc.cfg.Name] != (device.TunnelStatus{}) {
				t.Errorf("no interface, status = %+v", status[tc.cfg.Name])
			}
			golden(t, tc.golden+"_text.golden", strings.Join(text, "\n")+"\n")
			assertNoSecret(t, tc.cfg, files, script+update, text, got)
		})
	}
}

// TestL2TPServerSecretsTraced: the server's account travels only inside
// the here-document that appends the chap-secrets block.
func TestL2TPServerSecretsTraced(t *testing.T) {
	cfg := seed000Server()
	script, err := l2tpImpl.apply(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	block := chapMarker("lns1", "begin") + "\n\"labuser\" * \"lab-pass-1\" *\n" + chapMarker("lns1", "end") + "\n"
	if strings.Count(script, "lab-pass-1") != 1 || !strings.Contains(script, ".routerlab <<'"+shell.HereDocEnd+"'\n"+block+shell.HereDocEnd+"\n") {
		t.Errorf("the password is not (only) in the chap-secrets here-document:\n%s", script)
	}
}

// TestL2TPStatus reads `ip -j addr show dev` of a point-to-point link
// (testdata README): the tunnel's own and the peer's address.
func TestL2TPStatus(t *testing.T) {
	got, err := parsePPPStatus("vpn1", readFixture(t, "l2tp_ip_addr_up.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (device.TunnelStatus{Established: true, LocalAddress: "198.18.203.17", RemoteAddress: "198.18.203.1", Interface: "vpn1"}); got != want {
		t.Errorf("%+v, want %+v", got, want)
	}
	if got, err := parsePPPStatus("vpn1", ""); err != nil || got != (device.TunnelStatus{}) {
		t.Errorf("no interface: %+v %v", got, err)
	}
	if got, err := parsePPPStatus("vpn1", `[{"ifname":"vpn1","addr_info":[]}]`); err != nil || got != (device.TunnelStatus{Interface: "vpn1"}) {
		t.Errorf("interface without address: %+v %v", got, err)
	}
	if _, err := parsePPPStatus("vpn1", "Device"); err == nil {
		t.Error("garbage parsed")
	}
}

// TestChapSecretsAwk runs the awk programs on a chap-secrets file with
// another tool's entries around the tunnel's block: the strip keeps
// every other line, the listing prints the names and no secret.
func TestChapSecretsAwk(t *testing.T) {
	awk := testenv.RequireCommand(t, "awk", "apt-get install mawk")
	file := filepath.Join(t.TempDir(), "chap-secrets")
	content := "# Secrets for authentication using CHAP\n\"other\" * \"other-pass\" *\n" +
		chapMarker("vpn1", "begin") + "\n\"labuser\" * \"lab pass\\\\1\" *\n# a comment\n\nsecond * \"pw2\" *\n" + chapMarker("vpn1", "end") + "\n" +
		"# routerlab vpn1 begin\n\"pppoe-user\" * \"pppoe-pass\" *\n# routerlab vpn1 end\n"
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(prog string) string {
		out, err := exec.Command(awk, "-v", "b="+chapMarker("vpn1", "begin"), "-v", "e="+chapMarker("vpn1", "end"), prog, file).Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	if got, want := run(chapUsersAwk), "\"labuser\"\nsecond\n"; got != want {
		t.Errorf("users: %q, want %q", got, want)
	}
	want := "# Secrets for authentication using CHAP\n\"other\" * \"other-pass\" *\n# routerlab vpn1 begin\n\"pppoe-user\" * \"pppoe-pass\" *\n# routerlab vpn1 end\n"
	if got := run(chapStripAwk); got != want {
		t.Errorf("strip:\n%s\nwant\n%s", got, want)
	}
}

func TestValidateL2TPLinux(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*device.TunnelConfig)
		want string
	}{
		{"mtu", func(c *device.TunnelConfig) { c.MTU = intp(1400) }, "set the MTU of an l2tp_ipsec tunnel with l2tp_ipsec.mtu"},
		{"aead ike", func(c *device.TunnelConfig) { c.L2TP.IKEProposals = []string{"aes256gcm16-prfsha256-modp2048"} }, "IKEv1 needs an integrity algorithm"},
		{"ipv6 server", func(c *device.TunnelConfig) { c.L2TP.Server = "::1" }, "xl2tpd speaks IPv4 only"},
		{"unspecified server", func(c *device.TunnelConfig) { c.L2TP.Server = "0.0.0.0" }, "IPv4 unicast address"},
		{"client with pool", func(c *device.TunnelConfig) { c.L2TP.RemotePool = "198.18.100.16/28" }, "local_address and remote_pool are for a server"},
		{"server with server", func(c *device.TunnelConfig) {
			c.L2TP.Role, c.L2TP.LocalAddress, c.L2TP.RemotePool = device.RoleServer, "198.18.100.1", "198.18.100.16/28"
		}, "l2tp_ipsec.server is for a client"},
		{"local in pool", func(c *device.TunnelConfig) {
			c.L2TP.Role, c.L2TP.Server, c.L2TP.LocalAddress, c.L2TP.RemotePool = device.RoleServer, "", "198.18.100.20", "198.18.100.16/28"
		}, "lies inside remote_pool"},
	} {
		cfg := seed000Client()
		tc.edit(&cfg)
		err := ValidateTunnel(cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to say %q", tc.name, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), cfg.L2TP.Password) || strings.Contains(err.Error(), cfg.L2TP.PSK)) {
			t.Errorf("%s: the error shows a secret: %v", tc.name, err)
		}
	}
}

// TestL2TPHandEdit: a pool changed by hand reads back as the range xl2tpd
// uses, not as the spelling routerlab wrote; a half-deleted tunnel (its
// connection file gone) is still found.
func TestL2TPHandEdit(t *testing.T) {
	cfg := seed000Server()
	files := l2tpFiles(cfg)
	for i, f := range files {
		if f.path == xl2tpdConfPath(cfg.Name) {
			files[i].content = strings.Replace(f.content, "ip range = 198.18.100.17-198.18.100.30", "ip range = 198.18.100.17 - 198.18.100.20", 1)
		}
	}
	extra := l2tpSections(cfg, files, "")
	var kept []renderedFile
	for _, f := range files {
		if f.path != swanctlConfPath(cfg.Name) {
			kept = append(kept, f)
		}
	}
	states, _, _, err := l2tpImpl.parse(snapshotOf(kept, "", "{}", extra))
	if err != nil {
		t.Fatal(err)
	}
	got := states["lns1"].L2TP
	if got == nil || got.RemotePool != "198.18.100.17-198.18.100.20" || got.IKEProposals != nil || got.Role != device.RoleServer {
		t.Errorf("%+v", got)
	}
}

// FuzzL2TPRoundTrip: every configuration that passes ValidateTunnel
// reads back as itself minus its secrets, and no non-secret file depends
// on a secret.
func FuzzL2TPRoundTrip(f *testing.F) {
	f.Add("vpn1", "client", "198.18.1.1", "", "", 1350, 1350, "labuser", `lab pass\1 #x`, "lab-psk-1", "aes128-sha1-modp1024", "aes128-sha1", "")
	f.Add("lns-1", "server", "", "198.18.100.1", "198.18.100.16/28", 0, 1400, "u@lab.test", "p", "0x41", "aes256-sha256-modp2048,3des-md5-modp1024", "aes256gcm16", "1300")
	f.Add("l", "server", "", "198.18.100.99", "198.18.100.10-198.18.100.20", 128, 0, "a", "p", "k", "aes128-sha1-modp1024", "aes128-sha1", "pmtu")
	f.Fuzz(func(t *testing.T, name, role, server, local, pool string, mtu, mru int, user, password, psk, ike, esp, clamp string) {
		cfg := device.TunnelConfig{Name: name, Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{
			Role: role, Server: server, LocalAddress: local, RemotePool: pool, User: user, Password: password, PSK: psk,
			IKEProposals: splitList(ike), ESPProposals: splitList(esp),
		}}
		if p, err := netip.ParsePrefix(pool); err == nil && p.Bits() < 16 {
			return // device.ParsePool walks every address of a pool: a /1 takes seconds
		}
		if mtu != 0 {
			cfg.L2TP.MTU = &mtu
		}
		if mru != 0 {
			cfg.L2TP.MRU = &mru
		}
		if clamp != "" {
			c, err := device.ParseMSSClamp(clamp)
			if err != nil {
				return
			}
			cfg.MSSClamp = &c
		}
		if ValidateTunnel(cfg) != nil {
			return
		}
		files := l2tpFiles(cfg)
		states, _, _, err := l2tpImpl.parse(snapshotOf(files, "", nftMSSJSON(cfg), l2tpSections(cfg, files, "")))
		if err != nil {
			t.Fatal(err)
		}
		if got := states[name]; !reflect.DeepEqual(got.TunnelConfig, withoutSecrets(cfg)) {
			t.Fatalf("round trip:\n%+v %+v\nwant\n%+v %+v", got.TunnelConfig, got.L2TP, cfg, cfg.L2TP)
		}
		other := cfg
		o := *cfg.L2TP
		o.PSK, o.Password = "another key", "another password"
		other.L2TP = &o
		for _, f := range l2tpFiles(other) {
			for _, g := range files {
				if f.path == g.path && !f.secret && f.content != g.content {
					t.Fatalf("%s depends on a secret", f.path)
				}
			}
		}
		if words := pppdWords("password " + pppdQuote(password)); len(words) != 2 || words[1] != password {
			t.Fatalf("pppd reads the password as %q", words)
		}
	})
}

// TestL2TPLive runs both ends' scripts in throwaway nodes with real
// charons and xl2tpd: swanctl loads the IKEv1 transport connections and
// the IKE SA comes up with the PSK (the transport-mode CHILD_SA cannot be
// installed: kernel-libipsec does tunnel mode only, and this kernel has
// no ESP or PPP), each xl2tpd outlives the script that started it, the
// snapshot reads back both configurations and the server's account name
// and never a secret, a second tunnel is refused, an update restarts
// xl2tpd, and removal leaves nothing but other tools' chap-secrets lines.
func TestL2TPLive(t *testing.T) {
	requireLiveIPsec(t)
	testenv.RequireCommand(t, "xl2tpd", "apt-get install xl2tpd")
	a, b := newCharonPair(t)
	client := seed000Client()
	client.L2TP.Server = "198.18.200.2"
	client.MSSClamp = &device.MSSClamp{Value: 1300}
	server := seed000Server()
	server.Name = client.Name
	apply := func(n *charonNode, cfg device.TunnelConfig, observed *device.TunnelState) {
		t.Helper()
		if err := ValidateTunnel(cfg); err != nil {
			t.Fatal(err)
		}
		s, err := l2tpImpl.apply(cfg, observed)
		if err != nil {
			t.Fatal(err)
		}
		n.mustRun("apply", s)
	}
	xl2tpdPID := func(n *charonNode) string {
		t.Helper()
		pid := strings.TrimSpace(n.output("cat " + xl2tpdPidPath("vpn1")))
		if comm, _ := os.ReadFile("/proc/" + pid + "/comm"); strings.TrimSpace(string(comm)) != "xl2tpd" {
			t.Fatalf("%s: pid file names %q, which is not an xl2tpd", n.ns, pid)
		}
		return pid
	}
	b.mustRun("seed chap-secrets", `printf '"other" * "other-pass" *\n' >> /etc/ppp/chap-secrets`)
	apply(b, server, nil)
	apply(a, client, nil)
	pidB := xl2tpdPID(b)
	xl2tpdPID(a)
	for _, n := range []struct {
		node *charonNode
		cfg  device.TunnelConfig
	}{{a, client}, {b, server}} {
		states, _, raw := n.node.waitFor("the IKEv1 SA coming up", l2tpImpl.parse, func(_ map[string]device.TunnelState, _ map[string]device.TunnelStatus, raw string) bool {
			return strings.Contains(raw, "vpn1: #") && strings.Contains(raw, ", ESTABLISHED, IKEv1,")
		})
		if got := states["vpn1"]; !reflect.DeepEqual(got.TunnelConfig, withoutSecrets(n.cfg)) {
			t.Errorf("%s reports\n%+v %+v\nwant\n%+v %+v", n.node.ns, got.TunnelConfig, got.L2TP, n.cfg, n.cfg.L2TP)
		}
		for _, secret := range []string{client.L2TP.Password, server.L2TP.Password, "lab-psk-1", "other-pass"} {
			if strings.Contains(raw, secret) {
				t.Errorf("%s: the snapshot shows %q", n.node.ns, secret)
			}
		}
	}
	capture(t, "ipsec_list_sas_ikev1.txt", a.output("swanctl --list-sas --noblock 2>/dev/null"))

	second := seed000Client()
	second.Name = "vpn2"
	s, err := l2tpImpl.apply(second, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := a.run(s); err == nil || !strings.Contains(out, "one l2tp_ipsec tunnel: xl2tpd needs udp/1701, and tunnel vpn1 has it") {
		t.Errorf("a second tunnel: %v\n%s", err, out)
	}

	observed := device.TunnelState{TunnelConfig: withoutSecrets(server)}
	server.L2TP.MTU = intp(1300)
	apply(b, server, &observed)
	if pid := xl2tpdPID(b); pid == pidB {
		t.Error("the update did not restart xl2tpd")
	}

	a.mustRun("remove", l2tpImpl.remove(device.TunnelState{TunnelConfig: withoutSecrets(client)}))
	b.mustRun("remove", l2tpImpl.remove(device.TunnelState{TunnelConfig: withoutSecrets(server)}))
	for _, n := range []*charonNode{a, b} {
		n.waitFor("the tunnel going away", l2tpImpl.parse, func(states map[string]device.TunnelState, _ map[string]device.TunnelStatus, raw string) bool {
			return len(states) == 0 && !strings.Contains(raw, "vpn1: #") && !strings.Contains(raw, "tunnel_vpn1_mss")
		})
		n.mustRun("nothing left", `! ls /etc/swanctl/conf.d/routerlab-vpn1.conf /etc/routerlab/secrets/vpn1.* /etc/routerlab/l2tp/vpn1 /run/routerlab/xl2tpd-vpn1.pid 2>/dev/null
! pgrep -f 'xl2tpd -c /etc/routerlab/l2tp/vpn1/'`)
	}
	if got := b.output("grep -c . /etc/ppp/chap-secrets; grep -c routerlab /etc/ppp/chap-secrets || true; tail -n1 /etc/ppp/chap-secrets"); !strings.HasSuffix(got, "0\n\"other\" * \"other-pass\" *\n") {
		t.Errorf("chap-secrets after removal:\n%s", got)
	}
}
