package linux

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// pppoeSandbox runs the PPPoE scripts with a real sh (as the driver does:
// `sh -e -x -s`), grep, sed, awk and tr, under a private root: every path
// of /etc/routerlab, /etc/ppp and /run is moved below it, and pppd,
// pppoe-server, nft and ip are stubs that log their arguments. The pppd
// and pppoe-server stubs leave a background process behind with the same
// arguments, as the daemons do, so stopping and the process probes are
// the real commands against real processes.
type pppoeSandbox struct {
	t              *testing.T
	root, bin, log string
	rewrite        *strings.Replacer
}

// The stubs' daemon: ends soon after SIGTERM, like pppd, and never
// outlives a test by long.
const pppoeStubDaemon = `sh -c 'trap "exit 0" TERM; i=0; while [ $i -lt 300 ]; do sleep 0.2; i=$((i+1)); done' `

func newPPPoESandbox(t *testing.T) *pppoeSandbox {
	for _, c := range []string{"sh", "grep", "sed", "awk", "tr", "tail"} {
		testenv.RequireCommand(t, c, "install it (Debian: coreutils, grep, sed, mawk, dash)")
	}
	root := t.TempDir()
	s := &pppoeSandbox{t: t, root: root, bin: filepath.Join(root, "bin"), log: filepath.Join(root, "log"),
		rewrite: strings.NewReplacer("/etc/routerlab", root+"/etc/routerlab", "/etc/ppp/", root+"/etc/ppp/", "/run/", root+"/run/")}
	for _, d := range []string{s.bin, root + "/etc/ppp", root + "/run"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stubs := map[string]string{
		"pppd": `echo "pppd $*" >> ` + s.log + "\n" + pppoeStubDaemon + `pppd "$@" </dev/null >/dev/null 2>&1 &` + "\n",
		"pppoe-server": `echo "pppoe-server $*" >> ` + s.log + `
pidfile=; prev=
for a; do [ "$prev" = -X ] && pidfile=$a; prev=$a; done
` + pppoeStubDaemon + `pppoe-server "$@" </dev/null >/dev/null 2>&1 &
echo $! > "$pidfile"
`,
		"nft": `echo "nft $*" >> ` + s.log + `
[ "$1 $2" != "-f -" ] || cat >> ` + s.log + "\n",
		"ip": `echo "ip $*" >> ` + s.log + "\n",
	}
	for name, body := range stubs {
		if err := os.WriteFile(filepath.Join(s.bin, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(s.killLeftovers)
	return s
}

// run runs script under the sandbox and returns its trace (stderr).
func (s *pppoeSandbox) run(script string, wantOK bool) (stdout, trace string) {
	s.t.Helper()
	cmd := exec.Command("sh", "-e", "-x", "-s")
	cmd.Stdin = strings.NewReader(s.rewrite.Replace(script))
	cmd.Env = append(os.Environ(), "PATH="+s.bin+":"+os.Getenv("PATH"), "LC_ALL=C")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if (err == nil) != wantOK {
		s.t.Fatalf("script: %v (want success %v)\n%s", err, wantOK, errb.String())
	}
	return strings.ReplaceAll(out.String(), s.root, ""), errb.String()
}

// snapshot runs the PPPoE part of the snapshot script in the sandbox and
// parses it with the router fixture's sections around it.
func (s *pppoeSandbox) snapshot(nftJSON string) (*device.Snapshot, string) {
	s.t.Helper()
	part, _ := s.run(pppoeSnapshotScript, true)
	out := pppoeSnapshotOutput(s.t, [2]string{"nft", nftJSON}) + part
	snap, err := ParseSnapshot(out)
	if err != nil {
		s.t.Fatalf("%v\n%s", err, part)
	}
	return snap, part
}

func (s *pppoeSandbox) read(p string) string {
	s.t.Helper()
	b, err := os.ReadFile(s.root + p)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

func (s *pppoeSandbox) mode(p string) os.FileMode {
	s.t.Helper()
	fi, err := os.Stat(s.root + p)
	if err != nil {
		s.t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// pids lists the processes with an argument below the sandbox's root.
//
// A stub daemon's shell forks for each `sleep`, and until the child execs
// it has the daemon's command line too; such children of a listed process
// are left out, or a loaded machine would count them as daemons.
func (s *pppoeSandbox) pids() []int {
	parents := map[int]int{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(d + "/cmdline")
		if err != nil || !bytes.Contains(b, []byte(s.root+"/etc/routerlab/")) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		parents[pid] = parentPID(d)
	}
	var res []int
	for pid, ppid := range parents {
		if _, child := parents[ppid]; !child {
			res = append(res, pid)
		}
	}
	return res
}

// parentPID reads the parent's id from /proc/<pid>/stat (its fourth
// field, after the command name in parentheses); 0 if unreadable.
func parentPID(procDir string) int {
	b, err := os.ReadFile(procDir + "/stat")
	if err != nil {
		return 0
	}
	_, rest, ok := strings.Cut(string(b), ") ")
	if !ok {
		return 0
	}
	f := strings.Fields(rest)
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

func (s *pppoeSandbox) killLeftovers() {
	for _, pid := range s.pids() {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
}

// The scripts as a device runs them: files, modes, the chap-secrets block
// among lines that are not ours, processes started and stopped, and the
// snapshot of all that reading back as the configuration.
func TestPPPoEScriptsInSandbox(t *testing.T) {
	s := newPPPoESandbox(t)
	// Debian's chap-secrets header, someone else's account, an L2TP
	// server's block, and no newline at the end.
	chapBefore := "# Secrets for authentication using CHAP\n# client\tserver\tsecret\t\t\tIP addresses\n" +
		"otheruser * \"other-pass\" *\n# routerlab l2tp0 begin\n\"luser\" * \"l2tp-pass\" *\n# routerlab l2tp0 end"
	if err := os.WriteFile(s.root+pppoeChapFile, []byte(chapBefore), 0o600); err != nil {
		t.Fatal(err)
	}
	client, server := pppoeSeed002Client(), pppoeSeed002Server()
	nft := readFixture(t, "pppoe_nft_wan0.json")

	for _, c := range []device.PPPoEConfig{client, server} {
		script, err := RenderPPPoE(c)
		if err != nil {
			t.Fatal(err)
		}
		_, trace := s.run(script, true)
		for _, sec := range pppoeSecrets(c) {
			if strings.Contains(trace, sec) {
				t.Errorf("%s: a password is in the sh -x trace:\n%s", c.Name, trace)
			}
		}
	}
	if m := s.mode(pppoeDir); m != 0o755 {
		t.Errorf("%s: mode %o, want 755", pppoeDir, m)
	}
	for _, p := range []string{secretDir} {
		if m := s.mode(p); m != 0o700 {
			t.Errorf("%s: mode %o, want 700", p, m)
		}
	}
	for _, p := range []string{pppoeClientSecret("wan0"), pppoeServerSecret("srv0"), pppoeChapFile, pppoeClientOptions("wan0")} {
		if m := s.mode(p); m != 0o600 {
			t.Errorf("%s: mode %o, want 600", p, m)
		}
	}
	chap := s.read(pppoeChapFile)
	wantBlock := "# routerlab srv0 begin\n\"ppp1\" * " + pppQuote(pppoeServerPassword) + " *\n# routerlab srv0 end\n"
	if chap != chapBefore+"\n"+wantBlock {
		t.Errorf("chap-secrets after the server:\n%s", chap)
	}
	log := s.read("/log")
	for _, want := range []string{
		"pppd file " + s.root + pppoeClientOptions("wan0") + "\n",
		"ip link set dev eth1 up\n",
		"nft -f -\n" + renderPPPoEClamp("wan0", *client.MSSClamp),
		"pppoe-server -I eth2 -L 198.18.50.1 -R 198.18.50.10 -N 245 -S lab -q " + s.root + pppoeServerPPPD("srv0") +
			" -O " + s.root + pppoeServerOptions("srv0") + " -X " + s.root + pppoeServerPID("srv0") + "\n",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the device was not given %q; log:\n%s", want, log)
		}
	}
	if n := len(s.pids()); n != 2 {
		t.Errorf("%d processes run with our files, want pppd and pppoe-server", n)
	}

	snap, part := s.snapshot(nft)
	for _, c := range []device.PPPoEConfig{client, server} {
		if got := snap.PPPoE[c.Name].PPPoEConfig; !reflect.DeepEqual(got, pppoeWithoutSecrets(c)) {
			t.Errorf("%s read back\n%+v\nwant\n%+v", c.Name, got, pppoeWithoutSecrets(c))
		}
		for _, sec := range pppoeSecrets(c) {
			if strings.Contains(part, sec) || strings.Contains(snap.Text, sec) {
				t.Errorf("%s: a password is in the snapshot", c.Name)
			}
		}
	}
	if strings.Contains(part, "other-pass") || strings.Contains(part, "l2tp-pass") {
		t.Errorf("the snapshot printed a chap-secrets secret:\n%s", part)
	}
	if st := snap.Status.PPPoE["srv0"]; !st.Established || st.Interface != "eth2" {
		t.Errorf("srv0 status = %+v: pppoe-server runs", st)
	}
	if st := snap.Status.PPPoE["wan0"]; st.Established {
		t.Errorf("wan0 status = %+v: no PPP interface, not established", st)
	}

	// A changed server: its old process and block go, the new ones come.
	oldPID := strings.TrimSpace(s.read(pppoeServerPID("srv0")))
	server2 := server
	server2.Users = []device.PPPUser{{Name: "ppp2", Password: "second"}}
	script, _ := RenderPPPoE(server2)
	s.run(script, true)
	if st, err := os.ReadFile("/proc/" + oldPID + "/status"); err == nil && !bytes.Contains(st, []byte("(zombie)")) {
		t.Errorf("the old pppoe-server (pid %s) still runs", oldPID)
	}
	if got := s.read(pppoeChapFile); got != chapBefore+"\n"+strings.Replace(wantBlock, `"ppp1" * `+pppQuote(pppoeServerPassword), `"ppp2" * "second"`, 1) {
		t.Errorf("chap-secrets after the change:\n%s", got)
	}
	if snap, _ := s.snapshot(nft); !reflect.DeepEqual(snap.PPPoE["srv0"].Users, []device.PPPUser{{Name: "ppp2"}}) {
		t.Errorf("users after the change = %+v", snap.PPPoE["srv0"].Users)
	}
	// A server that died is configured but not established.
	if pid, err := strconv.Atoi(strings.TrimSpace(s.read(pppoeServerPID("srv0")))); err != nil {
		t.Fatal(err)
	} else if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		snap, _ := s.snapshot(nft)
		if !snap.Status.PPPoE["srv0"].Established {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a killed pppoe-server still reads as established")
		}
		time.Sleep(50 * time.Millisecond)
	}

	// A block that lost its end line is never cut to the end of the file.
	broken := strings.Replace(s.read(pppoeChapFile), "# routerlab srv0 end\n", "", 1)
	if err := os.WriteFile(s.root+pppoeChapFile, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	del, _ := RenderPPPoEDelete("srv0")
	_, trace := s.run(del, false)
	if !strings.Contains(trace, `without "# routerlab srv0 end"`) || s.read(pppoeChapFile) != broken {
		t.Errorf("a broken block: chap-secrets changed or no message:\n%s", trace)
	}
	if err := os.WriteFile(s.root+pppoeChapFile, []byte(broken+"# routerlab srv0 end\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	for _, name := range []string{"srv0", "wan0"} {
		del, _ := RenderPPPoEDelete(name)
		s.run(del, true)
		s.run(del, true) // already gone: no error
	}
	if got := s.read(pppoeChapFile); got != chapBefore+"\n" {
		t.Errorf("chap-secrets after deleting:\n%q\nwant\n%q", got, chapBefore+"\n")
	}
	deadline = time.Now().Add(2 * time.Second)
	for len(s.pids()) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if pids := s.pids(); len(pids) > 0 {
		t.Errorf("processes left with our files: %v", pids)
	}
	entries, _ := filepath.Glob(s.root + "/etc/routerlab/*/*")
	if len(entries) > 0 {
		t.Errorf("files left: %v", entries)
	}
	if snap, _ := s.snapshot("{}"); len(snap.PPPoE) != 0 {
		t.Errorf("sessions after deleting: %v", device.SortedKeys(snap.PPPoE))
	}
}
