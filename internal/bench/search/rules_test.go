package search

import (
	"math"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

func wantErr(t *testing.T, what string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v, want no error", what, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: %v, want an error saying %q", what, err, want)
	}
}

func TestCheckFrameSizes(t *testing.T) {
	const a = "search.frame_sizes"
	for _, c := range []struct {
		frames []int
		mtu    int
		want   string
	}{
		{nil, 1500, ""},
		{[]int{64, 1518}, 1500, ""},
		{[]int{64, 9018}, 9000, ""},
		{[]int{63}, 1500, "search.frame_sizes 63: allowed are 64 (the Ethernet minimum) to 1518 (MTU 1500 + 14 MAC header + 4 FCS)"},
		{[]int{64, 1519}, 1500, "search.frame_sizes 1519: allowed are 64"},
		{[]int{1500}, 1400, "search.frame_sizes 1500: allowed are 64 (the Ethernet minimum) to 1418"},
		{nil, 1492, "search.frame_sizes (default, RFC 2544) 1518: allowed are 64 (the Ethernet minimum) to 1510"},
		{[]int{128, 128}, 1500, "lists 128 twice"},
	} {
		wantErr(t, "CheckFrameSizes", CheckFrameSizes(a, c.frames, c.mtu), c.want)
	}
}

func TestCheckLossPercent(t *testing.T) {
	for _, c := range []struct {
		loss float64
		want string
	}{
		{0, ""}, {0.5, ""}, {99.9, ""},
		{100, "search.loss_percent 100: allowed are 0 (zero loss, NDR) up to but not including 100"},
		{-0.1, "search.loss_percent -0.1: allowed"},
		{math.NaN(), "search.loss_percent NaN"},
	} {
		wantErr(t, "CheckLossPercent", CheckLossPercent("search.loss_percent", c.loss), c.want)
	}
}

func TestCheckProtocol(t *testing.T) {
	wantErr(t, "udp", CheckProtocol("protocol", bench.UDP), "")
	wantErr(t, "tcp", CheckProtocol("protocol", bench.TCP), `protocol "tcp": a throughput search needs "udp"`)
	wantErr(t, "empty", CheckProtocol("protocol", ""), `protocol "": a throughput search needs "udp"`)
}

func TestCheckTarget(t *testing.T) {
	const a, allow = "pair.target", "search.allow_public_targets"
	for _, ok := range []string{"10.1.2.3", "172.31.255.254", "192.168.0.1", "198.18.0.1", "198.19.255.254", "127.0.0.1",
		"::1", "fd00::2", "fc00::1", "2001:2::1", "fe80::1%eth0", "169.254.1.1", "::ffff:198.18.0.2"} {
		wantErr(t, ok, CheckTarget(a, ok, false, allow), "")
	}
	for _, bad := range []string{"8.8.8.8", "172.32.0.1", "198.20.0.1", "192.0.2.1", "100.64.0.1", "2001:db8::1", "2001:3::1", "2a00:1450::1"} {
		wantErr(t, bad, CheckTarget(a, bad, false, allow), "pair.target "+bad+" is outside the private and benchmarking ranges")
		wantErr(t, bad+" allowed", CheckTarget(a, bad, true, allow), "")
	}
	wantErr(t, "message", CheckTarget(a, "8.8.8.8", false, allow), "10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 198.18.0.0/15, 127.0.0.0/8, ::1/128, fc00::/7, 2001:2::/48, 169.254.0.0/16, fe80::/10; RFC 6815): set search.allow_public_targets = true")
	wantErr(t, "hostname", CheckTarget(a, "dut.example", false, allow), `pair.target "dut.example" is not an IP address`)
	wantErr(t, "hostname allowed", CheckTarget(a, "dut.example", true, allow), "")
}

func TestCheckReferences(t *testing.T) {
	const a = "search.reference"
	ok := []bench.Reference{
		{Frame: 64, KPPS: 1402.5, Source: "MikroTik RB750Gr3, fast path"},
		// 81.3 kpps × 1518 × 8 / 1000 = 987.3 Mbit/s
		{Frame: 1518, KPPS: 81.3, Mbps: 987.3, Source: "MikroTik RB750Gr3, fast path"},
		{Frame: 512, Mbps: 960, Source: "datasheet"},
	}
	wantErr(t, "valid", CheckReferences(a, ok, []int{64, 512, 1518}), "")
	wantErr(t, "default sizes", CheckReferences(a, ok, nil), "")
	for _, c := range []struct {
		refs []bench.Reference
		want string
	}{
		{[]bench.Reference{{Frame: 100, KPPS: 1, Source: "x"}}, "search.reference[0] frame_size 100: not among the searched frame sizes [64 512 1518]"},
		{[]bench.Reference{{Frame: 64, KPPS: 1, Source: "x"}, {Frame: 64, Mbps: 1, Source: "y"}}, "search.reference[1] frame_size 64: a second reference"},
		{[]bench.Reference{{Frame: 64, Source: "x"}}, "search.reference[0]: kpps 0, mbps 0: give kpps or mbps"},
		{[]bench.Reference{{Frame: 64, KPPS: -1, Source: "x"}}, "give kpps or mbps (or both), above 0"},
		{[]bench.Reference{{Frame: 1518, KPPS: 81.3, Mbps: 941, Source: "x"}}, "mbps 941 and kpps 81.3 disagree: 81.3 kpps × 1518 bytes × 8 / 1000 = 987.3 Mbit/s"},
		{[]bench.Reference{{Frame: 64, KPPS: 1, Source: " "}}, "source must name where the figure comes from"},
		{[]bench.Reference{{Frame: 64, KPPS: 1, Source: "a\nb"}}, "on one line"},
	} {
		wantErr(t, c.want, CheckReferences(a, c.refs, []int{64, 512, 1518}), c.want)
	}
	if r := (bench.Reference{Frame: 1518, Mbps: 987.3}); math.Abs(r.FPS()-987.3e6/(1518*8)) > 1e-6 || math.Abs(r.FPS()-81300) > 1 {
		t.Errorf("FPS from Mbit/s = %v, want 81,300", r.FPS())
	}
}
