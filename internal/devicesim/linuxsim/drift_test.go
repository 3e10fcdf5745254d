package linuxsim

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// Changes made by hand show up in the next snapshot, and the driver's
// repair script converges again.
func TestDriftShowsInNextSnapshot(t *testing.T) {
	s := newSim(t, Options{})
	desired := desiredChanges()
	must(t, s.drv.ApplyRouter(ctxT(t), desired, s.snapshot(t).Router))

	must(t, s.r.SetHostname("renamed"))
	must(t, s.r.SetMTU("eth1", 1400))
	must(t, s.r.SetAlias("eth1", "changed by hand"))
	must(t, s.r.DelAddress("eth1", "198.18.7.1/24"))
	must(t, s.r.AddAddress("eth2", "198.18.9.1/24"))
	must(t, s.r.DeleteRoute("198.18.6.0/24"))
	must(t, s.r.AddRoute(Route{Dst: "198.18.12.0/24", Gateway: "198.18.2.12", Protocol: "244"}))
	must(t, s.r.SetSysctl(SysctlIPv6Forwarding, "0"))
	must(t, s.r.SetConntrack(true))

	st := s.snapshot(t).Router
	eth1, eth2 := st.Interfaces["eth1"], st.Interfaces["eth2"]
	switch {
	case st.Hostname != "renamed":
		t.Errorf("hostname %q", st.Hostname)
	case eth1.MTU != 1400 || eth1.Description != "changed by hand":
		t.Errorf("eth1 %+v", eth1)
	case !reflect.DeepEqual(eth1.Addresses, []string{"198.18.1.1/24", "2001:db8:1::1/64"}):
		t.Errorf("eth1 addresses %v", eth1.Addresses)
	case !reflect.DeepEqual(eth2.Addresses, []string{"198.18.2.1/24", "198.18.3.1/24", "198.18.9.1/24"}):
		t.Errorf("eth2 addresses %v", eth2.Addresses)
	case !st.IPv4Forwarding || st.IPv6Forwarding || !st.ConnectionTracking:
		t.Errorf("fwd4 %v fwd6 %v conntrack %v", st.IPv4Forwarding, st.IPv6Forwarding, st.ConnectionTracking)
	}
	if _, ok := st.Routes["198.18.6.0/24"]; ok {
		t.Error("deleted route still read back")
	}
	if r, ok := st.Routes["198.18.12.0/24"]; !ok || r.Interface != "eth2" {
		t.Errorf("route added by hand: %+v %v", r, ok)
	}

	repair, err := linux.RenderRouter(desired, st)
	must(t, err)
	for _, want := range []string{"sysctl -qw kernel.hostname=lab-r1", "ip link set dev eth1 mtu 9000", "ip addr del 198.18.9.1/24 dev eth2",
		"ip -4 route add 198.18.6.0/24 via 198.18.1.10 metric 5 proto 244", "sysctl -qw net.ipv6.conf.all.forwarding=1", "nft -f - <<'ROUTERLAB_EOF'"} {
		if !strings.Contains(repair, want+"\n") {
			t.Errorf("repair script lacks %q:\n%s", want, repair)
		}
	}
	must(t, s.drv.ApplyRouter(ctxT(t), desired, st))
	if again, _ := linux.RenderRouter(desired, s.snapshot(t).Router); again != "" {
		t.Errorf("not converged after repair:\n%s", again)
	}
	// A route routerlab does not manage is left alone by the repair.
	if _, ok := s.snapshot(t).Router.Routes["198.18.12.0/24"]; !ok {
		t.Error("unmanaged owned route removed")
	}
}

