package rtx

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The global lines a routerlab tunnel needs (globals.go): written when
// the router lacks them, with a ledger in the tunnel's description, and
// removed with the last routerlab tunnel that needs them; a line the
// owner had stays.

// globalsBase is an RTX810 without `ipsec auto refresh on` or `l2tp
// service on`.
const globalsBase = "# RTX810 Rev.11.01.34 (Tue Nov 26 18:39:12 2019)\n# Memory 128Mbytes, 2LAN\n" +
	"ip route default gateway dhcp lan2\nip lan1 address 198.18.100.1/24\nip lan2 address dhcp\n" +
	"dhcp service server\ndhcp scope 1 198.18.100.2-198.18.100.191/24\n"

// initiator is an initiating IPsec tunnel (needs `ipsec auto refresh
// on`); another the same to a second peer.
func initiator(name, subnet string) device.TunnelConfig {
	t := seed001Tunnel()
	t.Name = name
	ip := *t.IPsec
	ip.RemoteSubnets = []string{subnet}
	t.IPsec = &ip
	return t
}

// l2tpServer is an L2TP/IPsec server (needs `l2tp service on`).
func l2tpServer() device.TunnelConfig {
	return device.TunnelConfig{Name: "remote", Type: device.TunnelL2TPIPsec,
		L2TP: &device.L2TPConfig{Role: device.RoleServer, LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209",
			User: "rl-remote", Password: "sentinel-ppp", PSK: "sentinel-psk",
			IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"}}}
}

// apply renders desired on d and types it; the console lines typed.
func applyTunnel(t *testing.T, d *fakeDevice, desired device.TunnelConfig) []string {
	t.Helper()
	cmds, err := RenderTunnel(desired, d.config(t))
	return render(t, d, cmds, err)
}

func deleteTunnel(t *testing.T, d *fakeDevice, name string) []string {
	t.Helper()
	lines := Script(RenderTunnelDelete(d.config(t), name))
	d.apply(t, lines)
	return lines
}

// description is the description line tunnel name carries on d.
func description(t *testing.T, d *fakeDevice, name string) string {
	t.Helper()
	for _, l := range d.config(t).Lines {
		if len(l.Words) == 3 && l.Words[0] == "description" && l.Words[1] == "tunnel" && strings.HasPrefix(l.Words[2], OwnerMarker+name) {
			if rest := strings.TrimPrefix(l.Words[2], OwnerMarker+name); rest == "" || rest[0] == '+' {
				return l.Text
			}
		}
	}
	t.Fatalf("no description of tunnel %q:\n%s", name, d.print())
	return ""
}

func hasTop(c *Config, line string) bool {
	return slices.ContainsFunc(c.Lines, func(l Line) bool { return l.Section == "" && l.Text == line })
}

func sameLines(t *testing.T, what string, got *Config, want string) {
	t.Helper()
	if g, w := lineSet(got), lineSet(mustParse(t, want)); !slices.Equal(g, w) {
		t.Errorf("%s: the router is not as it was:\n got %q\nwant %q", what, g, w)
	}
}

var globalCases = []struct {
	name   string
	tunnel device.TunnelConfig
	line   string // the global line the tunnel needs
	ledger string // the description routerlab writes when it adds it
}{
	{"ipsec initiate", initiator("s2s", "198.18.200.0/24"), "ipsec auto refresh on", "description tunnel routerlab:s2s+ipsec-auto-refresh"},
	{"l2tp server", l2tpServer(), "l2tp service on", "description tunnel routerlab:remote+l2tp-service"},
}

// On a router without the line: create writes it and the ledger, the
// tunnel reads back as configured (the ledger is no drift), and destroy
// leaves the router exactly as it was.
func TestGlobalAddedThenRemoved(t *testing.T) {
	for _, tc := range globalCases {
		t.Run(tc.name, func(t *testing.T) {
			d := newFakeDevice(t, globalsBase)
			lines := applyTunnel(t, d, tc.tunnel)
			if !slices.Contains(lines, tc.line) {
				t.Errorf("create does not write %q: %q", tc.line, lines)
			}
			if got := description(t, d, tc.tunnel.Name); got != tc.ledger {
				t.Errorf("description = %q, want %q", got, tc.ledger)
			}
			checkNoDrift(t, d, tc.tunnel)
			lines = deleteTunnel(t, d, tc.tunnel.Name)
			if no := "no " + Key(SplitWords(tc.line)); !slices.Contains(lines, no) {
				t.Errorf("delete does not type %q: %q", no, lines)
			}
			sameLines(t, "after destroy", d.config(t), globalsBase)
		})
	}
}

// checkNoDrift: the tunnel reads back as desired under its own name, a
// second read is the same text, configWarnings do not call it foreign,
// and rendering it again types only the secret lines (always sent).
func checkNoDrift(t *testing.T, d *fakeDevice, desired device.TunnelConfig) {
	t.Helper()
	s, err := ParseSnapshot("", d.print())
	if err != nil {
		t.Fatal(err)
	}
	got, ok := s.Tunnels[desired.Name]
	if !ok || len(s.Tunnels) == 0 {
		t.Fatalf("tunnels read back: %v", slices.Collect(func(yield func(string) bool) {
			for n := range s.Tunnels {
				if !yield(n) {
					return
				}
			}
		}))
	}
	want := desired
	switch {
	case want.IPsec != nil:
		ip := *want.IPsec
		ip.PSK = ""
		want.IPsec = &ip
		if !reflect.DeepEqual(*got.IPsec, ip) {
			t.Errorf("ipsec read back %+v\nwant %+v", *got.IPsec, ip)
		}
	case want.L2TP != nil:
		l := *want.L2TP
		l.PSK, l.Password = "", ""
		want.L2TP = &l
		if !reflect.DeepEqual(*got.L2TP, l) {
			t.Errorf("l2tp read back %+v\nwant %+v", *got.L2TP, l)
		}
	}
	if got.Name != desired.Name || got.Type != desired.Type {
		t.Errorf("read back as %q %q", got.Name, got.Type)
	}
	again, _ := ParseSnapshot("", d.print())
	if again.SHA256 != s.SHA256 {
		t.Error("two reads of one configuration differ")
	}
	for _, w := range configWarnings(d.config(t)) {
		if strings.Contains(w, "tunnel select") {
			t.Errorf("warning about routerlab's tunnel: %s", w)
		}
	}
	cmds, err := RenderTunnel(desired, d.config(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if secretFrom(c.Words) < 0 {
			t.Errorf("re-render writes %q", c.Text())
		}
	}
}

// On a router that had the line: create writes neither it nor a ledger,
// and destroy leaves it.
func TestGlobalOwnersLineStays(t *testing.T) {
	for _, tc := range globalCases {
		t.Run(tc.name, func(t *testing.T) {
			base := globalsBase + tc.line + "\n"
			d := newFakeDevice(t, base)
			lines := applyTunnel(t, d, tc.tunnel)
			if slices.Contains(lines, tc.line) {
				t.Errorf("create writes %q the router has: %q", tc.line, lines)
			}
			if got, want := description(t, d, tc.tunnel.Name), "description tunnel routerlab:"+tc.tunnel.Name; got != want {
				t.Errorf("description = %q, want %q (no ledger: the line is the owner's)", got, want)
			}
			checkNoDrift(t, d, tc.tunnel)
			deleteTunnel(t, d, tc.tunnel.Name)
			sameLines(t, "after destroy", d.config(t), base)
		})
	}
}

// A second tunnel needing the line writes no second ledger; deleting the
// ledger's holder moves it to the other (the line stays), deleting the
// last removes the line. Deleting the other first moves nothing.
func TestGlobalSecondTunnel(t *testing.T) {
	a, b := initiator("s2s", "198.18.200.0/24"), initiator("s2s-b", "198.18.201.0/24")
	d := newFakeDevice(t, globalsBase)
	applyTunnel(t, d, a)
	lines := applyTunnel(t, d, b)
	if slices.Contains(lines, "ipsec auto refresh on") {
		t.Errorf("second tunnel writes the line again: %q", lines)
	}
	if got := description(t, d, "s2s-b"); got != "description tunnel routerlab:s2s-b" {
		t.Errorf("second tunnel's description = %q (a second ledger)", got)
	}
	checkNoDrift(t, d, b)
	lines = deleteTunnel(t, d, "s2s")
	if slices.Contains(lines, "no ipsec auto refresh") {
		t.Errorf("deleting the holder removes the line s2s-b needs: %q", lines)
	}
	if !hasTop(d.config(t), "ipsec auto refresh on") {
		t.Errorf("the line is gone while s2s-b needs it:\n%s", d.print())
	}
	if got := description(t, d, "s2s-b"); got != "description tunnel routerlab:s2s-b+ipsec-auto-refresh" {
		t.Errorf("the ledger did not move to s2s-b: %q", got)
	}
	checkNoDrift(t, d, b)
	lines = deleteTunnel(t, d, "s2s-b")
	if !slices.Contains(lines, "no ipsec auto refresh") {
		t.Errorf("deleting the last tunnel leaves the line: %q", lines)
	}
	sameLines(t, "after both destroyed", d.config(t), globalsBase)

	// The other way round: the tunnel without the ledger goes first.
	d = newFakeDevice(t, globalsBase)
	applyTunnel(t, d, a)
	applyTunnel(t, d, b)
	lines = deleteTunnel(t, d, "s2s-b")
	if slices.Contains(lines, "no ipsec auto refresh") || slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "description") }) {
		t.Errorf("deleting the tunnel without the ledger touches the line or a description: %q", lines)
	}
	if got := description(t, d, "s2s"); got != "description tunnel routerlab:s2s+ipsec-auto-refresh" {
		t.Errorf("holder's description = %q", got)
	}
	deleteTunnel(t, d, "s2s")
	sameLines(t, "after both destroyed", d.config(t), globalsBase)

	// A tunnel that does not initiate does not take the ledger.
	d = newFakeDevice(t, globalsBase)
	applyTunnel(t, d, a)
	quiet := initiator("s2s-b", "198.18.201.0/24")
	quiet.IPsec.Initiate = false
	applyTunnel(t, d, quiet)
	lines = deleteTunnel(t, d, "s2s")
	if !slices.Contains(lines, "no ipsec auto refresh") {
		t.Errorf("the last initiating tunnel deleted, the line stays: %q", lines)
	}
	if got := description(t, d, "s2s-b"); got != "description tunnel routerlab:s2s-b" {
		t.Errorf("a tunnel that does not need the line took the ledger: %q", got)
	}
}

