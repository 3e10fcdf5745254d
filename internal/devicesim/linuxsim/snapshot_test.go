package linuxsim

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// The snapshot the sim prints goes through the real parser and comes back
// as the state the router holds.
func TestSnapshotRoundTripThroughParser(t *testing.T) {
	script := snapshotScript(t)
	r := New(Options{})
	must(t, r.SetAlias("eth1", `to host "a" \ 'b'`))
	must(t, r.SetMTU("eth2", 9000))
	must(t, r.AddAddress("eth1", "2001:db8:1::1/64"))
	must(t, r.AddRoute(Route{Dst: "0.0.0.0/0", Gateway: "198.18.1.10", Protocol: "244"}))
	must(t, r.AddRoute(Route{Dst: "198.18.3.0/24", Gateway: "198.18.2.10", Metric: 5, Protocol: "244"}))
	must(t, r.AddRoute(Route{Dst: "198.18.4.0/24", Dev: "eth1", Protocol: "244"}))
	must(t, r.AddRoute(Route{Dst: "2001:db8:9::/48", Gateway: "2001:db8:1::10", Protocol: "244"}))
	must(t, r.SetSysctl(SysctlIPv4Forwarding, "1"))
	must(t, r.SetConntrack(false))

	out, stderr, code := exec(r, script, "")
	if code != 0 || stderr != "" {
		t.Fatalf("snapshot exited %d: %s", code, stderr)
	}
	snap, err := linux.ParseSnapshot(out)
	if err != nil {
		t.Fatalf("ParseSnapshot: %v\n%s", err, out)
	}
	f := snap.Facts
	if f.Hostname != "sim-r" || f.Firmware != DefaultKernel || f.CPUCount != 2 || f.Serial != Serial ||
		f.Model != Model+", "+OSName+" ("+Arch+")" {
		t.Errorf("facts = %+v", f)
	}
	st := snap.Router
	if st.Hostname != "sim-r" || !st.IPv4Forwarding || st.IPv6Forwarding || st.ConnectionTracking {
		t.Errorf("hostname %q fwd4 %v fwd6 %v conntrack %v", st.Hostname, st.IPv4Forwarding, st.IPv6Forwarding, st.ConnectionTracking)
	}
	wantIfcs := map[string]device.InterfaceState{
		"lo":   {Name: "lo", MTU: 65536, Addresses: []string{"127.0.0.1/8", "::1/128"}},
		"eth0": {Name: "eth0", MTU: 1500, Addresses: []string{"198.18.0.1/24"}},
		// The kernel's fe80:: address is left out by the parser.
		"eth1": {Name: "eth1", MTU: 1500, Description: `to host "a" \ 'b'`, Addresses: []string{"198.18.1.1/24", "2001:db8:1::1/64"}},
		"eth2": {Name: "eth2", MTU: 9000, Addresses: []string{"198.18.2.1/24"}},
	}
	if !reflect.DeepEqual(st.Interfaces, wantIfcs) {
		t.Errorf("interfaces:\n got %+v\nwant %+v", st.Interfaces, wantIfcs)
	}
	wantRoutes := map[string]device.Route{
		"0.0.0.0/0":       {Destination: "0.0.0.0/0", Gateway: "198.18.1.10", Interface: "eth1"},
		"198.18.3.0/24":   {Destination: "198.18.3.0/24", Gateway: "198.18.2.10", Interface: "eth2", Metric: ptr(5)},
		"198.18.4.0/24":   {Destination: "198.18.4.0/24", Interface: "eth1"},
		"2001:db8:9::/48": {Destination: "2001:db8:9::/48", Gateway: "2001:db8:1::10", Interface: "eth1", Metric: ptr(1024)},
	}
	if !reflect.DeepEqual(st.Routes, wantRoutes) {
		t.Errorf("owned routes:\n got %+v\nwant %+v", st.Routes, wantRoutes)
	}
	// The static route is not routerlab's, but it is configuration: the
	// normalised text (and so the digest) shows it.
	if !strings.Contains(snap.Text, "route 198.19.0.0/16 via 198.18.0.254 dev eth0 proto static\n") {
		t.Errorf("normalised text lacks the static route:\n%s", snap.Text)
	}
}