func TestDriftSettersFailLikeTheTools(t *testing.T) {
	r := New(Options{})
	before := r.Config()
	cases := []struct {
		err  error
		want string
	}{
		{r.SetMTU("eth9", 1500), `Cannot find device "eth9"`},
		{r.SetMTU("eth1", 10), "Error: mtu less than device minimum."},
		{r.SetAlias("eth9", "x"), `Cannot find device "eth9"`},
		{r.AddAddress("eth1", "198.18.1.1/24"), "RTNETLINK answers: File exists"},
		{r.AddAddress("eth1", "not-an-address"), "not an address with prefix length"},
		{r.DelAddress("eth1", "198.18.1.1/25"), "Error: ipv4: Address not found."},
		{r.DeleteRoute("198.18.77.0/24"), "RTNETLINK answers: No such process"},
		{r.AddRoute(Route{Dst: "198.18.77.0/24", Gateway: "198.19.0.1"}), "Error: Nexthop has invalid gateway."},
		{r.AddRoute(Route{Dst: "198.19.0.0/16", Dev: "eth1"}), "RTNETLINK answers: File exists"},
		{r.SetSysctl("net.ipv4.ip_forward", "2"), `sysctl: setting key "net.ipv4.ip_forward": Invalid argument`},
		{r.SetSysctl("kernel.nope", "1"), "sysctl: cannot stat /proc/sys/kernel/nope"},
		{r.SetHostname(""), "hostname: the specified hostname is invalid"},
		{New(Options{NoNft: true}).SetConntrack(false), "nft: not found"},
	}
	for i, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("case %d: err = %v, want %q", i, c.err, c.want)
		}
	}
	if r.Config() != before {
		t.Errorf("failed setters changed the router:\n%s", r.Config())
	}
}

// The default router is what New documents.
func TestDefaultRouter(t *testing.T) {
	st := New(Options{}).State()
	var names []string
	for _, ifc := range st.Interfaces {
		names = append(names, fmt.Sprintf("%s %d %v", ifc.Name, ifc.MTU, ifc.Addresses))
	}
	want := []string{
		"lo 65536 [127.0.0.1/8 ::1/128]",
		"eth0 1500 [198.18.0.1/24]",
		"eth1 1500 [fe80::5054:ff:fe00:3/64 198.18.1.1/24]",
		"eth2 1500 [198.18.2.1/24]",
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("interfaces %q", names)
	}
	if eth1, _ := st.Interface("eth1"); eth1.MAC != "52:54:00:00:00:03" {
		t.Errorf("eth1 MAC %s: its fe80:: address is that MAC's EUI-64", eth1.MAC)
	}
	wantRoutes := []Route{{Dst: "198.19.0.0/16", Gateway: "198.18.0.254", Dev: "eth0", Protocol: "static"}}
	if st.Hostname != "sim-r" || !reflect.DeepEqual(st.Routes, wantRoutes) || st.Nft != nil ||
		!reflect.DeepEqual(st.Sysctl, map[string]string{SysctlIPv4Forwarding: "0", SysctlIPv6Forwarding: "0"}) {
		t.Errorf("state %+v", st)
	}
	wantConfig := `hostname sim-r
interface eth0 mtu 1500
interface eth0 address 198.18.0.1/24
interface eth1 mtu 1500
interface eth1 address 198.18.1.1/24
interface eth1 address fe80::5054:ff:fe00:3/64
interface eth2 mtu 1500
interface eth2 address 198.18.2.1/24
interface lo mtu 65536
interface lo address 127.0.0.1/8
interface lo address ::1/128
route 198.19.0.0/16 via 198.18.0.254 dev eth0 metric 0 proto static
sysctl net.ipv4.ip_forward = 0
sysctl net.ipv6.conf.all.forwarding = 0
`
	if got := New(Options{}).Config(); got != wantConfig {
		t.Errorf("Config:\n%s", got)
	}
	// lo is added when missing, once, with its addresses.
	custom := New(Options{Interfaces: []Interface{{Name: "wan0", MTU: 1492}, {Name: "lo", MTU: 16384}}}).State()
	if len(custom.Interfaces) != 2 || custom.Interfaces[1].MTU != 16384 || len(custom.Interfaces[1].Addresses) != 2 || custom.Routes != nil {
		t.Errorf("custom interfaces: %+v", custom)
	}
	if lo, _ := New(Options{Interfaces: []Interface{}}).State().Interface("lo"); lo.MTU != 65536 {
		t.Errorf("lo added to an empty interface list: %+v", lo)
	}
	// State is a copy.
	r := New(Options{})
	st = r.State()
	st.Interfaces[1].Addresses[0] = "x"
	st.Sysctl[SysctlIPv4Forwarding] = "1"
	if s2 := r.State(); s2.Interfaces[1].Addresses[0] != "198.18.0.1/24" || s2.Sysctl[SysctlIPv4Forwarding] != "0" {
		t.Error("State shares memory with the router")
	}
}