// An update keeps the ledger (Diff against have does not drop it); an
// update that stops needing the line removes it, or hands the ledger on.
func TestGlobalUpdate(t *testing.T) {
	d := newFakeDevice(t, globalsBase)
	tun := initiator("s2s", "198.18.200.0/24")
	applyTunnel(t, d, tun)
	tun.IPsec.ESPProposals = []string{"aes256-sha256"}
	lines := applyTunnel(t, d, tun)
	if slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "description") || strings.Contains(l, "auto refresh") }) {
		t.Errorf("an ESP change touches the description or the line: %q", lines)
	}
	if got := description(t, d, "s2s"); got != "description tunnel routerlab:s2s+ipsec-auto-refresh" {
		t.Errorf("the update dropped the ledger: %q", got)
	}
	checkNoDrift(t, d, tun)

	// initiate off: the line goes with the ledger.
	tun.IPsec.Initiate = false
	lines = applyTunnel(t, d, tun)
	if !slices.Contains(lines, "no ipsec auto refresh") {
		t.Errorf("initiate off leaves the line routerlab added: %q", lines)
	}
	if got := description(t, d, "s2s"); got != "description tunnel routerlab:s2s" {
		t.Errorf("description = %q", got)
	}
	checkNoDrift(t, d, tun)
	// And on again: written again, with the ledger.
	tun.IPsec.Initiate = true
	lines = applyTunnel(t, d, tun)
	if !slices.Contains(lines, "ipsec auto refresh on") || description(t, d, "s2s") != "description tunnel routerlab:s2s+ipsec-auto-refresh" {
		t.Errorf("initiate on again: %q", lines)
	}
	checkNoDrift(t, d, tun)

	// initiate off while another tunnel initiates: the ledger moves.
	other := initiator("s2s-b", "198.18.201.0/24")
	applyTunnel(t, d, other)
	tun.IPsec.Initiate = false
	lines = applyTunnel(t, d, tun)
	if slices.Contains(lines, "no ipsec auto refresh") {
		t.Errorf("the line s2s-b needs is removed: %q", lines)
	}
	if got := description(t, d, "s2s-b"); got != "description tunnel routerlab:s2s-b+ipsec-auto-refresh" {
		t.Errorf("the ledger did not move: %q", got)
	}
	checkNoDrift(t, d, tun)
	checkNoDrift(t, d, other)
	deleteTunnel(t, d, "s2s")
	deleteTunnel(t, d, "s2s-b")
	sameLines(t, "after both destroyed", d.config(t), globalsBase)
}

