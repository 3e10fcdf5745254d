package hostenv

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// The expectations below were read off the fixtures by hand (what tc
// and ethtool printed here: testdata/README.md), not produced by the
// parsers.

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseQdiscs(t *testing.T) {
	for _, c := range []struct {
		file string
		want []bench.Qdisc
	}{
		{"tc_tbf_after.txt", []bench.Qdisc{{Kind: "tbf", Handle: "8125:", Parent: "root", Params: "rate 100Mbit burst 256Kb lat 5ms",
			SentBytes: 25366287, SentPackets: 17491, Dropped: 36, Overlimits: 2490}}},
		{"tc_tbf_pfifo_before.txt", []bench.Qdisc{
			{Kind: "tbf", Handle: "1:", Parent: "root", Params: "rate 50Mbit burst 64Kb lat 10ms", SentBytes: 12830906, SentPackets: 8501, Dropped: 1886, Overlimits: 4164},
			{Kind: "pfifo", Handle: "10:", Parent: "1:1", Params: "limit 1000p"},
		}},
		{"tc_tbf_pfifo_after.txt", []bench.Qdisc{
			{Kind: "tbf", Handle: "1:", Parent: "root", Params: "rate 50Mbit burst 64Kb lat 10ms", SentBytes: 25998544, SentPackets: 17226, Dropped: 1886, Overlimits: 11241},
			{Kind: "pfifo", Handle: "10:", Parent: "1:1", Params: "limit 1000p", SentBytes: 13167638, SentPackets: 8725},
		}},
		{"tc_lo.txt", []bench.Qdisc{{Kind: "noqueue", Handle: "0:", Parent: "root"}}},
		{"tc_eth0_root.txt", []bench.Qdisc{{Kind: "pfifo_fast", Handle: "0:", Parent: "root", Params: "bands 3 priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1",
			SentBytes: 1644517, SentPackets: 15792}}},
	} {
		got, err := ParseQdiscs(fixture(t, c.file))
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.file, got, c.want)
		}
	}
}

func TestParseQdiscsRefusesWhatIsNoListing(t *testing.T) {
	for _, out := range []string{"", "Cannot find device \"eth9\"\n", "sh: 1: tc: not found\n"} {
		if q, err := ParseQdiscs(out); err == nil {
			t.Errorf("%q: no error, %+v", out, q)
		}
	}
	// A backlog tc abbreviates, as print_size does above 1 KiB.
	q, err := ParseQdiscs("qdisc tbf 1: root refcnt 2 rate 1Gbit burst 256Kb lat 5ms \n Sent 1 bytes 1 pkt (dropped 2, overlimits 3 requeues 4) \n backlog 12Kb 9p requeues 4\n")
	if err != nil || len(q) != 1 || q[0].BacklogBytes != 12<<10 || q[0].BacklogPackets != 9 || q[0].Requeues != 4 {
		t.Errorf("backlog: %+v, %v", q, err)
	}
}

func TestParseOffloads(t *testing.T) {
	got, err := ParseOffloads(fixture(t, "ethtool_k_veth.txt"))
	// The lab's shaping turned tso, gso and gro off; lro is "off
	// [fixed]"; the checksums stay on.
	want := map[string]bool{"tso": false, "gso": false, "gro": false, "lro": false, "rx": true, "tx": true}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	if _, err := ParseOffloads("Cannot get device feature names: No such device\n"); err == nil || !strings.Contains(err.Error(), "No such device") {
		t.Errorf("error %v", err)
	}
}

func TestParseLinkSettings(t *testing.T) {
	for _, c := range []struct{ file, speed, duplex string }{
		{"ethtool_veth.txt", "10000Mb/s", "Full"},
		{"ethtool_eth0.txt", "Unknown!", "Unknown! (255)"},
		{"ethtool_lo.txt", "", ""},
	} {
		s, d := ParseLinkSettings(fixture(t, c.file))
		if s != c.speed || d != c.duplex {
			t.Errorf("%s: %q %q, want %q %q", c.file, s, d, c.speed, c.duplex)
		}
	}
}

