package linuxsim

import (
	"os"
	osexec "os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

var firewallCases = map[string]device.FirewallConfig{
	"none":      {Preset: device.FirewallNone},
	"allow_all": {Preset: device.FirewallAllowAll, Masquerade: []string{"eth0"}},
	"stateful": {Preset: device.FirewallStateful, WANInterfaces: []string{"eth0", "eth2"}, Masquerade: []string{"eth0", "eth2"},
		MSSClamp: &device.MSSClamp{ToPMTU: true}, NotrackInterfaces: []string{"eth1"}},
	"fixed clamp": {Preset: device.FirewallStateful, WANInterfaces: []string{"eth0"}, MSSClamp: &device.MSSClamp{Value: 1360}},
}

// A firewall rendered by the Linux driver, applied to the sim, reads back
// through linux.ParseSnapshot as the configuration; a second apply with
// another configuration replaces the chains, and the delete script leaves
// no fw_ chain (and the table gone, as nothing else was in it).
func TestFirewallRoundTrip(t *testing.T) {
	script := snapshotScript(t)
	r := New(Options{})
	for name, want := range firewallCases {
		apply, err := linux.RenderFirewall(want)
		must(t, err)
		if _, stderr, code := applyScript(r, apply); code != 0 {
			t.Fatalf("%s: apply exited %d:\n%s\n%s", name, code, stderr, apply)
		}
		out, _, _ := exec(r, script, "")
		snap, err := linux.ParseSnapshot(out)
		must(t, err)
		got := snap.Firewall
		if !got.Present || !reflect.DeepEqual(got.FirewallConfig, want) {
			t.Errorf("%s: read back %+v, want %+v\n%s", name, got, want, snap.Text)
		}
	}
	if _, stderr, code := applyScript(r, linux.RenderFirewallDelete()); code != 0 {
		t.Fatalf("delete exited %d: %s", code, stderr)
	}
	if st := r.State(); len(st.Nft) != 0 {
		t.Errorf("after delete: %+v", st.Nft)
	}
}

// A rule removed by hand is drift: the preset reads "modified".
func TestFirewallRuleDeletedByHand(t *testing.T) {
	r := New(Options{})
	apply, err := linux.RenderFirewall(firewallCases["stateful"])
	must(t, err)
	if _, stderr, code := applyScript(r, apply); code != 0 {
		t.Fatal(stderr)
	}
	must(t, r.DeleteNftRule("fw_input", 0))
	out, _, _ := exec(r, snapshotScript(t), "")
	snap, err := linux.ParseSnapshot(out)
	must(t, err)
	if snap.Firewall.Preset != "modified" {
		t.Errorf("preset %q after a rule was deleted by hand", snap.Firewall.Preset)
	}
}

// nftInput exercises every form the simulator knows.
const nftInput = `add table inet routerlab
add chain inet routerlab fw_input { type filter hook input priority filter; policy accept; }
add rule inet routerlab fw_input iifname != { "wan1", "wan0" } accept
add rule inet routerlab fw_input iifname != "wan0" accept
add rule inet routerlab fw_input icmpv6 type { nd-neighbor-advert, nd-neighbor-solicit, nd-router-advert } accept
add rule inet routerlab fw_input ct state established,related accept
add rule inet routerlab fw_input ct state invalid drop
add rule inet routerlab fw_input ct state untracked tcp flags & (syn | ack) == syn drop
add rule inet routerlab fw_input tcp dport { 80, 22 } counter accept
add chain inet routerlab fw_mss { type filter hook forward priority mangle; policy accept; }
add rule inet routerlab fw_mss tcp flags syn tcp option maxseg size set rt mtu
add rule inet routerlab fw_mss ip daddr { 198.18.1.0/24 } tcp flags syn tcp option maxseg size set 1380
add rule inet routerlab fw_mss ip saddr { 198.18.3.7, 198.18.1.0/24 } tcp flags syn tcp option maxseg size set 1380
add rule inet routerlab fw_mss ip6 daddr { 2001:db8::/32 } tcp flags syn tcp option maxseg size set 1380
add rule inet routerlab fw_mss oifname "wg0" tcp flags syn tcp option maxseg size set 1380
add chain inet routerlab fw_postrouting { type nat hook postrouting priority srcnat; policy accept; }
add rule inet routerlab fw_postrouting oifname { "b", "a" } masquerade
add chain inet routerlab fw_routerlab
table inet routerlab {
	chain conntrack_off_prerouting { type filter hook prerouting priority raw; policy accept; notrack; }
	chain tunnel_x_mss {
		type filter hook forward priority mangle; policy accept;
		iifname "x" tcp flags syn tcp option maxseg size set 1400
		ip daddr { 198.18.11.0/24, 198.18.10.0/24 } tcp flags syn tcp option maxseg size set rt mtu
		ip6 saddr { 2001:db8:1::/48 } tcp flags syn tcp option maxseg size set rt mtu
	}
}
flush chain inet routerlab fw_postrouting
add rule inet routerlab fw_postrouting oifname "c" masquerade
`

// The sim prints what nft 1.0.6 prints for the same input, byte for
// byte, in both listings: checked against the real nft in a network
// namespace of its own (root only).
func TestNftMatchesRealNft(t *testing.T) {
	r := New(Options{})
	if _, stderr, code := nftFile(r, nftInput); code != 0 {
		t.Fatalf("sim nft -f: %s", stderr)
	}
	simJSON, _, _ := exec(r, "nft -j list table inet routerlab", "")
	simText, _, _ := exec(r, "nft list table inet routerlab", "")
	if os.Geteuid() != 0 {
		t.Skip("comparing with the real nft needs root (unshare -n)")
	}
	if _, err := osexec.LookPath("nft"); err != nil {
		t.Skip("nft not installed")
	}
	cmd := osexec.Command("unshare", "-n", "sh", "-c", "nft -f - && nft -j list table inet routerlab && echo '--' && nft list table inet routerlab")
	cmd.Stdin = strings.NewReader(nftInput)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("unshare/nft failed (%v): %s", err, out)
	}
	realJSON, realText, _ := strings.Cut(string(out), "--\n")
	if simJSON != realJSON {
		t.Errorf("nft -j list:\n sim %s\nreal %s", simJSON, realJSON)
	}
	if simText != realText {
		t.Errorf("nft list:\n sim %s\nreal %s", simText, realText)
	}
}

// nftFile runs `nft -f -` with src on its stdin.
func nftFile(r *Router, src string) (string, string, int) {
	return exec(r, "sh -s", "nft -f - <<'NFT_EOF'\n"+src+"NFT_EOF\n")
}

func TestNftErrors(t *testing.T) {
	r := New(Options{})
	for _, c := range []struct{ cmd, stdin, stderr string }{
		{"nft delete chain inet routerlab x", "", "Error: Could not process rule: No such file or directory\ndelete chain inet routerlab x\n                  ^^^^^^^^^\n"},
		{"", "add table inet t\nadd chain inet t c\nadd rule inet t c junk\n", "/dev/stdin:3:19-22: Error: syntax error, unexpected junk"},
	} {
		var stderr string
		var code int
		if c.cmd == "" {
			_, stderr, code = nftFile(r, c.stdin)
		} else {
			_, stderr, code = exec(r, c.cmd, "")
		}
		if code != 1 || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%s: exit %d %q, want 1 and %q", c.cmd, code, stderr, c.stderr)
		}
	}
	// A failed file changes nothing.
	if st := r.State(); len(st.Nft) != 0 {
		t.Errorf("after failed transactions: %+v", st.Nft)
	}
}