// A write that fails after any of its lines is undone to the router as it
// was: the ledger and the global line with the rest.
func TestGlobalUndo(t *testing.T) {
	check := func(t *testing.T, base string, prepare func(d *fakeDevice), write func(c *Config) []Cmd) {
		t.Helper()
		d0 := newFakeDevice(t, base)
		prepare(d0)
		before := d0.print()
		cmds := write(d0.config(t))
		if len(cmds) == 0 {
			t.Fatal("nothing to write")
		}
		for k := 0; k <= len(cmds); k++ {
			d := newFakeDevice(t, before)
			d.apply(t, Script(cmds[:k]))
			back, lost := Undo(mustParse(t, before), d.config(t), cmds)
			if len(lost) != 0 {
				t.Fatalf("after %d lines: lost %q", k, lost)
			}
			d.apply(t, Script(back))
			sameLines(t, "undone after "+strings.Join(Script(cmds[:k]), "; "), d.config(t), before)
		}
	}
	none := func(*fakeDevice) {}
	for _, tc := range globalCases {
		t.Run("create "+tc.name, func(t *testing.T) {
			check(t, globalsBase, none, func(c *Config) []Cmd {
				cmds, err := RenderTunnel(tc.tunnel, c)
				if err != nil {
					t.Fatal(err)
				}
				return cmds
			})
		})
	}
	// The ledger handed on: initiate off on the holder while another
	// tunnel initiates.
	t.Run("ledger moved", func(t *testing.T) {
		tun := initiator("s2s", "198.18.200.0/24")
		check(t, globalsBase, func(d *fakeDevice) {
			applyTunnel(t, d, tun)
			applyTunnel(t, d, initiator("s2s-b", "198.18.201.0/24"))
		}, func(c *Config) []Cmd {
			off := tun
			ip := *tun.IPsec
			ip.Initiate = false
			off.IPsec = &ip
			cmds, err := RenderTunnel(off, c)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(cmds, func(c Cmd) bool { return c.Section == "tunnel 2" }) {
				t.Fatalf("the ledger does not move: %q", Script(cmds))
			}
			return cmds
		})
	})
}

