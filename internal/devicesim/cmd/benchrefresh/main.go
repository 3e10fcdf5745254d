// Command benchrefresh is a scripted benchmark (not a test) of refresh at
// scale: it starts simulated EdgeRouters (devicesim + edgeossim, the
// EdgeOS CLI the provider's EdgeOS driver talks to), applies five
// resources and data sources per device through terraform, then times a
// no-change `terraform plan` and counts, per device, the SSH connections
// the simulators accepted and the configuration reads they answered (`show
// configuration commands`, which the driver's snapshot runs once). The
// figures are the provider's (one Session per device per operation), not
// the platform's: any platform's simulator counts them alike. The targets
// are one connection and one snapshot read per device per Terraform
// operation (one provider process: see device.Session) and a plan under
// 10 s for 100 devices on a 2-core machine.
//
// A terraform command starts several provider processes (schemas,
// validate, plan, apply, ...). Terraform's INFO log (TF_LOG_CORE, written
// to the work dir) gives each process's lifetime; the counters, sampled
// every few milliseconds, are attributed to the process alive at the time,
// so the output says how many of a command's processes connected and what
// each did.
//
// It prints a verdict per target and exits non-zero when one is MISSED
// (a missed target is a defect, not a figure), and when something fails
// to run, including a plan that shows
// changes right after apply (drift). Needs terraform on PATH and the
// provider built into -bin (make bench-refresh does both).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
)

// Targets.
const (
	planTarget = 10 * time.Second
	perDevice  = 1 // connections and snapshot reads per device per operation
)

// sampleEvery is how often the device counters are sampled to attribute
// them to provider processes; much shorter than the gap between two of
// them (about 10 ms) and than the time a process runs before it connects.
const sampleEvery = 2 * time.Millisecond

type options struct {
	devices     int
	binDir      string
	parallelism int
	keep        bool
	timeout     time.Duration
	tfLog       string
}

func main() {
	var o options
	flag.IntVar(&o.devices, "devices", 100, "simulated routers (5 resources and data sources each)")
	flag.StringVar(&o.binDir, "bin", "bin", "directory holding terraform-provider-routerlab")
	flag.IntVar(&o.parallelism, "parallelism", 10, "terraform -parallelism (10 is Terraform's default)")
	flag.BoolVar(&o.keep, "keep", false, "keep the terraform work directory (configuration, state, logs)")
	flag.DurationVar(&o.timeout, "timeout", 10*time.Minute, "limit for each terraform command")
	flag.StringVar(&o.tfLog, "tf-log", "", "TF_LOG level for every terraform command instead of core INFO only (logs in the work dir, see -keep); timings then include the logging")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("benchrefresh: ")
	if flag.NArg() > 0 {
		log.Fatalf("unexpected arguments %q", flag.Args())
	}
	if o.devices < 1 || o.devices > 999 {
		log.Fatalf("-devices %d: want 1–999", o.devices)
	}
	if o.parallelism < 1 {
		log.Fatalf("-parallelism %d: want at least 1", o.parallelism)
	}
	if err := run(o); err != nil {
		log.Fatal(err)
	}
}

// sim is one simulated router behind its SSH server.
type sim struct {
	name   string
	router *edgeossim.Device
	dev    *devicesim.Device
}

func hostname(dev string) string { return "bench-" + dev }

