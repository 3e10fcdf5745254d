package linuxsim

import (
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func pppoeClient() device.PPPoEConfig {
	return device.PPPoEConfig{Name: "wan0", Role: device.RoleClient, Interface: "eth1", MTU: ptr(1454), MRU: ptr(1454),
		MSSClamp: &device.MSSClamp{Value: 1414}, User: "ppp1", Password: `cl1ent\pw #1 'x'`, DefaultRoute: true, UsePeerDNS: true}
}

func pppoeServer() device.PPPoEConfig {
	return device.PPPoEConfig{Name: "srv0", Role: device.RoleServer, Interface: "eth2", ServiceName: "lab", MTU: ptr(1454), MRU: ptr(1454),
		LocalAddress: "198.18.50.1", RemotePool: "198.18.50.10-198.18.50.254",
		Users: []device.PPPUser{{Name: "ppp1", Password: `srv\\pw 'y' #2`}}}
}

// Like the test machine, the default sim has no PPP: the plan-time check
// refuses a session, and pppd itself fails with its own message.
func TestPPPoEWithoutKernelSupport(t *testing.T) {
	s := newSim(t, Options{})
	snap := s.snapshot(t)
	if err := s.drv.CheckPPPoE(pppoeClient(), snap); err == nil || !strings.Contains(err.Error(), "/dev/ppp") {
		t.Errorf("CheckPPPoE without /dev/ppp: %v", err)
	}
	if _, stderr, code := exec(s.r, "pppd file /dev/null", ""); code != 4 || !strings.Contains(stderr, "lacks kernel support for PPP") {
		t.Errorf("pppd: %d %q", code, stderr)
	}
}

// With PPP (Options.PPP), a client and a server: both read back as
// configured (without passwords); the client's session is up once its
// server answers (SetPeerUp), the server's status is its running daemon;
// killed by hand, the server reads as not established; the delete
// removes every file and the chap-secrets block.
func TestPPPoESessions(t *testing.T) {
	s := newSim(t, Options{PPP: true})
	before := s.r.Config()
	snap := s.snapshot(t)
	for _, cfg := range []device.PPPoEConfig{pppoeClient(), pppoeServer()} {
		must(t, s.drv.CheckPPPoE(cfg, snap))
		if err := s.drv.ApplyPPPoE(ctxT(t), cfg, nil); err != nil {
			t.Fatalf("ApplyPPPoE %s: %v", cfg.Name, err)
		}
	}
	snap = s.snapshot(t)
	cli, srv := pppoeClient(), pppoeServer()
	cli.Password = ""
	srv.Users = []device.PPPUser{{Name: "ppp1"}}
	if got := snap.PPPoE["wan0"].PPPoEConfig; !reflect.DeepEqual(got, cli) {
		t.Errorf("client read back\n %+v\nwant\n %+v", got, cli)
	}
	if got := snap.PPPoE["srv0"].PPPoEConfig; !reflect.DeepEqual(got, srv) {
		t.Errorf("server read back\n %+v\nwant\n %+v", got, srv)
	}
	if snap.Status.PPPoE["wan0"].Established || !snap.Status.PPPoE["srv0"].Established {
		t.Errorf("status before the client's server answered: %+v", snap.Status.PPPoE)
	}
	must(t, s.r.SetPeerUp("wan0", true))
	if st := s.snapshot(t).Status.PPPoE["wan0"]; !st.Established || st.Interface != "wan0" || st.LocalAddress == "" {
		t.Errorf("client status with its server up: %+v", st)
	}
	if n := s.r.KillProcesses("pppoe-server .*srv0"); n != 1 {
		t.Fatalf("killed %d", n)
	}
	if s.snapshot(t).Status.PPPoE["srv0"].Established {
		t.Error("killed server still established")
	}
	for _, name := range []string{"wan0", "srv0"} {
		must(t, s.drv.DeletePPPoE(ctxT(t), s.snapshot(t).PPPoE[name]))
	}
	if snap := s.snapshot(t); len(snap.PPPoE) != 0 {
		t.Errorf("sessions after delete: %v", snap.PPPoE)
	}
	if secrets, _ := s.r.ReadFile("/etc/ppp/chap-secrets"); strings.Contains(secrets, "routerlab") {
		t.Errorf("chap-secrets after delete:\n%s", secrets)
	}
	if files := append(s.r.Files("/etc/routerlab"), s.r.Files("/run/routerlab")...); len(files) != 0 {
		t.Errorf("files left: %v", files)
	}
	// The driver's PPPoE delete removes its chain but leaves routerlab's
	// table, even when empty (the tunnels' and firewall's deletes drop
	// it): reported to the driver; the rest must be as before.
	if after := strings.Replace(s.r.Config(), "nft table inet routerlab\n", "", 1); after != before {
		t.Errorf("router not put back:\n%s\nwant\n%s", after, before)
	}
	if procs := s.r.Processes(); len(procs) != 0 {
		t.Errorf("processes left: %v", procs)
	}
}
