package rtx_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/rtx"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/hostile"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
)

// Issue 18's property on RTX: every string of every resource the RTX
// driver supports, attacked with every hostile value, is refused at plan
// (naming the attribute) or carried as data through the real driver and
// the console transport over SSH into the simulated RTX810 console, and
// reads back as given.
//
// The RTX console has no files and no shell: a second command is a line
// typed after a CR or LF inside a value (the console ends a line at
// either: rtxsim's term, as a terminal's Enter). The text beyond the
// break arrives at the console as a line of its own, so the effects are
// read off the console itself:
//
//   - a typed line (rtxsim's Lines) that carries the sentinel without
//     carrying one whole hostile value: the value was cut and the rest
//     was typed as a command, whether the router took it or not;
//   - a line of the running configuration (rtxsim's Config, what `show
//     config` prints) that carries the sentinel without one whole
//     hostile value: a directive the value added (`console prompt
//     rlsentinel`, a description, whatever the router took).
//
// A line holding a whole hostile value is the value itself, written as
// data (`description lan1 "x # rlsentinel"`); a value with a line break
// can never be a whole line, so what follows its break is always caught.
// A value that closes its quotes early stays on its line: the router
// refuses the extra words, or the value reads back cut, and the harness
// reports either. Effects removes what it found (typed lines are
// forgotten, added configuration lines are taken back with `no`), so
// each value is judged on its own; TestHostileEffects checks it.
func TestHostileValues(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	router := device.RouterConfig{
		Interfaces: map[string]device.InterfaceConfig{
			"lan1": {Addresses: []string{"198.18.100.1/24"}, MTU: intp(1400), Description: strp("inside LAN")},
		},
		// A route by gateway only: the provider's plan (and so the
		// harness) checks a route's interface against the LAN
		// interfaces a snapshot lists, so a route into tunnelN is
		// refused before the driver sees it. The Interface field is
		// attacked all the same, beside the gateway.
		Routes: map[string]*device.Route{"198.18.9.0/24": {Destination: "198.18.9.0/24", Gateway: "198.18.100.254"}},
	}
	firewall := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"lan2"}, Masquerade: []string{"lan2"},
		MSSClamp: &device.MSSClamp{Value: 1414}}
	// The IKEv1 tunnel of TestSimCapabilities, with addresses and
	// subnets; its identities are seed 001's IKEv2 tunnel's (an IKEv1
	// tunnel on RTX takes no local_id or remote_id: validate.go
	// checkIKEv1Names), so between the two every string field of
	// IPsecConfig holds a value.
	v1 := device.TunnelConfig{Name: "v1", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{IKEVersion: 1,
		IKEProposals: []string{"aes256-sha256-modp2048"}, ESPProposals: []string{"aes256-sha256-modp2048"}, PSK: "sim-psk-v1",
		Mode: device.ModeTunnel, LocalAddress: "198.18.3.1", RemoteAddress: "198.18.3.2",
		LocalSubnets: []string{"198.18.100.0/24"}, RemoteSubnets: []string{"198.18.201.0/24"}, DPDDelay: 30}}
	l2tp := device.TunnelConfig{Name: "vpn", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer,
		LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209", MTU: intp(1258), MRU: intp(1350),
		User: "ppp1", Password: "sim-l2tp-secret", PSK: "sim-l2tp-psk",
		IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"}}}
	pppoe := device.PPPoEConfig{Name: "wan", Role: device.RoleClient, Interface: "lan2", ServiceName: "lab", User: "ppp1",
		Password: "sim-pppoe-secret", MTU: intp(1454), MRU: intp(1454), MSSClamp: &device.MSSClamp{Value: 1414}, UsePeerDNS: true}

	// Each resource on a router of its own, the cases side by side: a
	// console session costs a login and administrator mode, and the
	// matrix is some 870 values (every one still judged).
	run := func(name string, f func(t *testing.T, drv *rtx.Driver, tg hostile.Target)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			drv, _, tg := hostileTarget(t)
			f(t, drv, tg)
		})
	}
	run("router", func(t *testing.T, drv *rtx.Driver, tg hostile.Target) {
		hostile.Run(t, tg, hostile.Router(drv, router))
	})
	run("firewall", func(t *testing.T, drv *rtx.Driver, tg hostile.Target) {
		hostile.Run(t, tg, hostile.Firewall(drv, firewall))
	})
	for _, tc := range []device.TunnelConfig{seed001Tunnel(), v1, l2tp} {
		run(string(tc.Type)+"/"+tc.Name, func(t *testing.T, drv *rtx.Driver, tg hostile.Target) { hostile.Run(t, tg, hostile.Tunnel(drv, tc)) })
	}
	run("pppoe/client", func(t *testing.T, drv *rtx.Driver, tg hostile.Target) { hostile.Run(t, tg, hostile.PPPoE(drv, pppoe)) })
}

