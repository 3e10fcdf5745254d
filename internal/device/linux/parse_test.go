package linux

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var update = flag.Bool("update", false, "rewrite golden files from the current output")

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// snapshot_router.txt was captured with snapshotScript in a network
// namespace holding two veths, an IPv6 address, an alias, four routes with
// routerlab's tag, one without, forwarding on and conntrack off.
func TestParseSnapshotRouter(t *testing.T) {
	snap, err := ParseSnapshot(readFixture(t, "snapshot_router.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f := snap.Facts
	if f.Firmware != "6.18.44-fc-v657" || f.CPUCount != 2 || f.Hostname != "vm" || f.Platform != device.Linux {
		t.Errorf("facts = %+v", f)
	}
	if f.Model != "Debian GNU/Linux 12 (bookworm) (x86_64)" || f.Serial != "3d1219c7c4c5404aaa1f6d2a48adfda4" {
		t.Errorf("model/serial = %q / %q", f.Model, f.Serial)
	}
	st := snap.Router
	eth1 := st.Interfaces["eth1"]
	if !reflect.DeepEqual(eth1.Addresses, []string{"198.18.1.1/24", "2001:db8:1::1/64"}) {
		t.Errorf("eth1 addresses = %v (link-local must be left out)", eth1.Addresses)
	}
	if eth1.Description != `to host "a"` || eth1.MTU != 1500 {
		t.Errorf("eth1 = %+v", eth1)
	}
	if st.Interfaces["eth2"].MTU != 1400 || st.Interfaces["lo"].MTU != 65536 {
		t.Errorf("mtu eth2=%d lo=%d", st.Interfaces["eth2"].MTU, st.Interfaces["lo"].MTU)
	}
	if !st.IPv4Forwarding || st.IPv6Forwarding || st.ConnectionTracking {
		t.Errorf("switches: fwd4=%v fwd6=%v conntrack=%v", st.IPv4Forwarding, st.IPv6Forwarding, st.ConnectionTracking)
	}
	wantRoutes := []string{"0.0.0.0/0", "198.18.3.0/24", "198.18.4.0/24", "2001:db8:9::/48"}
	if got := device.SortedKeys(st.Routes); !reflect.DeepEqual(got, wantRoutes) {
		t.Errorf("owned routes = %v, want %v (198.18.5.0/24 is not ours)", got, wantRoutes)
	}
	r3 := st.Routes["198.18.3.0/24"]
	if r3.Gateway != "198.18.2.10" || r3.Interface != "eth2" || r3.Metric == nil || *r3.Metric != 5 {
		t.Errorf("route 198.18.3.0/24 = %+v", r3)
	}
	if r4 := st.Routes["198.18.4.0/24"]; r4.Gateway != "" || r4.Interface != "eth1" || r4.Metric != nil {
		t.Errorf("route 198.18.4.0/24 = %+v", r4)
	}
	golden(t, "snapshot_router.golden", snap.Text)
	if len(snap.SHA256) != 64 {
		t.Errorf("sha256 = %q", snap.SHA256)
	}
}

func TestParseSnapshotMissingSection(t *testing.T) {
	_, err := ParseSnapshot("##facts\n6.1\nx86_64\n2\n")
	if err == nil || !contains(err.Error(), `section "hostname" missing`) {
		t.Fatalf("err = %v", err)
	}
}

// The digest must not depend on the order the kernel lists things in.
func TestSnapshotDigestStable(t *testing.T) {
	a, err := ParseSnapshot(readFixture(t, "snapshot_router.txt"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ParseSnapshot(readFixture(t, "snapshot_router.txt"))
	if a.SHA256 != b.SHA256 {
		t.Fatal("same input, different digest")
	}
	changed, _ := ParseSnapshot(replaceOnce(readFixture(t, "snapshot_router.txt"), `"mtu":1400`, `"mtu":1450`))
	if changed.SHA256 == a.SHA256 {
		t.Fatal("an MTU change must change the digest")
	}
}

func TestParseProcStat(t *testing.T) {
	s, err := ParseProcStat("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 60 0 20 400 20 0 0 0 0 0\ncpu1 40 0 30 400 30 0 0 0 0 0\nintr 1\n")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Busy, []uint64{150, 80, 70}) || !reflect.DeepEqual(s.Total, []uint64{1000, 500, 500}) {
		t.Fatalf("busy=%v total=%v", s.Busy, s.Total)
	}
	captured, err := ParseProcStat(readFixture(t, "proc_stat.txt"))
	if err != nil || len(captured.Total) != 3 || captured.Total[0] < captured.Total[1] {
		t.Fatalf("captured /proc/stat: %+v %v", captured, err)
	}
	if _, err := ParseProcStat("garbage"); err == nil {
		t.Fatal("want error for output without cpu lines")
	}
}

// BenchmarkParseSnapshot measures the cost of one device read's parsing,
// paid once per device per Terraform operation.
func BenchmarkParseSnapshot(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "snapshot_router.txt"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := ParseSnapshot(string(raw)); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzParseSnapshot: whatever a device prints, parsing returns an error or
// a snapshot, never a panic.
func FuzzParseSnapshot(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("testdata", "snapshot_router.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(raw))
	f.Add("##facts\n6.1\nx86_64\nnot-a-number\n")
	f.Add("##facts\n##hostname\n##link\n[]\n##addr\n[]\n##route4\n[]\n##route6\n[]\n##sysctl\n1 0\n##nft\n{}\n")
	f.Fuzz(func(t *testing.T, out string) {
		snap, err := ParseSnapshot(out)
		if err == nil && (snap == nil || len(snap.SHA256) != 64) {
			t.Fatalf("no error but snapshot %+v", snap)
		}
	})
}

// A link going down is operational status: it shows in Status but changes
// neither the normalised text nor the digest.
func TestSnapshotStatusIsNotConfiguration(t *testing.T) {
	raw, err := os.ReadFile("testdata/snapshot_router.txt")
	if err != nil {
		t.Fatal(err)
	}
	up, err := ParseSnapshot(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	if up.Status.Links["eth1"] != "UP" || up.Status.Links["lo"] != "UNKNOWN" {
		t.Fatalf("links = %v", up.Status.Links)
	}
	down, err := ParseSnapshot(strings.ReplaceAll(string(raw), `"ifname":"eth1","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":1500,"qdisc":"noqueue","operstate":"UP"`,
		`"ifname":"eth1","flags":["BROADCAST","MULTICAST","UP"],"mtu":1500,"qdisc":"noqueue","operstate":"DOWN"`))
	if err != nil {
		t.Fatal(err)
	}
	if down.Status.Links["eth1"] != "DOWN" {
		t.Fatalf("eth1 = %q: the replacement did not apply", down.Status.Links["eth1"])
	}
	if down.SHA256 != up.SHA256 || down.Text != up.Text {
		t.Fatal("a link going down changed the configuration digest")
	}
}