func run(o options) (err error) {
	binDir, err := filepath.Abs(o.binDir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(binDir, "terraform-provider-routerlab")); err != nil {
		return fmt.Errorf("provider binary: %w (run make build)", err)
	}
	if _, err := exec.LookPath("terraform"); err != nil {
		return err
	}

	var sims []*sim
	defer func() {
		for _, s := range sims {
			s.dev.Close()
		}
	}()
	for i := 1; i <= o.devices; i++ {
		r := edgeossim.New(edgeossim.Options{})
		d, err := devicesim.Start(r, devicesim.Options{Password: fmt.Sprintf("sim-%03d-pw", i)})
		if err != nil {
			return fmt.Errorf("start device %d: %w", i, err)
		}
		sims = append(sims, &sim{name: fmt.Sprintf("d%03d", i), router: r, dev: d})
	}
	rec := startRecorder(sims)
	defer rec.stop()

	work, err := os.MkdirTemp("", "routerlab-benchrefresh")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Printf("work dir (kept): %s\n", work)
	} else {
		defer func() { _ = os.RemoveAll(work) }()
	}
	if err := writeConfig(work, binDir, sims); err != nil {
		return err
	}
	tf := &terraform{dir: work, timeout: o.timeout, logLevel: o.tfLog, env: append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+filepath.Join(work, "terraformrc"),
		"TF_IN_AUTOMATION=1",
		"CHECKPOINT_DISABLE=1",
	)}
	par := fmt.Sprintf("-parallelism=%d", o.parallelism)
	fmt.Printf("%d simulated EdgeRouters (edgeossim), %d resources and data sources (5 per device), terraform -parallelism=%d, %d CPUs\n",
		o.devices, 5*o.devices, o.parallelism, runtime.NumCPU())

	var phases []*phase
	apply, err := tf.measure(rec, "apply", 0, "apply", "-auto-approve", "-input=false", "-no-color", par)
	phases = append(phases, apply)
	// Whatever happens next, put the devices back: apply may have created
	// some of the resources even when it failed.
	defer func() {
		d, derr := tf.measure(rec, "destroy", 0, "destroy", "-auto-approve", "-input=false", "-no-color", par)
		phases = append(phases, d)
		printPhases(phases)
		err = errors.Join(err, derr)
	}()
	if err != nil {
		return err
	}
	if err := checkApplied(sims); err != nil {
		return err
	}

	plan, err := tf.measure(rec, "plan", 2, "plan", "-input=false", "-no-color", "-detailed-exitcode", par)
	phases = append(phases, plan)
	if err != nil {
		return err
	}
	missed := report(plan, o.devices)
	if plan.exit == 2 {
		return fmt.Errorf("terraform plan right after apply shows changes (exit 2): drift, not a clean refresh\n%s", tail(plan.output, 40))
	}
	if len(missed) > 0 {
		return fmt.Errorf("targets MISSED: %s", strings.Join(missed, ", "))
	}
	return nil
}

// checkApplied confirms the simulators hold what the configuration asks,
// as their `show configuration commands` prints it (EdgeOS always forwards
// IPv4: ip_forwarding = true writes nothing there).
func checkApplied(sims []*sim) error {
	for _, s := range sims {
		lines := s.router.Lines()
		for _, want := range []string{
			"set system host-name " + hostname(s.name),
			"set interfaces ethernet eth1 description lan",
			"set interfaces ethernet eth1 mtu 1400",
		} {
			if !slices.Contains(lines, want) {
				return fmt.Errorf("device %s after apply lacks %q: not what was applied; it has:\n%s", s.name, want, strings.Join(lines, "\n"))
			}
		}
	}
	return nil
}

// ---- counting -------------------------------------------------------------

// tally is connections and snapshot reads per device.
type tally struct{ conns, snaps []int64 }

func newTally(n int) tally { return tally{conns: make([]int64, n), snaps: make([]int64, n)} }

func (t tally) total() (conns, snaps int64) {
	for i := range t.conns {
		conns += t.conns[i]
		snaps += t.snaps[i]
	}
	return conns, snaps
}

func (t tally) zero() bool { c, s := t.total(); return c == 0 && s == 0 }

// exactly reports whether every device has exactly n of both.
func (t tally) exactly(n int64) (conns, snaps bool) {
	return slices.Min(t.conns) == n && slices.Max(t.conns) == n, slices.Min(t.snaps) == n && slices.Max(t.snaps) == n
}

// event is a change of one device's counters seen by the sampler.
type event struct {
	at           time.Time
	dev          int
	conns, snaps int64
}

// recorder samples every device's counters and keeps their changes.
type recorder struct {
	sims []*sim
	quit chan struct{}
	done chan struct{}

	mu     sync.Mutex
	last   tally
	events []event
}

func startRecorder(sims []*sim) *recorder {
	r := &recorder{sims: sims, quit: make(chan struct{}), done: make(chan struct{}), last: newTally(len(sims))}
	r.sample()
	go func() {
		defer close(r.done)
		t := time.NewTicker(sampleEvery)
		defer t.Stop()
		for {
			select {
			case <-r.quit:
				return
			case <-t.C:
				r.sample()
			}
		}
	}()
	return r
}

