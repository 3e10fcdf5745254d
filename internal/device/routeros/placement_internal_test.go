package routeros

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// The L2TP/IPsec server's input accepts go before a default
// configuration's input drop and before routerlab_firewall's rules (so a
// stateful firewall's WAN drop cannot shadow them), whichever was written
// first. The tunnel's apply path does not yet hand the renderer the
// router's filter (tunnel.go, driver_config.go's ApplyTunnel), so this
// drives the renderer with the export the driver would read, against the
// simulated router.
func TestL2TPServerRulesPlacedBeforeDrops(t *testing.T) {
	sim := rossim.New(rossim.Options{Version: "7.13.4", Model: "RB750Gr3"})
	sim.MustRun(strings.Join([]string{
		`/ip firewall filter add action=accept chain=input comment="defconf: accept established,related,untracked" connection-state=established,related,untracked`,
		`/ip firewall filter add action=drop chain=input comment="defconf: drop all not coming from LAN" in-interface-list=!LAN`,
		`/ip firewall filter add action=drop chain=input comment="routerlab:fw" in-interface=ether1`,
	}, "\n"))
	read := func() *Export {
		t.Helper()
		out, err := sim.Run(filterExportCommand)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := ParseExport(out)
		if err != nil {
			t.Fatal(err)
		}
		return exp
	}
	sim.MustRun(strings.Join(l2tpServerRules("vpn", read()), "\n"))
	// A second tunnel's accepts go after the first's, still before the drops.
	sim.MustRun(strings.Join(l2tpServerRules("vpn2", read()), "\n"))
	var order []string
	for _, r := range sim.Items("/ip firewall filter") {
		order = append(order, r["comment"])
	}
	want := []string{"routerlab:vpn", "routerlab:vpn", "routerlab:vpn2", "routerlab:vpn2",
		"defconf: accept established,related,untracked", "defconf: drop all not coming from LAN", "routerlab:fw"}
	if strings.Join(order, "|") != strings.Join(want, "|") {
		t.Errorf("filter order:\n got %q\nwant %q", order, want)
	}
}

// A target that shares its comment with another rule of its chain is
// found by every argument it has.
func TestPlaceBeforeAmbiguousComment(t *testing.T) {
	exp, err := ParseExport("/ip firewall filter\nadd action=drop chain=input comment=x protocol=tcp\nadd action=drop chain=input comment=x\n")
	if err != nil {
		t.Fatal(err)
	}
	got := placeBefore(exp, "input", beforeForeign)
	if want := ` place-before=[ find action=drop chain=input comment=x protocol=tcp ]`; got != want {
		t.Errorf("placeBefore = %q, want %q", got, want)
	}
	if got := placeBefore(exp, "forward", beforeForeign); got != "" {
		t.Errorf("placeBefore on an empty chain = %q, want none", got)
	}
}