// hostileTarget is a simulated RTX810 (baseConfig) and the harness's view
// of it: the real driver, and Effects as described above.
func hostileTarget(t *testing.T) (*rtx.Driver, *rtxsim.Sim, hostile.Target) {
	drv, sim := simDriver(t, rtxsim.Options{})
	seen := len(sim.Lines())
	return drv, sim, hostile.Target{Driver: drv, Effects: func() error {
		var found []string
		typed := sim.Lines()
		for _, l := range typed[min(seen, len(typed)):] {
			if foreign(l) {
				found = append(found, fmt.Sprintf("typed %q", l))
			}
		}
		section := ""
		for _, l := range sim.Config() {
			if !strings.HasPrefix(l, " ") {
				section = ""
				if w := strings.Fields(l); len(w) == 3 && w[1] == "select" {
					section = l
				}
			}
			if !foreign(l) {
				continue
			}
			found = append(found, fmt.Sprintf("configured %q", l))
			undo := []string{"no " + strings.TrimSpace(l)}
			if strings.HasPrefix(l, " ") && section != "" {
				undo = []string{section, " no " + strings.TrimSpace(l)}
			}
			if err := sim.Apply(undo...); err != nil {
				found = append(found, fmt.Sprintf("(could not remove it: %v)", err))
			}
		}
		// Apply types nothing at a console (Lines are the shells'), so
		// everything typed so far has been judged.
		seen = len(sim.Lines())
		if len(found) > 0 {
			return fmt.Errorf("the sentinel is outside the value: %s", strings.Join(found, "; "))
		}
		return nil
	}}
}

// foreign reports whether a console or configuration line carries the
// sentinel without carrying a whole hostile value: text that reached the
// console beyond the end of the value it came in.
func foreign(line string) bool {
	if !strings.Contains(line, hostile.Sentinel) {
		return false
	}
	for _, v := range hostile.Values() {
		if strings.Contains(v.Text, hostile.Sentinel) && strings.Contains(line, v.Text) {
			return false
		}
	}
	return true
}

// The detector sees a second command: directives carrying the sentinel
// (a console prompt, a description typed as a line of its own) are
// reported and removed, a value carrying it whole is not, and the next
// call starts clean.
func TestHostileEffects(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	drv, sim, tg := hostileTarget(t)
	before := body(sim)
	if err := tg.Effects(); err != nil {
		t.Fatalf("a clean router: %v", err)
	}
	if err := sim.Apply("console prompt "+hostile.Sentinel, "description lan2 "+hostile.Sentinel); err != nil {
		t.Fatal(err)
	}
	err := tg.Effects()
	if err == nil || !strings.Contains(err.Error(), "console prompt") || !strings.Contains(err.Error(), "description lan2") {
		t.Errorf("second commands not reported: %v", err)
	}
	if body(sim) != before {
		t.Errorf("not removed:\n%s", body(sim))
	}
	if err := tg.Effects(); err != nil {
		t.Errorf("reported twice: %v", err)
	}
	// A value holding the sentinel, written as data by the driver, is
	// not a second command.
	whole := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"lan1": {Description: strp("x # " + hostile.Sentinel)}}}
	if err := drv.ApplyRouter(ctxT(t), whole, snapshot(t, drv).Router); err != nil {
		t.Fatal(err)
	}
	if err := tg.Effects(); err != nil {
		t.Errorf("the value itself was taken for a second command: %v", err)
	}
	// A real second command through the driver: RestoreRouter does not
	// validate (its originals are what the router printed, one line
	// each), so a LF handed to it splits the script's line (the console
	// transport refuses a CR, not a LF, which is its line separator),
	// and the console takes what follows it as a command of its own.
	broken := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"lan1": {Description: strp("x\nconsole prompt " + hostile.Sentinel)}}}
	_, _ = drv.RestoreRouter(ctxT(t), broken, snapshot(t, drv).Router)
	if err := tg.Effects(); err == nil || !strings.Contains(err.Error(), "typed") {
		t.Errorf("a line typed after a LF in a value is not reported: %v", err)
	}
	if strings.Contains(body(sim), hostile.Sentinel) {
		t.Errorf("what the second command configured is left:\n%s", body(sim))
	}
	if err := tg.Effects(); err != nil {
		t.Errorf("reported twice: %v", err)
	}
}