// Snapshots and applies from several SSH sessions at once never see half an
// apply: every snapshot parses and shows one of the two MTUs written.
func TestConcurrentSnapshotsAndApplies(t *testing.T) {
	s := newSim(t, Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 4 {
		wg.Go(func() {
			for j := range 5 {
				mtu := 1500 + 100*((i+j)%2)
				obs, err := s.drv.Snapshot(ctxT(t))
				if err == nil {
					err = s.drv.ApplyRouter(ctxT(t), device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{
						fmt.Sprintf("eth%d", i%3): {MTU: ptr(mtu), Description: ptr(fmt.Sprintf("writer %d", i))},
					}}, obs.Router)
				}
				if err != nil {
					errs <- err
					return
				}
				_ = s.r.SetAlias("eth0", "drift")
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, ifc := range s.snapshot(t).Router.Interfaces {
		if ifc.Name != "lo" && ifc.MTU != 1500 && ifc.MTU != 1600 {
			t.Errorf("%s mtu %d", ifc.Name, ifc.MTU)
		}
	}
	if s.r.Snapshots() < 20 {
		t.Errorf("snapshots %d, want at least 20", s.r.Snapshots())
	}
}

func TestAddDeleteInterface(t *testing.T) {
	r := New(Options{})
	if err := r.AddInterface(Interface{Name: "eth9", MTU: 1400, Addresses: []string{"198.18.9.1/24"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.AddRoute(Route{Dst: "198.18.90.0/24", Gateway: "198.18.9.254", Protocol: "244"}); err != nil {
		t.Fatal(err)
	}
	if ifc, ok := r.State().Interface("eth9"); !ok || ifc.MTU != 1400 {
		t.Fatalf("eth9 = %+v, %v", ifc, ok)
	}
	if err := r.AddInterface(Interface{Name: "eth9"}); err == nil {
		t.Fatal("duplicate interface accepted")
	}
	if err := r.DeleteInterface("eth9"); err != nil {
		t.Fatal(err)
	}
	st := r.State()
	if _, ok := st.Interface("eth9"); ok {
		t.Fatal("eth9 still there")
	}
	for _, rt := range st.Routes {
		if rt.Dst == "198.18.90.0/24" {
			t.Fatal("route through the deleted interface kept")
		}
	}
	if err := r.DeleteInterface("eth9"); err == nil || !strings.Contains(err.Error(), `Cannot find device "eth9"`) {
		t.Fatalf("second delete: %v", err)
	}
	// A new interface never reuses an index.
	if err := r.AddInterface(Interface{Name: "eth10"}); err != nil {
		t.Fatal(err)
	}
}

// hostname(1) refuses "lab_r1" as Debian's does; the kernel (sysctl
// kernel.hostname, what /etc/hostname at boot ends up as) takes it.
func TestHostnameKernelVersusTool(t *testing.T) {
	r := New(Options{})
	if _, stderr, code := exec(r, "hostname lab_r1", ""); code != 1 || !strings.Contains(stderr, "the specified hostname is invalid") {
		t.Fatalf("hostname lab_r1: %d %q", code, stderr)
	}
	if _, stderr, code := exec(r, "sysctl -qw kernel.hostname=lab_r1", ""); code != 0 {
		t.Fatalf("sysctl: %d %q", code, stderr)
	}
	if out, _, _ := exec(r, "hostname", ""); out != "lab_r1\n" {
		t.Fatalf("hostname now %q", out)
	}
	if out, _, _ := exec(r, "sysctl -n kernel.hostname", ""); out != "lab_r1\n" {
		t.Fatalf("sysctl -n: %q", out)
	}
}
