// Command benchoverhead is a scripted benchmark (not a test): on the same
// lab path it alternates raw iperf3 run by hand with the same measurement
// through routerlab_benchmark_run (terraform apply), and prints the ratio of
// throughputs (target 0.97–1.03) and routerlab's orchestration overhead per
// step beyond iperf3's own time (target under 1 s). Needs root, terraform
// and a provider built into bin/ (make bench-overhead does both).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
)

func main() {
	rounds := flag.Int("rounds", 3, "alternations of raw iperf3 and routerlab")
	duration := flag.Int("t", 5, "iperf3 seconds per measurement")
	omit := flag.Int("omit", 1, "iperf3 warm-up seconds")
	mss := flag.Int("mss", 1460, "MSS")
	steps := flag.Int("steps", 3, "steps per routerlab run (repeat), to spread its fixed costs as a real sweep does")
	binDir := flag.String("bin", "bin", "directory holding terraform-provider-routerlab")
	flag.Parse()
	if err := run(*rounds, *duration, *omit, *mss, *steps, *binDir); err != nil {
		log.Fatal(err)
	}
}

func run(rounds, duration, omit, mss, steps int, binDir string) error {
	binDir, err := filepath.Abs(binDir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(binDir, "terraform-provider-routerlab")); err != nil {
		return fmt.Errorf("provider binary: %w (run make build)", err)
	}
	ctx := context.Background()
	spec := lab.RoutingSpec("rlovh", 2).WithRate("1gbit")
	spec.MgmtNet = 202
	l, err := lab.Up(ctx, spec)
	if err != nil {
		return err
	}
	defer func() { _ = l.Down(context.Background()) }()

	work, err := os.MkdirTemp("", "routerlab-overhead")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(work) }()
	if err := writeConfig(work, binDir, l, duration, omit, mss, steps); err != nil {
		return err
	}

	var raw, viaTF, overhead []float64
	for i := 0; i < rounds; i++ {
		r, err := rawIperf3(ctx, l, duration, omit, mss)
		if err != nil {
			return fmt.Errorf("raw iperf3: %w", err)
		}
		tf, wall, err := throughTerraform(work)
		if err != nil {
			return fmt.Errorf("routerlab: %w", err)
		}
		over := (wall - float64(steps*(duration+omit))) / float64(steps)
		fmt.Printf("round %d: raw iperf3 %.1f Mbit/s, routerlab %.1f Mbit/s (first step), ratio %.3f; run of %d steps took %.2f s for %d s of iperf3: overhead %.2f s per step\n",
			i+1, r, tf, tf/r, steps, wall, steps*(duration+omit), over)
		raw, viaTF, overhead = append(raw, r), append(viaTF, tf), append(overhead, over)
	}
	ratio := mean(viaTF) / mean(raw)
	ratioOK, overheadOK := ratio >= 0.97 && ratio <= 1.03, mean(overhead) < 1
	fmt.Printf("\nthroughput ratio routerlab/raw: %.3f (target 0.97–1.03) %s\n", ratio, verdict(ratioOK))
	fmt.Printf("orchestration overhead per step: %.2f s beyond iperf3's %d s (target < 1 s) %s\n", mean(overhead), duration+omit, verdict(overheadOK))
	// A missed target is a defect, not a figure: make bench-overhead fails.
	var missed []string
	if !ratioOK {
		missed = append(missed, "throughput ratio")
	}
	if !overheadOK {
		missed = append(missed, "overhead per step")
	}
	if len(missed) > 0 {
		return fmt.Errorf("targets MISSED: %s", strings.Join(missed, ", "))
	}
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "OK"
	}
	return "MISSED"
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// rawIperf3 measures a → b exactly as a benchmarker would by hand.
func rawIperf3(ctx context.Context, l *lab.Lab, duration, omit, mss int) (float64, error) {
	srv, err := l.Command(ctx, "b", "iperf3", "-s", "-1", "-p", "5301")
	if err != nil {
		return 0, err
	}
	if err := srv.Start(); err != nil {
		return 0, err
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	time.Sleep(300 * time.Millisecond)
	out, err := l.Exec(ctx, "a", "iperf3", "-c", "198.18.2.10", "-p", "5301", "-J", "-t", strconv.Itoa(duration), "-O", strconv.Itoa(omit), "-M", strconv.Itoa(mss))
	if err != nil {
		return 0, fmt.Errorf("%w: %s", err, out)
	}
	var rep struct {
		End struct {
			SumReceived struct {
				BitsPerSecond float64 `json:"bits_per_second"`
			} `json:"sum_received"`
		} `json:"end"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		return 0, err
	}
	if rep.Error != "" {
		return 0, fmt.Errorf("iperf3: %s", rep.Error)
	}
	return rep.End.SumReceived.BitsPerSecond / 1e6, nil
}

// throughTerraform re-runs the one-step benchmark resource and returns its
// receiver Mbps and the run's wall time inside the provider: from the
// start of Create (hosts checked, samplers started, server started) to the
// results being ready. Terraform's own plan/apply time is not routerlab's.
func throughTerraform(work string) (mbps, stepSeconds float64, err error) {
	apply := exec.Command("terraform", "apply", "-auto-approve", "-input=false", "-no-color", "-replace=routerlab_benchmark_run.one")
	apply.Dir = work
	apply.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(work, "terraformrc"), "TF_IN_AUTOMATION=1")
	if out, err := apply.CombinedOutput(); err != nil {
		return 0, 0, fmt.Errorf("terraform apply: %w\n%s", err, out)
	}
	show := exec.Command("terraform", "output", "-json", "result")
	show.Dir = work
	show.Env = apply.Env
	out, err := show.Output()
	if err != nil {
		return 0, 0, fmt.Errorf("terraform output: %w", err)
	}
	var res struct {
		ReceiverMbps float64 `json:"receiver_mbps"`
		Started      string  `json:"run_started"`
		Finished     string  `json:"run_finished"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return 0, 0, err
	}
	start, err1 := time.Parse(time.RFC3339Nano, res.Started)
	end, err2 := time.Parse(time.RFC3339Nano, res.Finished)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("step times %q %q", res.Started, res.Finished)
	}
	return res.ReceiverMbps, end.Sub(start).Seconds(), nil
}

func writeConfig(work, binDir string, l *lab.Lab, duration, omit, mss, steps int) error {
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides { \"routerlab/routerlab\" = %q }\n  direct {}\n}\n", binDir)
	if err := os.WriteFile(filepath.Join(work, "terraformrc"), []byte(rc), 0o600); err != nil {
		return err
	}
	var devs strings.Builder
	for _, n := range l.Nodes() {
		fmt.Fprintf(&devs, "  device {\n    name     = %q\n    platform = \"linux\"\n    host     = %q\n  }\n", n.Name, n.MgmtAddr)
	}
	cfg := fmt.Sprintf(`terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}
provider "routerlab" {
  ssh {
    username         = "root"
    private_key      = file(%q)
    known_hosts_file = %q
  }
%s}
resource "routerlab_benchmark_run" "one" {
  pair {
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["r"]
  mss              = [%d]
  duration_seconds = %d
  omit_seconds     = %d
  repeat           = %d
}
output "result" {
  value = merge(routerlab_benchmark_run.one.results[0], {
    run_started  = routerlab_benchmark_run.one.started
    run_finished = routerlab_benchmark_run.one.finished
  })
}
`, l.ClientKeyPath(), l.KnownHostsPath(), devs.String(), mss, duration, omit, steps)
	return os.WriteFile(filepath.Join(work, "main.tf"), []byte(cfg), 0o600)
}
