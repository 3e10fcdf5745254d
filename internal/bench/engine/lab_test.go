package engine_test

// The real-lab tier of the engine: a run through the namespace lab
// (a — r — b, shaped by tbf) over the same path the provider takes, SSH
// to each node and the Linux driver's CPU probe on the router. It is an
// external test package because it composes what the engine itself may
// not import (the SSH transport, a platform package).

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/engine"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/report"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/runner"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// sshTo is the lab node's SSH client, as the provider's inventory makes
// it for a Linux device.
func sshTo(t *testing.T, l *lab.Lab, name string) *sshx.Client {
	t.Helper()
	n := l.Node(name)
	c := sshx.NewClient(name, sshx.Config{
		Endpoint: sshx.Endpoint{
			Host: n.MgmtAddr, Port: n.SSHPort, User: "root",
			Auth: sshx.Auth{PrivateKey: l.ClientKeyPEM()}, KnownHostsFile: l.KnownHostsPath(),
		},
		Dialect: command.Dialect{POSIXShell: true},
	}, nil)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// A lab run archives iperf3's JSON of every step, the router's CPU
// readings, and each host's environment: the path interface with its
// tbf, whose counters moved by what the run sent.
func TestLabRunArchivesEnvironmentAndRawFiles(t *testing.T) {
	testenv.RequireEnv(t, "TF_ACC", "the real-lab tier")
	testenv.RequireCommand(t, "iperf3", "apt-get install iperf3, or bash .ci/install-deps")
	s := lab.DefaultSpec("envd")
	s.MgmtNet = 246
	l := labtest.Start(t, s.WithRate("100mbit"))
	hosts := map[string]command.Runner{}
	for _, n := range []string{"a", "r", "b"} {
		hosts[n] = sshTo(t, l, n)
	}
	var mu sync.Mutex
	var logs []string
	env := engine.Env{
		Host: func(name string) (command.Runner, error) { return hosts[name], nil },
		DUTs: []runner.DUT{{Info: bench.DUTInfo{Device: "r", Platform: "linux"}, CPU: cpu.NewSource(hosts["r"], linux.New(hosts["r"]).CPUProbe(), 0)}},
		Logf: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, fmt.Sprintf(format, args...))
		},
	}
	dir := t.TempDir()
	req := engine.Request{
		Name: "env", LinkSpeed: "100mbit", ArchiveDir: dir,
		Plan: bench.Plan{
			Pairs:      []bench.Pair{{Name: "A-B", Client: "a", Server: "b", Target: "198.18.2.10"}},
			DUTs:       []string{"r"},
			Duration:   2 * time.Second,
			Omit:       time.Second,
			Directions: []bench.Direction{bench.Upload, bench.Download},
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := engine.Run(ctx, req, env)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range logs {
		if strings.HasPrefix(line, "environment of") {
			t.Log(line) // the cost of the reads, for the record
		}
	}

	// run.json, read back as an archive reader would.
	runs, err := report.ReadArchive(dir)
	if err != nil || len(runs) != 1 {
		t.Fatalf("archive: %d runs, %v", len(runs), err)
	}
	r := runs[0]
	for _, h := range r.Hosts {
		e := h.Environment
		if e == nil || len(e.Interfaces) != 1 {
			t.Fatalf("host %s: environment %+v", h.Name, e)
		}
		p := e.Interfaces[0]
		if p.Name != "eth1" || !slices.Equal(p.Targets, []string{"198.18.2.10"}) || len(p.QdiscsBefore) == 0 || len(p.QdiscsAfter) == 0 {
			t.Fatalf("host %s: path interface %+v", h.Name, p)
		}
		before, after := p.QdiscsBefore[0], p.QdiscsAfter[0]
		if after.Kind != "tbf" || !strings.Contains(after.Params, "rate 100Mbit") || after.SentBytes <= before.SentBytes {
			t.Errorf("host %s: qdisc %+v → %+v", h.Name, before, after)
		}
		// Each side sent data one way (4 s at up to 100 Mbit/s in
		// all): at least a megabyte through either host's tbf.
		if sent := after.SentBytes - before.SentBytes; sent < 1<<20 {
			t.Errorf("host %s: tbf sent %d bytes during the run", h.Name, sent)
		}
		if p.Offloads == nil || p.Offloads["tso"] || p.Offloads["gro"] || p.Link.Driver != "veth" {
			t.Errorf("host %s: offloads %v, link %+v (the lab turns tso, gso, gro off on shaped veths)", h.Name, p.Offloads, p.Link)
		}
		if e.Sysctls.CongestionControl == "" || e.Sysctls.TCPRmem[2] == 0 || e.CPUCount < 1 || len(e.Changed) != 0 {
			t.Errorf("host %s: sysctls %+v, %d CPUs, changed %q", h.Name, e.Sysctls, e.CPUCount, e.Changed)
		}
	}
	i := strings.Index(out.Markdown, "### Environment")
	if i < 0 || !strings.Contains(out.Markdown[i:], "qdisc tbf") {
		t.Fatalf("results.md has no environment:\n%s", out.Markdown)
	}
	section, _, _ := strings.Cut(out.Markdown[i:], "\n\nMbps:")
	t.Log(section)

	// iperf3's own JSON of each step, intervals included.
	runDir := filepath.Join(dir, r.ID)
	for _, st := range r.Steps {
		name := st.Pairs[0].Iperf3JSON
		data, err := os.ReadFile(filepath.Join(runDir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatalf("step %d: %v", st.Index+1, err)
		}
		var doc struct {
			Intervals []json.RawMessage `json:"intervals"`
			End       json.RawMessage   `json:"end"`
		}
		// 2 s measured after a 1 s warm-up: iperf3 prints the omitted
		// second too.
		if err := json.Unmarshal(data, &doc); err != nil || len(doc.Intervals) < 2 || len(doc.End) == 0 {
			t.Errorf("%s: %d intervals, %v", name, len(doc.Intervals), err)
		}
	}
	if len(r.Steps) != 2 || r.Steps[1].Pairs[0].Iperf3JSON != "iperf3/step-02-pair-A-B-repeat-1.json" {
		t.Errorf("steps %d, second file %q", len(r.Steps), r.Steps[len(r.Steps)-1].Pairs[0].Iperf3JSON)
	}

	// cpu.csv: the router's readings of each step, those of the measured
	// window marked, as many as the step's CPU figures counted.
	if r.CPUSamples != report.CPUSamplesFile {
		t.Fatalf("cpu_samples = %q", r.CPUSamples)
	}
	f, err := os.Open(filepath.Join(runDir, report.CPUSamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) < 2 || strings.Join(rows[0][:6], ",") != "step,dut,t_offset_seconds,period_seconds,percent,measured" || len(rows[0]) < 7 {
		t.Fatalf("cpu.csv: %v %v", rows, err)
	}
	measured := map[string]int{}
	for _, row := range rows[1:] {
		if row[1] != "r" {
			t.Errorf("row %v: dut", row)
		}
		if row[5] == "true" {
			measured[row[0]]++
		}
	}
	for _, st := range r.Steps {
		if got, want := measured[strconv.Itoa(st.Index+1)], st.CPU[0].Samples+st.CPU[0].Dropped; got != want || got == 0 {
			t.Errorf("step %d: %d measured readings in cpu.csv, the step counted %d", st.Index+1, got, want)
		}
	}
}