// Built like the namespace snapshot_router.txt was captured in, the sim
// prints the same bytes for the route, sysctl and nft sections and for lo,
// the same keys in the same order for the other interfaces, and parses to
// the same state and digest.
func TestSnapshotMatchesCapturedRouter(t *testing.T) {
	captured, err := os.ReadFile(filepath.Join("..", "..", "device", "linux", "testdata", "snapshot_router.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r := New(Options{
		Hostname: "vm",
		Interfaces: []Interface{
			{Name: "lo"},
			{Name: "eth2", MTU: 1400, MAC: "da:7b:de:64:53:06", Addresses: []string{"fe80::d87b:deff:fe64:5306/64", "198.18.2.1/24"}},
			{Name: "eth1", MAC: "e2:e9:78:29:8e:02", Alias: `to host "a"`, Addresses: []string{"fe80::e0e9:78ff:fe29:8e02/64", "198.18.1.1/24", "2001:db8:1::1/64"}},
		},
		Routes: []Route{
			{Dst: "0.0.0.0/0", Gateway: "198.18.1.10", Protocol: "244"},
			{Dst: "198.18.3.0/24", Gateway: "198.18.2.10", Metric: 5, Protocol: "244"},
			{Dst: "198.18.4.0/24", Dev: "eth1", Protocol: "244"},
			{Dst: "198.18.5.0/24", Gateway: "198.18.1.10"},
			{Dst: "2001:db8:9::/48", Gateway: "2001:db8:1::10", Protocol: "244"},
		},
	})
	if r.State().Interfaces[0].Addresses[0] != "127.0.0.1/8" {
		t.Fatalf("lo without addresses in Options must get the defaults: %+v", r.State().Interfaces[0])
	}
	must(t, r.SetSysctl(SysctlIPv4Forwarding, "1"))
	must(t, r.SetConntrack(false))
	out, _, code := exec(r, snapshotScript(t), "")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	want, got := sectionsOf(string(captured)), sectionsOf(out)
	for _, name := range []string{"hostname", "route4", "route6", "sysctl", "nft"} {
		if got[name] != want[name] {
			t.Errorf("section %s:\n got %s\nwant %s", name, got[name], want[name])
		}
	}
	for _, name := range []string{"link", "addr"} {
		var g, w []json.RawMessage
		must(t, json.Unmarshal([]byte(got[name]), &g))
		must(t, json.Unmarshal([]byte(want[name]), &w))
		if len(g) != 3 || len(w) != 3 {
			t.Fatalf("%s: %d entries, captured %d", name, len(g), len(w))
		}
		if string(g[0]) != string(w[0]) {
			t.Errorf("%s lo:\n got %s\nwant %s", name, g[0], w[0])
		}
		// The captured links are veths ("link": their peer); ours are not.
		wantKeys := slices.DeleteFunc(keysOf(t, w[2]), func(k string) bool { return k == "link" })
		if gk := keysOf(t, g[2]); !slices.Equal(gk, wantKeys) {
			t.Errorf("%s eth1 keys:\n got %v\nwant %v", name, gk, wantKeys)
		}
	}
	wantSnap, err := linux.ParseSnapshot(string(captured))
	must(t, err)
	gotSnap, err := linux.ParseSnapshot(out)
	must(t, err)
	// The capture predates the offload, tunnel and PPPoE sections: the
	// router's part of the normalised text must be the same bytes.
	if !reflect.DeepEqual(gotSnap.Router, wantSnap.Router) || routerText(gotSnap.Text) != routerText(wantSnap.Text) {
		t.Errorf("parsed state differs:\n got %+v\n%s\nwant %+v\n%s", gotSnap.Router, gotSnap.Text, wantSnap.Router, wantSnap.Text)
	}
}

// routerText is the normalised text up to the router's last line.
func routerText(text string) string {
	i := strings.Index(text, "connection-tracking ")
	if i < 0 {
		return text
	}
	end := strings.IndexByte(text[i:], '\n')
	return text[:i+end+1]
}

func TestSnapshotWithoutNftAndCounted(t *testing.T) {
	script := snapshotScript(t)
	r := New(Options{NoNft: true, CPUs: 4, Kernel: "6.12.0-sim"})
	for range 3 {
		out, stderr, code := exec(r, script, "")
		if code != 0 || stderr != "" {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if sec := sectionsOf(out); sec["nft"] != "{}" {
			t.Fatalf("nft section without nftables = %q, want {}", sec["nft"])
		}
		snap, err := linux.ParseSnapshot(out)
		must(t, err)
		if !snap.Router.ConnectionTracking || snap.Facts.CPUCount != 4 || snap.Facts.Firmware != "6.12.0-sim" {
			t.Fatalf("conntrack %v facts %+v", snap.Router.ConnectionTracking, snap.Facts)
		}
	}
	exec(r, "uname -r", "")
	if r.Snapshots() != 3 || r.Scripts() != 0 {
		t.Errorf("Snapshots = %d, Scripts = %d; want 3, 0", r.Snapshots(), r.Scripts())
	}
}

// A snapshot script with a section the sim does not know fails loudly
// instead of printing something the parser might accept.
func TestSnapshotUnknownCommandFails(t *testing.T) {
	script := strings.Replace(snapshotScript(t), "hostname\n", "hostnamectl --static\n", 1)
	_, stderr, _ := exec(New(Options{}), script, "")
	if !strings.Contains(stderr, "hostnamectl: not found") {
		t.Fatalf("stderr = %q", stderr)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// sectionsOf splits snapshot output at its "##name" lines (trimmed), as the
// driver's parser does.
func sectionsOf(out string) map[string]string {
	res := map[string]string{}
	var name string
	var b strings.Builder
	for _, line := range strings.Split(out+"\n##end", "\n") {
		if strings.HasPrefix(line, "##") {
			if name != "" {
				res[name] = strings.TrimSpace(b.String())
			}
			name = line[2:]
			b.Reset()
			continue
		}
		b.WriteString(line + "\n")
	}
	return res
}

// keysOf lists a JSON object's keys in the order written.
func keysOf(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var keys []string
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		must(t, err)
		keys = append(keys, k.(string))
		var skip json.RawMessage
		must(t, dec.Decode(&skip))
	}
	return keys
}