func (r *recorder) stop() { close(r.quit); <-r.done }

// sample records what changed since the last sample and returns the
// current counters.
func (r *recorder) sample() tally {
	now := time.Now().Round(0) // wall clock, comparable with terraform's log
	r.mu.Lock()
	defer r.mu.Unlock()
	cur := newTally(len(r.sims))
	for i, s := range r.sims {
		cur.conns[i], cur.snaps[i] = s.dev.Accepted(), s.router.ConfigReads()
		if dc, ds := cur.conns[i]-r.last.conns[i], cur.snaps[i]-r.last.snaps[i]; dc != 0 || ds != 0 {
			r.events = append(r.events, event{at: now, dev: i, conns: dc, snaps: ds})
		}
	}
	r.last = cur
	return cur
}

// eventsSince returns the events from index from on, and the next index.
func (r *recorder) eventsSince(from int) ([]event, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events[from:]), len(r.events)
}

func (r *recorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

// ---- terraform ------------------------------------------------------------

// phase is one timed terraform command and what the devices saw during it.
type phase struct {
	name   string
	wall   time.Duration
	exit   int
	output string
	all    tally   // exact deltas over the whole command
	procs  []*proc // provider processes, from terraform's log; nil if unknown
	// unattributed are counts seen outside every provider process's
	// lifetime (not expected; sampling lag at most).
	unattributed tally
	logNote      string // why procs is nil
}

// proc is one provider process started by a terraform command.
type proc struct {
	pid        int
	start, end time.Time
	tally
}

// connecting returns the processes that touched any device.
func (p *phase) connecting() []*proc {
	var out []*proc
	for _, pr := range p.procs {
		if !pr.zero() {
			out = append(out, pr)
		}
	}
	return out
}

type terraform struct {
	dir      string
	env      []string
	timeout  time.Duration
	logLevel string // TF_LOG; "" logs core INFO only
}

// measure runs one terraform command, times it and attributes what the
// devices counted to its provider processes. An exit status up to okExit
// is success (plan -detailed-exitcode exits 2 on changes).
func (t *terraform) measure(rec *recorder, name string, okExit int, args ...string) (*phase, error) {
	logPath := filepath.Join(t.dir, name+".log")
	_ = os.Remove(logPath)
	env := slices.Clip(t.env)
	if t.logLevel != "" {
		env = append(env, "TF_LOG="+t.logLevel, "TF_LOG_PATH="+logPath)
	} else {
		env = append(env, "TF_LOG_PROVIDER=INFO", "TF_LOG_PATH="+logPath)
	}
	ctx, cancel := context.WithTimeout(context.Background(), t.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "terraform", args...)
	cmd.Dir, cmd.Env = t.dir, env
	// On timeout interrupt terraform first, so that it stops its providers
	// and releases the state lock; it is killed if that is not enough.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 30 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out

	before := rec.sample()
	from := rec.mark()
	start := time.Now()
	runErr := cmd.Run()
	p := &phase{name: name, wall: time.Since(start), output: out.String()}
	if cmd.ProcessState != nil {
		p.exit = cmd.ProcessState.ExitCode()
	}
	after := rec.sample()
	events, _ := rec.eventsSince(from)
	p.all = newTally(len(before.conns))
	for i := range before.conns {
		p.all.conns[i] = after.conns[i] - before.conns[i]
		p.all.snaps[i] = after.snaps[i] - before.snaps[i]
	}
	p.attribute(logPath, events)

	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return p, fmt.Errorf("terraform %s: timed out after %v\n%s", name, t.timeout, tail(p.output, 40))
	case errors.As(runErr, &ee) && p.exit > 0 && p.exit <= okExit:
		return p, nil
	case runErr != nil:
		return p, fmt.Errorf("terraform %s: %w\n%s", name, runErr, tail(p.output, 40))
	}
	return p, nil
}

var (
	logTime    = regexp.MustCompile(`^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z)`)
	procExited = regexp.MustCompile(`provider: plugin process exited: .*\bid=(\d+)`)
)

