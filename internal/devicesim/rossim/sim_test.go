package rossim

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// rig is a simulated router behind a real SSH server, reached as the
// RouterOS dialect's transport reaches one: user "admin" with the
// "+cet1024w" console flags.
type rig struct {
	r *Sim
	c *sshx.Client
}

func newRig(t *testing.T, opts Options) *rig {
	t.Helper()
	r := New(opts)
	dev := devicesim.New(t, r, devicesim.Options{User: "admin", LoginFlags: true})
	c := sshx.NewClient("ros", sshx.Config{Endpoint: dev.Endpoint(), Dialect: command.Dialect{LoginSuffix: "+cet1024w"}}, nil)
	t.Cleanup(func() { c.Close() })
	return &rig{r: r, c: c}
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// run execs script and returns its output with LF line ends, after
// checking that the router printed CRLF line ends, nothing on stderr and
// exit status 0 (see Sim.Exec).
func (g *rig) run(t *testing.T, script string) string {
	t.Helper()
	res, err := g.c.Run(ctxT(t), script)
	if err != nil {
		t.Fatalf("%q: %v", script, err)
	}
	if res.ExitStatus != 0 || res.Stderr != "" {
		t.Fatalf("%q: exit %d, stderr %q", script, res.ExitStatus, res.Stderr)
	}
	return lf(t, res.Stdout)
}

// lf checks that every line ends in CRLF and returns the text with LF.
func lf(t *testing.T, s string) string {
	t.Helper()
	if strings.Count(s, "\n") != strings.Count(s, "\r\n") {
		t.Fatalf("output has lines not ending in CRLF: %q", s)
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

func TestLoginNameWithConsoleFlags(t *testing.T) {
	r := New(Options{})
	dev := devicesim.New(t, r, devicesim.Options{User: "admin", LoginFlags: true})
	for _, user := range []string{"admin", "admin+cet1024w", "admin+ct"} {
		ep := dev.Endpoint()
		ep.User = user
		c := sshx.NewClient("ros", sshx.Config{Endpoint: ep}, nil)
		res, err := c.Run(ctxT(t), `:put "hi"`)
		c.Close()
		if err != nil || res.Stdout != "hi\r\n" {
			t.Fatalf("login as %q: %+v, %v", user, res, err)
		}
	}
	ep := dev.Endpoint()
	ep.User = "root+cet1024w"
	c := sshx.NewClient("ros", sshx.Config{Endpoint: ep}, nil)
	defer c.Close()
	var ae *sshx.AuthError
	if _, err := c.Run(ctxT(t), `:put "hi"`); !errors.As(err, &ae) {
		t.Fatalf("another user with flags logged in: %v", err)
	}
}

// writeScript is every command form the RouterOS driver sends, as one
// exec each, ending in the driver's sentinel.
var writeScript = []string{
	`/system identity set name=r1`,
	`/ip address add address=198.18.1.1/24 interface=ether2 comment="routerlab"`,
	`/ip address add address=198.18.2.1/24 interface=ether3 comment=routerlab:lan; /ip address remove [ find address="198.18.2.1/24" interface=ether3 ]`,
	`/interface ethernet set [ find default-name=ether2 ] mtu=1400 comment=lan`,
	`/ip route add dst-address=198.18.9.0/24 gateway=198.18.1.2 comment=routerlab`,
	`/ip firewall filter add chain=forward action=fasttrack-connection connection-state=established,related comment="routerlab:fw"`,
	`/ip firewall filter add chain=input action=accept protocol=udp dst-port=500,1701,4500 comment="routerlab:fw"` + "\n" +
		`/ip firewall filter add chain=input action=drop comment=keep` + "\n" +
		`/ip firewall filter add chain=input action=accept protocol=ipsec-esp comment="routerlab:fw" place-before=[ find comment=keep ]`,
	`/ip pool add name=rl-l2tp ranges=198.18.9.10-198.18.9.20`,
	`/ppp profile add name=rl-l2tp local-address=198.18.9.1 remote-address=rl-l2tp change-tcp-mss=yes use-encryption=yes`,
	`/ppp secret add name=u1 password="x y" profile=rl-l2tp service=l2tp`,
	`/interface l2tp-server server set enabled=yes use-ipsec=yes ipsec-secret=lab-psk default-profile=rl-l2tp max-mtu=1350 max-mru=1350`,
	`/ip firewall connection tracking set enabled=no`,
	`/ip settings set allow-fast-path=no`,
	`/ppp profile set [ find name=default ] only-one=yes`,
	`/ip ipsec profile set [ find default=yes ] dh-group=modp1024`,
}

func TestEveryWriteFormOverSSH(t *testing.T) {
	for _, version := range []string{"7.13.4", "6.49.10"} {
		t.Run(version, func(t *testing.T) {
			g := newRig(t, Options{Version: version})
			for _, s := range writeScript {
				if out := g.run(t, s+"\n:put \"routerlab:done\""); out != "routerlab:done\n" {
					t.Fatalf("%s\nprinted %q", s, out)
				}
			}
			r := g.r
			if got := r.Get("/system identity", "name"); got != "r1" {
				t.Errorf("identity %q", got)
			}
			addrs := r.Items("/ip address")
			if len(addrs) != 1 || addrs[0]["address"] != "198.18.1.1/24" || addrs[0]["network"] != "198.18.1.0" || addrs[0]["comment"] != "routerlab" {
				t.Errorf("addresses %v", addrs)
			}
			if e := r.Items("/interface ethernet")[1]; e["mtu"] != "1400" || e["comment"] != "lan" || e["name"] != "ether2" {
				t.Errorf("ether2 %v", e)
			}
			var order []string
			for _, f := range r.Items("/ip firewall filter") {
				order = append(order, f["action"]+":"+f["comment"])
			}
			want := "fasttrack-connection:routerlab:fw accept:routerlab:fw accept:routerlab:fw drop:keep"
			if strings.Join(order, " ") != want {
				t.Errorf("filter order %v, want %s", order, want)
			}
			if got := r.Get("/interface l2tp-server server", "ipsec-secret"); got != "lab-psk" {
				t.Errorf("ipsec-secret %q", got)
			}
			if got := r.Get("/ip firewall connection tracking", "enabled"); got != "no" {
				t.Errorf("conntrack %q", got)
			}
			if got := r.Items("/ppp profile")[0]; got["name"] != "default" || got["only-one"] != "yes" {
				t.Errorf("default profile %v", got)
			}
			if got := r.Items("/ip ipsec profile")[0]["dh-group"]; got != "modp1024" {
				t.Errorf("default ipsec profile dh-group %q", got)
			}
			// The firewall rules routerlab owns go in one remove.
			g.run(t, `/ip firewall filter remove [ find comment~"^routerlab" ]`)
			if f := r.Items("/ip firewall filter"); len(f) != 1 || f[0]["comment"] != "keep" {
				t.Errorf("after remove: %v", f)
			}
		})
	}
}

// A script is read whole before it runs: a syntax error anywhere, even in
// its last line, means none of it runs, and the message names the place.
func TestSyntaxErrorRunsNothing(t *testing.T) {
	g := newRig(t, Options{})
	cases := []struct{ script, want string }{
		{"/ip address add address=198.18.1.1/24 interface=ether2\n/ip foo print", "bad command name foo (line 2 column 5)"},
		{"/system identity set name=r2; /interface wireguard2 add", "bad command name wireguard2 (line 1 column 42)"},
		{"/ip address add address=198.18.1.1/24 interface=ether2 colour=red", "expected end of command (line 1 column 56)"},
		{"/system identity set name=\"r2", "syntax error (line 1 column 27)"},
		{"/system identity set name=r2 [ find", "syntax error (line 1 column 30)"},
		{"/system identity set name=$x", "syntax error (line 1 column 27)"},
		// $ links a variable inside a string too; only \$ is the character.
		{`/system identity set name="a$x"`, "syntax error (line 1 column 29)"},
		{`/system identity set name="a$[/system identity set name=b]"`, "syntax error (line 1 column 29)"},
		{":frobnicate now", "bad command name frobnicate (line 1 column 2)"},
		{"/export verbose hide-sensitive", "expected end of command (line 1 column 17)"},
		{"/ip address print where", "expected end of command (line 1 column 19)"},
	}
	for _, c := range cases {
		before := g.r.Export()
		out := g.run(t, c.script)
		if out != c.want+"\n" {
			t.Errorf("%q printed %q, want %q", c.script, out, c.want)
		}
		if after := g.r.Export(); after != before {
			t.Errorf("%q changed the configuration:\n%s", c.script, after)
		}
	}
}

// Lines end at LF, CR LF or a lone CR (the Scripting manual's physical
// lines: unix, windows and mac line ends): a CR left bare in a script
// starts a second command.
func TestLineEnds(t *testing.T) {
	g := newRig(t, Options{})
	for _, sep := range []string{"\n", "\r\n", "\r", ";"} {
		g.run(t, "/system identity set name=a"+sep+"/system identity set name=b"+sep)
		if got := g.r.Get("/system identity", "name"); got != "b" {
			t.Errorf("separator %q: identity %q, want b (the second command did not run)", sep, got)
		}
		g.run(t, "/system identity set name=MikroTik")
	}
}

// A runtime error stops the script at that command; the commands before
// it stay applied and the ones after it never run.
func TestRuntimeErrorStopsTheScript(t *testing.T) {
	g := newRig(t, Options{})
	out := g.run(t, strings.Join([]string{
		`/system identity set name=before`,
		`/ip address add address=198.18.1.1/24 interface=ether2`,
		`/ip address add address=198.18.1.1/24 interface=ether2`,
		`/system identity set name=after`,
		`:put "routerlab:done"`,
	}, "\n"))
	if out != "failure: already have such address\n" {
		t.Fatalf("printed %q", out)
	}
	if got := g.r.Get("/system identity", "name"); got != "before" {
		t.Fatalf("identity %q: the commands around the failure ran wrong", got)
	}
	if n := len(g.r.Items("/ip address")); n != 1 {
		t.Fatalf("%d addresses", n)
	}
}

func TestRuntimeErrorMessages(t *testing.T) {
	for _, c := range []struct {
		version, setup, script, want string
	}{
		{"7.13.4", "", `/interface bridge add name=ether1`, "failure: already have interface with such name"},
		{"7.13.4", "/interface bridge add name=br1", `/interface ethernet set ether3 name=br1`, "failure: already have interface with such name"},
		{"7.13.4", "", `/ip address add address=198.18.1.1/24 interface=ether9`, "input does not match any value of interface"},
		{"7.13.4", "", `/ip firewall filter add chain=input protocol=udpx`, "input does not match any value of protocol"},
		{"7.13.4", "", `/ip firewall filter add chain=input action=dance`, "input does not match any value of action"},
		{"7.13.4", "", `/interface ethernet set ether1 mtu=70000`, "value of mtu out of range (0..65535)"},
		{"7.13.4", "", `/interface ethernet set ether1 mtu=big`, "invalid value for argument mtu"},
		{"7.13.4", "", `/ip address add address=198.18.1.300/24 interface=ether1`, "invalid value for argument address"},
		{"7.13.4", "", `/ip address remove numbers-of-nothing`, "no such item"},
		{"7.13.4", "", `/ip address remove 3`, "no such item"},
		{"7.13.4", "", `/ppp secret add name=u1 profile=nope`, "input does not match any value of profile"},
		{"7.13.4", "/ppp secret add name=u1", `/ppp secret add name=u1`, "failure: secret with the same name already exists"},
		{"7.13.4", "", `/ip address add interface=ether1`, "missing value(s) of argument(s) address"},
		{"7.13.4", "", `/ppp profile remove default`, "failure: default item can not be removed"},
		{"7.13.4", "", `/ip firewall connection tracking set enabled=maybe`, "input does not match any value of enabled"},
		{"6.49.10", "", `/interface wireguard add name=wg1`, "bad command name wireguard (line 1 column 12)"},
		{"6.49.10", "", `/export show-sensitive`, "expected end of command (line 1 column 9)"},
		{"6.44.6", "", `/ip ipsec active-peers print`, "bad command name active-peers (line 1 column 11)"},
		{"6.49.10", "", `/ip ipsec remote-peers print`, "bad command name remote-peers (line 1 column 11)"},
		{"7.13.4", "", `/ip ipsec remote-peers print`, "bad command name remote-peers (line 1 column 11)"},
	} {
		r := New(Options{Version: c.version})
		if c.setup != "" {
			r.MustRun(c.setup)
		}
		out, err := r.Run(c.script)
		if err == nil || lf(t, out) != c.want+"\n" {
			t.Errorf("v%s %q: printed %q (%v), want %q", c.version, c.script, out, err, c.want)
		}
	}
}

// Where RouterOS prints nothing for an empty find, set and remove of an
// empty [ find ] succeed doing nothing.
func TestEmptyFindIsNotAnError(t *testing.T) {
	r := New(Options{})
	if _, err := r.Run(`/ip firewall filter remove [ find comment~"^routerlab" ]; /ip address set [ find comment=x ] disabled=yes`); err != nil {
		t.Fatal(err)
	}
}

func TestPathsAndSeparators(t *testing.T) {
	r := New(Options{})
	// An export's own layout: a path line, then relative commands.
	r.MustRun("/ip address\nadd address=198.18.1.1/24 interface=ether2\nadd address=198.18.3.1/24 \\\n    interface=ether3\n/ip route\nadd gateway=198.18.1.254")
	// v7's slash paths, and ";" between commands.
	r.MustRun(`/ip/address/add address=198.18.4.1/24 interface=ether4; /ip/route add dst-address=198.18.8.0/24 gateway=198.18.4.254`)
	if n := len(r.Items("/ip address")); n != 3 {
		t.Fatalf("%d addresses", n)
	}
	if n := len(r.Items("/ip route")); n != 2 {
		t.Fatalf("%d routes", n)
	}
	out, err := New(Options{Version: "6.49.10"}).Run(`/ip/address/print`)
	if err == nil || lf(t, out) != "bad command name ip/address/print (line 1 column 2)\n" {
		t.Fatalf("v6 took a slash path: %q", out)
	}
	// :put of a get, and `set default` by name.
	r.MustRun(`/system identity set name="lab r1"; /ppp profile set default-encryption dns-server=198.18.0.53`)
	if out := r.MustRun(`:put [/system identity get name]`); out != "lab r1\r\n" {
		t.Fatalf(":put get printed %q", out)
	}
	if got := r.Items("/ppp profile")[1]; got["name"] != "default-encryption" || got["dns-server"] != "198.18.0.53" {
		t.Fatalf("default-encryption %v", got)
	}
}

func TestSwitchOffloadByBoardAndVersion(t *testing.T) {
	r := New(Options{})
	r.MustRun(`/interface ethernet switch set 0 l3-hw-offloading=yes`)
	if !strings.Contains(r.Export(), "/interface ethernet switch\r\nset 0 l3-hw-offloading=yes\r\n") {
		t.Fatalf("export:\n%s", r.Export())
	}
	out, _ := New(Options{Version: "6.49.10"}).Run(`/interface ethernet switch set 0 l3-hw-offloading=yes`)
	if lf(t, out) != "expected end of command (line 1 column 34)\n" {
		t.Fatalf("v6 has l3-hw-offloading: %q", out)
	}
	out, _ = New(Options{Model: "CHR"}).Run(`/interface ethernet switch set 0 l3-hw-offloading=yes`)
	if lf(t, out) != "bad command name switch (line 1 column 21)\n" {
		t.Fatalf("CHR has a switch: %q", out)
	}
}

func TestSensitiveValues(t *testing.T) {
	for _, c := range []struct {
		version, flags string
		shown          bool
	}{
		{"7.13.4", "", false},
		{"7.13.4", " show-sensitive", true},
		{"6.49.10", "", true},
		{"6.49.10", " hide-sensitive", false},
	} {
		r := New(Options{Version: c.version})
		r.MustRun(`/ppp secret add name=u1 password=pw-1; /interface l2tp-server server set ipsec-secret=psk-1`)
		for _, terse := range []string{"", " terse"} {
			out := r.MustRun("/export" + terse + c.flags)
			if got := strings.Contains(out, "password=pw-1") && strings.Contains(out, "ipsec-secret=psk-1"); got != c.shown {
				t.Errorf("v%s /export%s%s shows secrets: %v\n%s", c.version, terse, c.flags, got, out)
			}
			if !c.shown && (strings.Contains(out, "pw-1") || strings.Contains(out, "psk-1")) {
				t.Errorf("v%s /export%s%s leaks a secret:\n%s", c.version, terse, c.flags, out)
			}
		}
	}
}
