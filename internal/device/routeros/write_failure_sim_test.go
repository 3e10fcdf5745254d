package routeros_test

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// tamperedRouter is the simulated router with a test's hand on the exec:
// it can rewrite a text in every script (so that the router refuses the
// one command holding it), and run each physical line of an exec as a
// script of its own, as Posh-SSH issue #139 reports of a multi-line
// command.
type tamperedRouter struct {
	sim        *rossim.Sim
	from, to   string
	lineByLine bool
}

func (r *tamperedRouter) Exec(cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	if r.from != "" {
		cmd = strings.ReplaceAll(cmd, r.from, r.to)
	}
	if !r.lineByLine {
		return r.sim.Exec(cmd, stdin, stdout, stderr)
	}
	for _, l := range strings.Split(cmd, "\n") {
		r.sim.Exec(l, stdin, stdout, stderr)
	}
	return 0
}

func tamperedDriver(t *testing.T, r *tamperedRouter) *routeros.Driver {
	t.Helper()
	dev := devicesim.New(t, r, devicesim.Options{User: "admin", LoginFlags: true})
	c := sshx.NewClient("rb", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RouterOS)}, nil)
	t.Cleanup(func() { c.Close() })
	drv := routeros.New(c)
	if _, err := drv.Snapshot(ctx(t)); err != nil {
		t.Fatal(err)
	}
	return drv
}

// The write is one command line: a router that runs an exec's lines one
// by one still stops at the refused command, and the error names it (its
// number and text, secrets redacted) and what ran before it.
func TestWriteStopsWhenLinesRunSeparately(t *testing.T) {
	r := &tamperedRouter{sim: rossim.New(rossim.Options{Version: "7.13.4"}), lineByLine: true}
	drv := tamperedDriver(t, r)
	s := device.PPPoEConfig{Name: "dup", Role: device.RoleServer, Interface: "ether9", LocalAddress: "198.18.200.1",
		RemotePool: "198.18.200.10-198.18.200.20", Users: []device.PPPUser{{Name: "u", Password: "never-in-errors"}}}
	err := drv.ApplyPPPoE(ctx(t), s, nil)
	if err == nil {
		t.Fatalf("a refused command did not fail the write; the router has:\n%s", r.sim.Export("terse"))
	}
	t.Log(err)
	msg := err.Error()
	if strings.Contains(msg, "never-in-errors") {
		t.Errorf("a secret reached the error: %v", err)
	}
	lines := routeros.RenderPPPoE(s, nil)
	n := 0
	for i, l := range lines {
		if strings.Contains(l, "interface=ether9") {
			n = i + 1
		}
	}
	for _, want := range []string{
		"RouterOS stopped the script at command " + strconv.Itoa(n) + " of " + strconv.Itoa(len(lines)) + " (/interface pppoe-server server add",
		"input does not match any value of interface",
		"commands 1-" + strconv.Itoa(n-1) + " had run",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if got := r.sim.Items("/ppp secret"); len(got) != 0 {
		t.Errorf("the secrets after the refused command were written: %v", got)
	}
}

// A syntax error is placed by its column: the script is one line, so the
// column names the command, and nothing before it ran.
func TestWriteSyntaxErrorNamesCommand(t *testing.T) {
	r := &tamperedRouter{sim: rossim.New(rossim.Options{Version: "7.13.4"}), from: "use-peer-dns=yes", to: "use-peer-dns=yes stray-word"}
	drv := tamperedDriver(t, r)
	c := device.PPPoEConfig{Name: "isp", Role: device.RoleClient, Interface: "ether1", User: "me", Password: "client-secret-1", UsePeerDNS: true}
	err := drv.ApplyPPPoE(ctx(t), c, nil)
	if err == nil {
		t.Fatal("a syntax error did not fail the write")
	}
	msg := err.Error()
	if strings.Contains(msg, "client-secret-1") {
		t.Errorf("a secret reached the error: %v", err)
	}
	lines := routeros.RenderPPPoE(c, nil)
	n := 0
	for i, l := range lines {
		if strings.Contains(l, "/interface pppoe-client add") {
			n = i + 1
		}
	}
	for _, want := range []string{"at command " + strconv.Itoa(n) + " of", "password=<redacted>", "expected end of command (line 1 column", "no command before it had run"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