// attribute splits events over the provider processes found in the log: a
// process runs from "configuring client automatic mTLS" (logged just
// before it is started) to "plugin process exited". An event belongs to
// the last process started before it was sampled.
func (p *phase) attribute(logPath string, events []event) {
	f, err := os.Open(logPath)
	if err != nil {
		p.logNote = err.Error()
		return
	}
	defer func() { _ = f.Close() }()
	var starts []time.Time
	var procs []*proc
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		m := logTime.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, m[1])
		if err != nil {
			continue
		}
		switch {
		case strings.Contains(line, "provider: configuring client automatic mTLS"):
			starts = append(starts, at)
		case procExited.MatchString(line):
			pid, _ := strconv.Atoi(procExited.FindStringSubmatch(line)[1])
			procs = append(procs, &proc{pid: pid, end: at})
		}
	}
	if err := sc.Err(); err != nil {
		p.logNote = err.Error()
		return
	}
	if len(starts) != len(procs) || len(procs) == 0 {
		p.logNote = fmt.Sprintf("log shows %d provider starts and %d exits", len(starts), len(procs))
		return
	}
	for i, pr := range procs {
		pr.start = starts[i]
		pr.tally = newTally(len(p.all.conns))
		if i > 0 && pr.start.Before(procs[i-1].end) {
			p.logNote = "provider processes overlapped: per-process figures are not reliable"
		}
	}
	p.procs = procs
	p.unattributed = newTally(len(p.all.conns))
	for _, e := range events {
		t := p.unattributed
		for _, pr := range procs {
			if !e.at.Before(pr.start) {
				t = pr.tally
			}
		}
		t.conns[e.dev] += e.conns
		t.snaps[e.dev] += e.snaps
	}
}

// ---- output ---------------------------------------------------------------

func report(p *phase, devices int) (missed []string) {
	tc, ts := p.all.total()
	fmt.Printf("\nterraform plan (refresh, no changes expected; exit %d), %d devices × 5 resources and data sources:\n", p.exit, devices)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "\ttotal\tmin/device\tmax/device\t\n")
	fmt.Fprintf(w, "wall time\t%.2f s\t\t\t\n", p.wall.Seconds())
	fmt.Fprintf(w, "SSH connections\t%d\t%d\t%d\t\n", tc, slices.Min(p.all.conns), slices.Max(p.all.conns))
	fmt.Fprintf(w, "snapshot reads\t%d\t%d\t%d\t\n", ts, slices.Min(p.all.snaps), slices.Max(p.all.snaps))
	_ = w.Flush()

	// The targets are per operation, i.e. per provider process.
	var ops []tally
	if p.procs != nil {
		fmt.Printf("\nprovider processes of the plan (from terraform's log):\n")
		printProcs(p)
		for _, pr := range p.connecting() {
			ops = append(ops, pr.tally)
		}
		switch n := len(ops); {
		case n == 1:
			fmt.Printf("one of them connected to the devices: per operation = the totals above\n")
		case n > 1:
			fmt.Printf("NOTE: %d of them connected to the devices (%d operations in one plan command); the verdicts below are per operation\n", n, n)
		}
	} else {
		fmt.Printf("\nprovider processes unknown (%s): verdicts on the whole command\n", p.logNote)
		ops = []tally{p.all}
	}
	connOK, snapOK := len(ops) > 0, len(ops) > 0
	for _, t := range ops {
		c, s := t.exactly(perDevice)
		connOK, snapOK = connOK && c, snapOK && s
	}
	fmt.Println()
	planOK := p.wall < planTarget
	fmt.Printf("one connection per device:    %s\n", verdict(connOK))
	fmt.Printf("one snapshot read per device: %s\n", verdict(snapOK))
	fmt.Printf("plan under %2.0f s:              %s\n", planTarget.Seconds(), verdict(planOK))
	for what, ok := range map[string]bool{"one connection per device": connOK, "one snapshot read per device": snapOK, fmt.Sprintf("plan under %.0f s", planTarget.Seconds()): planOK} {
		if !ok {
			missed = append(missed, what)
		}
	}
	sort.Strings(missed)
	return missed
}