// A line of the same setting that does not do what the tunnel needs is
// the owner's: refused, never replaced (routerlab could not put it back).
func TestGlobalOwnersOtherValueRefused(t *testing.T) {
	for _, tc := range []struct {
		line   string
		tunnel device.TunnelConfig
	}{
		{"ipsec auto refresh off", initiator("s2s", "198.18.200.0/24")},
		{"l2tp service on l2tpv3", l2tpServer()},
		{"l2tp service off", l2tpServer()},
	} {
		_, err := RenderTunnel(tc.tunnel, mustParse(t, globalsBase+tc.line+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.line) {
			t.Errorf("%s: %v", tc.line, err)
		}
		// At plan already: CheckTunnel reads the snapshot's text.
		snap, err := ParseSnapshot("", globalsBase+tc.line+"\n")
		if err != nil {
			t.Fatal(err)
		}
		if err := (&Driver{}).CheckTunnel(tc.tunnel, snap); err == nil || !strings.Contains(err.Error(), tc.line) {
			t.Errorf("plan, %s: %v", tc.line, err)
		}
	}
	// L2TPv2 among the versions serves: nothing written.
	d := newFakeDevice(t, globalsBase+"l2tp service on l2tp l2tpv3\n")
	if lines := applyTunnel(t, d, l2tpServer()); slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "l2tp service") }) {
		t.Errorf("writes l2tp service over the owner's: %q", lines)
	}
}
