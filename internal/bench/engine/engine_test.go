package engine

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

func TestNormalizeAppliesDefaultsOnce(t *testing.T) {
	req := Request{LinkSpeed: "1gbit", Plan: bench.Plan{
		Pairs:    []bench.Pair{{Client: "a", Server: "b", Target: "198.18.2.10"}, {Name: "C-D", Client: "c", Server: "d", Target: "198.18.4.10", Port: 5300}},
		Protocol: bench.UDP,
	}}
	n, err := Normalize(req)
	if err != nil {
		t.Fatal(err)
	}
	p := n.Plan
	if p.LinkMbps != 1000 {
		t.Errorf("LinkMbps = %v", p.LinkMbps)
	}
	if p.Pairs[0].Name != "a-b" || p.Pairs[0].Port != bench.DefaultPort || p.Pairs[1].Name != "C-D" || p.Pairs[1].Port != 5300 {
		t.Errorf("pairs = %+v", p.Pairs)
	}
	if p.UDPBitrate != bench.DefaultUDPBitrate || p.Repeat != 1 || len(p.MSS) != 1 || p.MSS[0] != 0 || len(p.Directions) != 1 || p.Directions[0] != bench.Upload {
		t.Errorf("defaults not applied: %+v", p)
	}
	// The caller's plan is not changed underneath it.
	if req.Plan.Pairs[0].Name != "" || req.Plan.Pairs[0].Port != 0 {
		t.Errorf("Normalize changed its input: %+v", req.Plan.Pairs[0])
	}
	// Idempotent: normalising a normalised plan changes nothing.
	again, err := Normalize(n)
	if err != nil || again.Plan.Pairs[1] != n.Plan.Pairs[1] || again.Plan.UDPBitrate != n.Plan.UDPBitrate {
		t.Errorf("not idempotent: %+v, %v", again.Plan, err)
	}
}

func TestValidateNamesEveryProblem(t *testing.T) {
	err := Validate(Request{LinkSpeed: "fast", Plan: bench.Plan{Duration: 0}})
	if err == nil {
		t.Fatal("want errors")
	}
	for _, want := range []string{"link_speed", `"fast"`, "pairs: at least one pair", "duration"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// A real run over loopback with real iperf3: the Outcome carries the run,
// every rendering, the archive on disk, and the expectation misses.
func TestRunRendersArchivesAndChecks(t *testing.T) {
	testenv.RequireCommand(t, "iperf3", "apt-get install iperf3, or bash .ci/install-deps")
	dir := t.TempDir()
	minMbps := 1e9 // no loopback reaches this: one miss per step
	req := Request{
		Name: "loopback", LinkSpeed: "100gbit", ArchiveDir: dir,
		Plan: bench.Plan{
			Pairs:    []bench.Pair{{Client: bench.LocalHost, Server: bench.LocalHost, Target: "127.0.0.1", Port: 5491}},
			Duration: time.Second,
			MSS:      []int{1200},
		},
		Expect: bench.Expect{MinMbps: &minMbps},
	}
	env := Env{Host: func(name string) (command.Runner, error) {
		if name != bench.LocalHost {
			return nil, errors.New("unknown host " + name)
		}
		return command.Local(), nil
	}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := Run(ctx, req, env)
	if err != nil {
		t.Fatal(err)
	}
	if out.Run == nil || len(out.Run.Steps) != 1 || out.Run.Name != "loopback" {
		t.Fatalf("run = %+v", out.Run)
	}
	got := out.Run.Steps[0].Pairs[0]
	if got.Pair != "local-local" || got.ReceiverMbps <= 0 || got.SenderMbps <= 0 {
		t.Errorf("pair result = %+v", got)
	}
	if !strings.Contains(out.Markdown, "local-local") || !strings.HasPrefix(out.SVG, "<svg") || !strings.Contains(out.JSON, `"loopback"`) || out.CSV == "" {
		t.Errorf("renderings incomplete: md %d, svg %d, json %d, csv %d bytes", len(out.Markdown), len(out.SVG), len(out.JSON), len(out.CSV))
	}
	if out.ArchivePath != filepath.Join(dir, out.Run.ID) {
		t.Errorf("ArchivePath = %q", out.ArchivePath)
	}
	if _, err := os.Stat(out.ArchivePath); err != nil {
		t.Errorf("archive not written: %v", err)
	}
	// The archive keeps iperf3's own report, intervals included, which
	// run.json names; and this Linux host's environment, whose path to
	// 127.0.0.1 is lo.
	name := out.Run.Steps[0].Pairs[0].Iperf3JSON
	raw, err := os.ReadFile(filepath.Join(out.ArchivePath, filepath.FromSlash(name)))
	if name != "iperf3/step-01-pair-local-local-repeat-1.json" || err != nil {
		t.Fatalf("iperf3 report %q: %v", name, err)
	}
	var doc struct {
		Intervals []json.RawMessage `json:"intervals"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc.Intervals) == 0 || !strings.Contains(out.JSON, `"iperf3_json": "`+name+`"`) || strings.Contains(out.JSON, `"intervals"`) {
		t.Errorf("iperf3 report: %d intervals, %v; run.json references it: %v", len(doc.Intervals), err, strings.Contains(out.JSON, name))
	}
	if h := out.Run.Hosts[0].Environment; h == nil || len(h.Interfaces) != 1 || h.Interfaces[0].Name != "lo" || len(h.Interfaces[0].QdiscsAfter) == 0 || h.CPUCount < 1 {
		t.Errorf("environment %+v", h)
	}
	if out.Run.CPUSamples != "" {
		t.Errorf("cpu.csv named without a DUT: %q", out.Run.CPUSamples)
	}
	if len(out.Misses) != 1 || !strings.Contains(out.MissReport(), "min_mbps") {
		t.Errorf("misses = %+v, report %q", out.Misses, out.MissReport())
	}
}