func TestParseDriver(t *testing.T) {
	for _, c := range []struct {
		file string
		want Driver
	}{
		{"ethtool_i_veth.txt", Driver{Driver: "veth", DriverVersion: "1.0"}},
		{"ethtool_i_eth0.txt", Driver{Driver: "virtio_net", DriverVersion: "1.0.0"}},
	} {
		got, err := ParseDriver(fixture(t, c.file))
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v", c.file, got, err)
		}
	}
	if _, err := ParseDriver(fixture(t, "ethtool_i_lo.txt")); err == nil || !strings.Contains(err.Error(), "Operation not supported") {
		t.Errorf("lo: %v", err)
	}
}

func TestParseCPUModel(t *testing.T) {
	if got := ParseCPUModel(fixture(t, "cpuinfo_models.txt")); got != "AMD EPYC" {
		t.Errorf("got %q", got)
	}
	if got := ParseCPUModel("processor\t: 0\nBogoMIPS\t: 50.00\n"); got != "" {
		t.Errorf("ARM-style cpuinfo: %q", got)
	}
}

// The whole script's output from a namespace: the routed target, the
// host's own address (routed to lo, so the interface holding it) and the
// on-link one share eth1, which is read once; the unroutable name is
// named in Missing, as is default_qdisc, which a network namespace lacks.
func TestParseScriptOutput(t *testing.T) {
	r := Parse(fixture(t, "script_netns.txt"))
	want := Reading{
		OS: "Linux", CPUModel: "AMD EPYC", CPUCount: 2, Ended: true,
		Sysctls: bench.HostSysctls{
			CongestionControl: "bbr", RmemMax: 4194304, WmemMax: 4194304,
			TCPRmem: [3]int64{4096, 131072, 33554432}, TCPWmem: [3]int64{4096, 16384, 4194304},
		},
		Interfaces: []Interface{{
			Name:     "eth1",
			Targets:  []string{"198.18.251.10", "198.18.250.10", "198.18.250.1"},
			Link:     bench.LinkInfo{Speed: "10000Mb/s", Duplex: "Full", Driver: "veth", DriverVersion: "1.0"},
			Offloads: map[string]bool{"tso": false, "gso": false, "gro": false, "lro": false, "rx": true, "tx": true},
			Qdiscs: []bench.Qdisc{{Kind: "tbf", Handle: "8125:", Parent: "root", Params: "rate 100Mbit burst 256Kb lat 5ms",
				SentBytes: 25697021, SentPackets: 21018, Dropped: 36, Overlimits: 2490}},
		}},
		Missing: []string{
			"net.core.default_qdisc: cat: /proc/sys/net/core/default_qdisc: No such file or directory",
			`no interface routes to nosuch.invalid: Error: any valid prefix is expected rather than "nosuch.invalid".`,
		},
	}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("got\n%+v\nwant\n%+v", r, want)
	}
}

func TestParseWithoutTools(t *testing.T) {
	out := "@@ os Linux\n@@ nproc\n4\n@@ cpuinfo\n@@ missing tc\n@@ missing ethtool\n" +
		"@@ route 198.18.2.10\n198.18.2.10 via 198.18.1.1 dev eth1 src 198.18.1.10 uid 0 \\    cache \n@@ dev 198.18.2.10 eth1\n@@ end\n"
	r := Parse(out)
	if len(r.Interfaces) != 1 || r.Interfaces[0].Name != "eth1" || r.Interfaces[0].Qdiscs != nil || r.Interfaces[0].Offloads != nil {
		t.Errorf("interfaces %+v", r.Interfaces)
	}
	for _, want := range []string{"tc not installed", "ethtool not installed", "CPU model: /proc/cpuinfo has no model name"} {
		if !strings.Contains(strings.Join(r.Missing, "\n"), want) {
			t.Errorf("missing %q in %q", want, r.Missing)
		}
	}
	if r := Parse("@@ os Darwin\n"); r.OS != "Darwin" || r.Ended || len(r.Missing) != 0 {
		t.Errorf("not Linux: %+v", r)
	}
}
