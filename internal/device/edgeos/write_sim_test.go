package edgeos

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

func writeSim(t *testing.T) (*Driver, *edgeossim.Device) {
	t.Helper()
	sim := edgeossim.New(edgeossim.Options{})
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	return New(c), sim
}

func wctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

func observed(t *testing.T, drv *Driver) device.RouterState {
	t.Helper()
	snap, err := drv.Snapshot(wctx(t))
	if err != nil {
		t.Fatal(err)
	}
	return snap.Router
}

// leftovers are the files a change keeps on the router while it runs.
func leftovers(sim *edgeossim.Device) []string {
	var out []string
	for _, f := range sim.Files() {
		if strings.HasPrefix(f, "/config/routerlab-") || strings.HasSuffix(f, oldSuffix) {
			out = append(out, f)
		}
	}
	return out
}

// A commit that fails in its second subtree (eth1, 318, commits; system,
// 400, is refused): the router ends as before the change, saved as
// before, a snapshot (what state is read from) says so, and the message
// names the refused path and what the router runs.
func TestFailedCommitRestoresTheRouter(t *testing.T) {
	t.Parallel()
	drv, sim := writeSim(t)
	before := sim.Config()
	sim.RefuseCommit("system host-name", "hostname daemon refused the name")
	host, mtu := "lab-r2", 1400
	err := drv.ApplyRouter(wctx(t), device.RouterConfig{Hostname: &host, Interfaces: map[string]device.InterfaceConfig{"eth1": {MTU: &mtu}}}, observed(t, drv))
	if err == nil {
		t.Fatal("the refused commit reported success")
	}
	for _, want := range []string{"the commit refused system host-name", "hostname daemon refused the name", "the router runs the configuration it ran before the change"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if sim.Config() != before || !sim.Saved() {
		t.Errorf("the router is not as before (saved %v):\n%s", sim.Saved(), sim.Config())
	}
	snap, err := drv.Snapshot(wctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := snap.Router.Interfaces["eth1"].MTU; got == 1400 {
		t.Errorf("the snapshot still shows the first subtree's change: mtu %d", got)
	}
	if left := leftovers(sim); len(left) > 0 || len(sim.Sessions()) > 0 {
		t.Errorf("left behind: files %v, sessions %v", left, sim.Sessions())
	}
	// Lifted, the same change commits and is saved.
	sim.RefuseCommit("system host-name", "")
	if err := drv.ApplyRouter(wctx(t), device.RouterConfig{Hostname: &host, Interfaces: map[string]device.InterfaceConfig{"eth1": {MTU: &mtu}}}, observed(t, drv)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sim.Config(), "host-name lab-r2") || !sim.Saved() {
		t.Errorf("the change did not commit and save:\n%s", sim.Config())
	}
}

// The wrapper runs under sg vyattacfg: a driver write does not leave the
// configuration's files so that other admins' `set` fails; and a login
// outside the group is refused with what to change on the router.
func TestWriteRunsWithTheVyattacfgGroup(t *testing.T) {
	t.Parallel()
	drv, sim := writeSim(t)
	host := "lab-r3"
	if err := drv.ApplyRouter(wctx(t), device.RouterConfig{Hostname: &host}, observed(t, drv)); err != nil {
		t.Fatal(err)
	}
	if u, g, broken := sim.StoreGroupBroken(); broken {
		t.Errorf("the write ran as %s:%s, outside vyattacfg: later CLI commits fail", u, g)
	}

	drv2, sim2 := writeSim(t)
	sim2.SetLogin("monitor", "users", "operator", "adm")
	before := sim2.Config()
	err := drv2.ApplyRouter(wctx(t), device.RouterConfig{Hostname: &host}, observed(t, drv2))
	if err == nil || !strings.Contains(err.Error(), `"monitor" is not in the group vyattacfg`) || !strings.Contains(err.Error(), "set system login user monitor level admin") {
		t.Fatalf("want a refusal naming the group and the fix, got %v", err)
	}
	if sim2.Config() != before {
		t.Error("the refused write changed the router")
	}
}

// A change killed mid-commit (SIGKILL: no EXIT trap) leaves its session,
// journal and the old key file; the next change finds them, undoes the
// killed change (files and configuration), says so, and applies nothing.
func TestKilledChangeIsUndoneByTheNext(t *testing.T) {
	t.Parallel()
	drv, sim := writeSim(t)
	key := "/config/auth/routerlab-k.key"
	sim.WriteFile(key, []byte("old key\n"), 0o600)
	before := sim.Config()
	sim.KillCommitAfter(1)
	c := Change{
		Lines: []string{"set interfaces ethernet eth1 mtu 1400", "set system host-name killed"},
		Write: []FileWrite{{Path: key, Content: "new key"}},
	}
	if err := drv.change(wctx(t), "test change", c); err == nil {
		t.Fatal("the killed change reported success")
	}
	if sim.Config() == before || len(sim.Sessions()) != 1 {
		t.Fatalf("the kill left no partial commit or no session: sessions %v\n%s", sim.Sessions(), sim.Config())
	}
	if _, _, ok := sim.File(key + oldSuffix); !ok {
		t.Fatal("the kill left no old key file: the simulator ran the trap")
	}
	// A read (a plan) says what was left and that the next apply undoes
	// it; the configuration it reports is what runs, partial change and all.
	snap := wantLeftovers(t, drv, "had not completed", SessionDir, JournalPath, BeforePath, key+oldSuffix, "puts back the files it was writing ("+key+")")
	if snap.Router.Interfaces["eth1"].MTU != 1400 {
		t.Errorf("the snapshot does not report what runs (the committed subtree): %+v", snap.Router.Interfaces["eth1"])
	}
	// The journal's undo changes what runs, so the change planned from
	// the partial configuration is not written, and the message says so.
	host := "next"
	err := drv.ApplyRouter(wctx(t), device.RouterConfig{Hostname: &host}, snap.Router)
	for _, want := range []string{"interrupted", "put back the configuration the router ran before", "nothing of it was written", "Run apply again"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("want the next change to report the interrupted one (%q), got %v", want, err)
		}
	}
	if sim.Config() != before {
		t.Errorf("the router is not as before the killed change:\n%s", sim.Config())
	}
	if b, _, _ := sim.File(key); string(b) != "old key\n" {
		t.Errorf("key file %q, want the old key back", b)
	}
	if left := leftovers(sim); len(left) > 0 || len(sim.Sessions()) > 0 {
		t.Errorf("left behind: files %v, sessions %v", left, sim.Sessions())
	}
	// And the one after that applies.
	if err := drv.ApplyRouter(wctx(t), device.RouterConfig{Hostname: &host}, observed(t, drv)); err != nil || !strings.Contains(sim.Config(), "host-name next") {
		t.Fatalf("the change after the recovery: %v", err)
	}
}

// Killed after its commit went through, a change is finished by the
// next, which then applies: the old key copy goes, the configuration is
// saved.
func TestKilledAfterCommitIsFinishedByTheNext(t *testing.T) {
	t.Parallel()
	drv, sim := writeSim(t)
	key := "/config/auth/routerlab-k.key"
	sim.WriteFile(key, []byte("old key\n"), 0o600)
	c := Change{Lines: []string{"set system host-name done"}, Write: []FileWrite{{Path: key, Content: "new key"}}}
	// Killed right after the commit: the simulator's kill is mid-commit,
	// so the script is cut there instead, its trap dropped, as SIGKILL
	// would leave it.
	script, err := ChangeScript(c)
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Index(script, "RL_DONE=1\nmv -f "+FinishPath)
	if cut < 0 {
		t.Fatal("no commit point in the script")
	}
	if res, err := drv.t.RunWrite(wctx(t), writeCommand, []byte(script[:cut]+"RL_DONE=1\nmv -f "+FinishPath+" "+JournalPath+"\ntrap - EXIT\n")); err != nil || res.ExitStatus != 0 {
		t.Fatalf("%v %+v", err, res)
	}
	if _, _, ok := sim.File(JournalPath); !ok || sim.Saved() {
		t.Fatal("the stand-in kill left no journal, or saved")
	}
	snap := wantLeftovers(t, drv, "Its commit had gone through", JournalPath, key+oldSuffix, "first finishes it")
	// Finishing leaves what runs as it was, so the next change goes on.
	host := "next"
	if err := drv.ApplyRouter(wctx(t), device.RouterConfig{Hostname: &host}, snap.Router); err != nil {
		t.Fatalf("the change after the finished one: %v", err)
	}
	if !strings.Contains(sim.Config(), "host-name next") || !sim.Saved() {
		t.Errorf("the change was not committed and saved:\n%s", sim.Config())
	}
	if b, _, _ := sim.File(key); string(b) != "new key\n" {
		t.Errorf("key file %q, want the new key", b)
	}
	if left := leftovers(sim); len(left) > 0 || len(sim.Sessions()) > 0 {
		t.Errorf("left behind: files %v, sessions %v", left, sim.Sessions())
	}
}

// Killed before its commit, a change left files and a session but runs
// nothing of it: the next change undoes it and, what runs unchanged,
// goes on.
func TestKilledBeforeCommitNextChangeGoesOn(t *testing.T) {
	t.Parallel()
	drv, sim := writeSim(t)
	key := "/config/auth/routerlab-k.key"
	sim.WriteFile(key, []byte("old key\n"), 0o600)
	script, err := ChangeScript(Change{Lines: []string{"set system host-name killed"}, Write: []FileWrite{{Path: key, Content: "new key"}}})
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Index(script, "if \"$W\" commit")
	if cut < 0 {
		t.Fatal("no commit in the script")
	}
	if res, err := drv.t.RunWrite(wctx(t), writeCommand, []byte(script[:cut]+"trap - EXIT\n")); err != nil || res.ExitStatus != 0 {
		t.Fatalf("%v %+v", err, res)
	}
	snap := wantLeftovers(t, drv, "had not completed", SessionDir, JournalPath, BeforePath, key+oldSuffix)
	host := "next"
	if err := drv.ApplyRouter(wctx(t), device.RouterConfig{Hostname: &host}, snap.Router); err != nil {
		t.Fatalf("the change after the undone one: %v", err)
	}
	if !strings.Contains(sim.Config(), "host-name next") || strings.Contains(sim.Config(), "killed") {
		t.Errorf("want the new change alone:\n%s", sim.Config())
	}
	if b, _, _ := sim.File(key); string(b) != "old key\n" {
		t.Errorf("key file %q, want the old key back", b)
	}
	if left := leftovers(sim); len(left) > 0 || len(sim.Sessions()) > 0 {
		t.Errorf("left behind: files %v, sessions %v", left, sim.Sessions())
	}
	if snap, err := drv.Snapshot(wctx(t)); err != nil || len(snap.Warnings) > 0 {
		t.Errorf("a read after the recovery still warns: %v %q", err, snap.Warnings)
	}
}

// wantLeftovers reads the router and wants one warning naming every
// part of want; the digest is the configuration's alone.
func wantLeftovers(t *testing.T, drv *Driver, want ...string) *device.Snapshot {
	t.Helper()
	snap, err := drv.Snapshot(wctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Warnings) != 1 {
		t.Fatalf("want one warning of what the interrupted change left, got %q", snap.Warnings)
	}
	t.Log(snap.Warnings[0])
	for _, w := range want {
		if !strings.Contains(snap.Warnings[0], w) {
			t.Errorf("warning lacks %q: %s", w, snap.Warnings[0])
		}
	}
	if strings.Contains(snap.Text, "routerlab-") {
		t.Errorf("the leftovers reached the configuration text:\n%s", snap.Text)
	}
	return snap
}

// The error of a commit that failed and whose restore failed too says
// so, names the path, and carries no secret.
func commandResult(out string) command.Result { return command.Result{Stdout: out, ExitStatus: 1} }

func TestChangeErrorRestoreFailed(t *testing.T) {
	t.Parallel()
	out := "[ interfaces ethernet eth0 pppoe 0 password s3cr3t-pw ]\nrefused\n\nCommit failed\n" + markRestore + "\n[ system ]\nno\n\nCommit failed\n"
	err := changeError("applying", commandResult(out), []string{"s3cr3t-pw"})
	msg := err.Error()
	if !strings.Contains(msg, "the commit refused interfaces ethernet eth0 pppoe 0 password "+RedactedMarker) || !strings.Contains(msg, "putting back the configuration from before the change failed too") {
		t.Errorf("message: %s", msg)
	}
	if strings.Contains(msg, "s3cr3t-pw") {
		t.Errorf("a secret in the error: %s", msg)
	}
}