func printProcs(p *phase) {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "  process\tpid\tfrom\truns\tconnections\tmin–max/device\tsnapshot reads\tmin–max/device\t\n")
	t0 := p.procs[0].start
	for i, pr := range p.procs {
		c, s := pr.total()
		fmt.Fprintf(w, "  %d\t%d\t+%.2f s\t%.2f s\t%d\t%d–%d\t%d\t%d–%d\t\n", i+1, pr.pid, pr.start.Sub(t0).Seconds(), pr.end.Sub(pr.start).Seconds(),
			c, slices.Min(pr.conns), slices.Max(pr.conns), s, slices.Min(pr.snaps), slices.Max(pr.snaps))
	}
	_ = w.Flush()
	if c, s := p.unattributed.total(); c != 0 || s != 0 {
		fmt.Printf("  outside every provider process: %d connections, %d snapshot reads\n", c, s)
	}
	if p.logNote != "" {
		fmt.Printf("  note: %s\n", p.logNote)
	}
}

func printPhases(phases []*phase) {
	fmt.Println("\nevery terraform command (connections and snapshot reads summed over devices; providers = processes started / of them connected):")
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "command\twall\tproviders\tconnections\tmin–max/device\tsnapshot reads\tmin–max/device\t\n")
	for _, p := range phases {
		tc, ts := p.all.total()
		provs := "?"
		if p.procs != nil {
			provs = fmt.Sprintf("%d/%d", len(p.procs), len(p.connecting()))
		}
		fmt.Fprintf(w, "%s\t%.2f s\t%s\t%d\t%d–%d\t%d\t%d–%d\t\n", p.name, p.wall.Seconds(), provs,
			tc, slices.Min(p.all.conns), slices.Max(p.all.conns), ts, slices.Min(p.all.snaps), slices.Max(p.all.snaps))
	}
	_ = w.Flush()
	for _, p := range phases {
		if p.name == "plan" || p.procs == nil || len(p.connecting()) < 2 {
			continue
		}
		fmt.Printf("\n%s, per provider process:\n", p.name)
		printProcs(p)
	}
}

func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISSED"
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"[...]"}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// ---- configuration --------------------------------------------------------

// writeConfig writes the dev_overrides CLI config, the configuration (five
// resources and data sources per device, with for_each) and the devices
// (ports, host keys, passwords) as a tfvars file.
func writeConfig(work, binDir string, sims []*sim) error {
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides { \"routerlab/routerlab\" = %q }\n  direct {}\n}\n", binDir)
	if err := os.WriteFile(filepath.Join(work, "terraformrc"), []byte(rc), 0o600); err != nil {
		return err
	}
	type devVar struct {
		Port     int    `json:"port"`
		Password string `json:"password"`
		HostKey  string `json:"host_key"`
		Hostname string `json:"hostname"`
	}
	devs := map[string]devVar{}
	for _, s := range sims {
		devs[s.name] = devVar{Port: s.dev.Port, Password: s.dev.Password, HostKey: strings.TrimSpace(s.dev.HostKeyLine()), Hostname: hostname(s.name)}
	}
	vars, err := json.MarshalIndent(map[string]any{"devices": devs}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "devices.auto.tfvars.json"), vars, 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(work, "main.tf"), []byte(mainTF), 0o600)
}

const mainTF = `terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

variable "devices" {
  type = map(object({
    port     = number
    password = string
    host_key = string
    hostname = string
  }))
}

provider "routerlab" {
  dynamic "device" {
    for_each = var.devices
    content {
      name     = device.key
      platform = "edgeos"
      host     = "127.0.0.1"
      port     = device.value.port
      username = "root"
      password = device.value.password
      host_key = device.value.host_key
    }
  }
}

resource "routerlab_router" "r" {
  for_each      = var.devices
  device        = each.key
  hostname      = each.value.hostname
  interfaces    = { eth1 = { mtu = 1400, description = "lan" } }
  ip_forwarding = true
}

data "routerlab_device" "a" {
  for_each = var.devices
  device   = each.key
}

data "routerlab_device" "b" {
  for_each = var.devices
  device   = each.key
}

data "routerlab_running_config" "a" {
  for_each = var.devices
  device   = each.key
}

data "routerlab_running_config" "b" {
  for_each = var.devices
  device   = each.key
}
`
