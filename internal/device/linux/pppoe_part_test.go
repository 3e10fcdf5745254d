package linux

import (
	"os"
	"os/exec"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Passwords with what pppd's options syntax must quote (a backslash, a
// hash, spaces, single quotes).
const (
	pppoeClientPassword = `cl1ent\pw #1 'x'`
	pppoeServerPassword = `srv\\pw 'y' #2`
)

// pppoeSeed002Client is seed 002's EdgeRouter 6P as a Linux PPPoE client:
// pppoe 0 on eth1 with user-id ppp1, default-route auto, name-server auto,
// mtu 1454 and the MSS_CLAMPING_PPPoE rule (tcp-mss 1414) both ways.
func pppoeSeed002Client() device.PPPoEConfig {
	return device.PPPoEConfig{
		Name: "wan0", Role: device.RoleClient, Interface: "eth1",
		MTU: ptr(1454), MRU: ptr(1454), MSSClamp: &device.MSSClamp{Value: 1414},
		User: "ppp1", Password: pppoeClientPassword, DefaultRoute: true, UsePeerDNS: true,
	}
}

// pppoeSeed002Server is seed 002's CHR PPPoE server (MTU 1454) as Linux runs
// it: pppoe-server on eth2 handing out a pool, one account.
func pppoeSeed002Server() device.PPPoEConfig {
	return device.PPPoEConfig{
		Name: "srv0", Role: device.RoleServer, Interface: "eth2", ServiceName: "lab",
		MTU: ptr(1454), MRU: ptr(1454),
		LocalAddress: "198.18.50.1", RemotePool: "198.18.50.10-198.18.50.254",
		Users: []device.PPPUser{{Name: "ppp1", Password: pppoeServerPassword}},
	}
}

// pppoeWithoutSecrets is what a snapshot may report of c.
func pppoeWithoutSecrets(c device.PPPoEConfig) device.PPPoEConfig {
	c.Password = ""
	c.Users = append([]device.PPPUser(nil), c.Users...)
	for i := range c.Users {
		c.Users[i].Password = ""
	}
	return c
}

func pppoeSecrets(c device.PPPoEConfig) []string {
	var s []string
	if c.Password != "" {
		s = append(s, c.Password, pppQuote(c.Password))
	}
	for _, u := range c.Users {
		s = append(s, u.Password, pppQuote(u.Password))
	}
	return s
}

func TestRenderPPPoEGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		c      device.PPPoEConfig
	}{
		{"pppoe_client.sh.golden", pppoeSeed002Client()},
		{"pppoe_server.sh.golden", pppoeSeed002Server()},
	} {
		got, err := RenderPPPoE(tc.c)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, tc.golden, got)
	}
	del, err := RenderPPPoEDelete("wan0")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "pppoe_delete.sh.golden", del)
	if _, err := RenderPPPoEDelete("../x"); err == nil {
		t.Error("RenderPPPoEDelete accepted a name that is not an object name")
	}
}

var pppoeHereDoc = regexp.MustCompile(`(?m)^(?:cat > (\S+)|nft -f -) <<'ROUTERLAB_EOF'\n((?s:.*?))^ROUTERLAB_EOF$`)

// pppoeScriptFiles returns the files a rendered script writes, by path, and the
// script with every here-document body cut out: what `sh -x` traces.
func pppoeScriptFiles(t *testing.T, c device.PPPoEConfig) (map[string]string, string) {
	t.Helper()
	script, err := RenderPPPoE(c)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, m := range pppoeHereDoc.FindAllStringSubmatch(script, -1) {
		if m[1] != "" {
			files[m[1]] = m[2]
		}
	}
	return files, pppoeHereDoc.ReplaceAllString(script, "<here-document>")
}

// A password reaches its own file under secretDir, written after umask
// 077, and nothing else: no traced command, no other file.
func TestPPPoESecretsOnlyInSecretFiles(t *testing.T) {
	for _, c := range []device.PPPoEConfig{pppoeSeed002Client(), pppoeSeed002Server()} {
		files, traced := pppoeScriptFiles(t, c)
		script, _ := RenderPPPoE(c)
		umask, firstSecret := strings.Index(script, "umask 077\n"), strings.Index(script, "cat > "+secretDir)
		if umask < 0 || firstSecret < 0 || umask > firstSecret {
			t.Errorf("%s: umask 077 at %d must come before the first secret file at %d", c.Name, umask, firstSecret)
		}
		inSecret := false
		for p, body := range files {
			for _, s := range pppoeSecrets(c) {
				switch {
				case strings.HasPrefix(p, secretDir+"/"):
					inSecret = inSecret || strings.Contains(body, s)
				case strings.Contains(body, s):
					t.Errorf("%s: a password is in %s, which is not a secret file:\n%s", c.Name, p, body)
				}
			}
		}
		if !inSecret {
			t.Errorf("%s: no secret file carries the password (files: %v)", c.Name, device.SortedKeys(files))
		}
		for _, s := range pppoeSecrets(c) {
			if strings.Contains(traced, s) {
				t.Errorf("%s: a password is on a traced command line:\n%s", c.Name, traced)
			}
		}
	}
	bad := pppoeSeed002Client()
	bad.Password = "line\nzq9secret"
	if _, err := RenderPPPoE(bad); err == nil || strings.Contains(err.Error(), "zq9secret") {
		t.Errorf("a password with a line break: err = %v (must fail without quoting it)", err)
	}
}

// pppoeSnapshotOutput is snapshot_router.txt with sections replaced or added
// (in the order given).
func pppoeSnapshotOutput(t *testing.T, secs ...[2]string) string {
	t.Helper()
	var names []string
	bodies := map[string]string{}
	for _, part := range strings.Split(readFixture(t, "snapshot_router.txt"), "\n##")[0:] {
		name, body, _ := strings.Cut(strings.TrimPrefix(part, "##"), "\n")
		names = append(names, name)
		bodies[name] = body
	}
	for _, s := range secs {
		if _, ok := bodies[s[0]]; !ok {
			names = append(names, s[0])
		}
		bodies[s[0]] = s[1]
	}
	var b strings.Builder
	for _, n := range names {
		b.WriteString("##" + n + "\n" + strings.TrimSuffix(bodies[n], "\n") + "\n")
	}
	return b.String()
}

// pppoeSections is what pppoeSnapshotScript prints for the files a
// rendered script writes (the shell test runs the script itself): the
// options files line by line behind their path, and the account names of
// the chap-secrets block (the awk program's output).
func pppoeSections(files map[string]string) [][2]string {
	var paths []string
	for p := range files {
		if path.Dir(p) == pppoeDir && strings.HasSuffix(p, "options") {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var fl, users []string
	for _, p := range paths {
		for _, l := range strings.Split(strings.TrimSuffix(files[p], "\n"), "\n") {
			fl = append(fl, p+":"+l)
		}
	}
	for p, body := range files {
		if !strings.HasSuffix(p, ".chap") {
			continue
		}
		block := ""
		for _, l := range strings.Split(body, "\n") {
			f := strings.Fields(l)
			switch {
			case len(f) == 4 && f[0] == "#" && f[1] == "routerlab" && f[3] == "begin":
				block = f[2]
			case len(f) == 4 && f[0] == "#" && f[1] == "routerlab" && f[3] == "end":
				block = ""
			case block != "" && len(f) >= 3 && !strings.HasPrefix(f[0], "#"):
				users = append(users, block+" "+f[0])
			}
		}
	}
	return [][2]string{{"pppoe-files", strings.Join(fl, "\n")}, {"pppoe-users", strings.Join(users, "\n")}}
}

func parsePPPoEFiles(t *testing.T, files map[string]string, nftJSON string) *device.Snapshot {
	t.Helper()
	secs := append([][2]string{{"nft", nftJSON}}, pppoeSections(files)...)
	snap, err := ParseSnapshot(pppoeSnapshotOutput(t, secs...))
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// What the renderer writes reads back as the configuration without its
// secrets: no drift right after an apply. The clamp is read from nft's
// JSON for the chain renderPPPoEClamp writes (captured from nft 1.0.6).
func TestPPPoERoundTrip(t *testing.T) {
	for _, tc := range []struct {
		c   device.PPPoEConfig
		nft string
	}{
		{pppoeSeed002Client(), readFixture(t, "pppoe_nft_wan0.json")},
		{pppoeSeed002Server(), "{}"},
		{func() device.PPPoEConfig {
			c := pppoeSeed002Client()
			c.ServiceName, c.MTU, c.MRU, c.DefaultRoute, c.UsePeerDNS = "isp-1", nil, ptr(1492), false, false
			c.MSSClamp = &device.MSSClamp{ToPMTU: true}
			return c
		}(), readFixture(t, "pppoe_nft_wan0_pmtu.json")},
		{func() device.PPPoEConfig {
			c := pppoeSeed002Server()
			c.ServiceName, c.MTU, c.MRU, c.RemotePool = "", nil, nil, "198.18.51.0/24"
			c.Users = append(c.Users, device.PPPUser{Name: "user@lab", Password: "x"})
			return c
		}(), "{}"},
	} {
		files, _ := pppoeScriptFiles(t, tc.c)
		snap := parsePPPoEFiles(t, files, tc.nft)
		got, ok := snap.PPPoE[tc.c.Name]
		if !ok {
			t.Fatalf("%s: not in the snapshot (have %v)", tc.c.Name, device.SortedKeys(snap.PPPoE))
		}
		if want := pppoeWithoutSecrets(tc.c); !reflect.DeepEqual(got.PPPoEConfig, want) {
			t.Errorf("%s: read back\n%+v\nwant\n%+v", tc.c.Name, got.PPPoEConfig, want)
		}
		for _, s := range pppoeSecrets(tc.c) {
			if strings.Contains(snap.Text, s) {
				t.Errorf("%s: a password is in the normalised text", tc.c.Name)
			}
		}
		if !strings.Contains(snap.Text, "pppoe "+tc.c.Name+" role "+tc.c.Role+"\n") {
			t.Errorf("%s: no role line in\n%s", tc.c.Name, snap.Text)
		}
		if st := snap.Status.PPPoE[tc.c.Name]; st.Established {
			t.Errorf("%s: established without a PPP interface or a server process: %+v", tc.c.Name, st)
		}
	}
}

// The text of seed 002's client and server sessions, read back from what
// the renderer wrote, is fixed by a golden file.
func TestPPPoETextGolden(t *testing.T) {
	files, _ := pppoeScriptFiles(t, pppoeSeed002Client())
	sfiles, _ := pppoeScriptFiles(t, pppoeSeed002Server())
	for p, b := range sfiles {
		files[p] = b
	}
	snap := parsePPPoEFiles(t, files, readFixture(t, "pppoe_nft_wan0.json"))
	golden(t, "pppoe_text.golden", pppoeLines(snap.Text))
}

// A hand edit of what routerlab wrote is drift: a modelled setting changes
// the state, anything else at least the text and its digest.
func TestPPPoEDrift(t *testing.T) {
	c := pppoeSeed002Client()
	files, _ := pppoeScriptFiles(t, c)
	nft := readFixture(t, "pppoe_nft_wan0.json")
	base := parsePPPoEFiles(t, files, nft)
	opts := pppoeClientOptions(c.Name)
	edit := func(from, to string) map[string]string {
		if !strings.Contains(files[opts], from) {
			t.Fatalf("%q not in the options file", from)
		}
		e := map[string]string{}
		for p, b := range files {
			e[p] = b
		}
		e[opts] = strings.Replace(files[opts], from, to, 1)
		return e
	}
	mtu := parsePPPoEFiles(t, edit("mtu 1454\n", "mtu 1400\n"), nft)
	if m := mtu.PPPoE[c.Name].MTU; m == nil || *m != 1400 {
		t.Errorf("mtu edited to 1400: state mtu = %v", m)
	}
	if mtu.SHA256 == base.SHA256 {
		t.Error("mtu edited: digest unchanged")
	}
	persist := parsePPPoEFiles(t, edit("persist\n", ""), nft)
	if !reflect.DeepEqual(persist.PPPoE, base.PPPoE) {
		t.Errorf("persist removed: the modelled state changed: %+v", persist.PPPoE[c.Name])
	}
	if persist.SHA256 == base.SHA256 || strings.Contains(persist.Text, "pppoe wan0 pppd persist\n") {
		t.Error("persist removed: the text still shows it")
	}
	route := parsePPPoEFiles(t, edit("defaultroute\n", "nodefaultroute\n"), nft)
	if route.PPPoE[c.Name].DefaultRoute {
		t.Error("defaultroute replaced by nodefaultroute: still a default route")
	}
	iface := parsePPPoEFiles(t, edit("nic-eth1\n", "eth2\n"), nft)
	if got := iface.PPPoE[c.Name].Interface; got != "eth2" {
		t.Errorf("device changed to a bare eth2: interface = %q", got)
	}
	pw := parsePPPoEFiles(t, edit("hide-password\n", "password \"handmade-secret\"\n"), nft)
	if strings.Contains(pw.Text, "handmade-secret") || !strings.Contains(pw.Text, "pppoe wan0 pppd password (hidden)\n") {
		t.Errorf("a password put in the options file by hand must be hidden in the text:\n%s", pw.Text)
	}
	noClamp := parsePPPoEFiles(t, files, "{}")
	if noClamp.PPPoE[c.Name].MSSClamp != nil || noClamp.SHA256 == base.SHA256 {
		t.Error("chain gone: the clamp is still reported")
	}
	other := strings.Replace(nft, `"value": 1414}}]}}]}`, `"value": 1300}}]}}]}`, 1)
	if other == nft {
		t.Fatal("fixture changed: the iifname rule's value not found")
	}
	if edited := parsePPPoEFiles(t, files, other); edited.SHA256 == base.SHA256 {
		t.Error("one clamp rule edited: digest unchanged")
	}

	s := pppoeSeed002Server()
	sfiles, _ := pppoeScriptFiles(t, s)
	sbase := parsePPPoEFiles(t, sfiles, "{}")
	chap := pppoeServerSecret(s.Name)
	sfiles[chap] = strings.Replace(sfiles[chap], `"ppp1"`, `"intruder"`, 1)
	if got := parsePPPoEFiles(t, sfiles, "{}"); reflect.DeepEqual(got.PPPoE, sbase.PPPoE) || got.SHA256 == sbase.SHA256 {
		t.Errorf("account renamed in chap-secrets: users = %+v", got.PPPoE[s.Name].Users)
	}
}

// pppoe_snapshot.txt is a whole snapshot of a router running both of
// seed 002's sessions: the options files, the chap-secrets names, the
// processes with our files as arguments, and in ##addr the client's PPP
// interface with the peer's address.
func TestParsePPPoESnapshotFixture(t *testing.T) {
	snap, err := ParseSnapshot(readFixture(t, "pppoe_snapshot.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want := pppoeWithoutSecrets(pppoeSeed002Client()); !reflect.DeepEqual(snap.PPPoE["wan0"].PPPoEConfig, want) {
		t.Errorf("wan0 = %+v\nwant %+v", snap.PPPoE["wan0"].PPPoEConfig, want)
	}
	if want := pppoeWithoutSecrets(pppoeSeed002Server()); !reflect.DeepEqual(snap.PPPoE["srv0"].PPPoEConfig, want) {
		t.Errorf("srv0 = %+v\nwant %+v", snap.PPPoE["srv0"].PPPoEConfig, want)
	}
	if len(snap.PPPoE) != 2 {
		t.Errorf("sessions = %v (a file whose name is not an object name is not ours)", device.SortedKeys(snap.PPPoE))
	}
	want := map[string]device.PPPoEStatus{
		"wan0": {Established: true, Interface: "wan0", LocalAddress: "198.18.50.10", RemoteAddress: "198.18.50.1"},
		"srv0": {Established: true, Interface: "eth2", LocalAddress: "198.18.50.1"},
	}
	if !reflect.DeepEqual(snap.Status.PPPoE, want) {
		t.Errorf("status = %+v\nwant %+v", snap.Status.PPPoE, want)
	}
	// The same text as the files the renderer writes read back.
	golden(t, "pppoe_text.golden", pppoeLines(snap.Text))
}

// pppoeLines are the PPPoE part's lines of a normalised text.
func pppoeLines(text string) string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "pppoe ") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestValidatePPPoE(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*device.PPPoEConfig)
		want string // "" : valid
	}{
		{"client", func(*device.PPPoEConfig) {}, ""},
		{"interface too long", func(c *device.PPPoEConfig) { c.Interface = "enp0s31f6longname" }, `interface "enp0s31f6longname": Linux names are at most 15`},
		{"mtu over pppoe", func(c *device.PPPoEConfig) { c.MTU = ptr(1500) }, "mtu 1500 is out of range"},
		{"own name as interface", func(c *device.PPPoEConfig) { c.Interface = "wan0" }, `interface "wan0" is the session's own name`},
		{"shape: user", func(c *device.PPPoEConfig) { c.User = "a b" }, `user "a b"`},
	} {
		c := pppoeSeed002Client()
		tc.edit(&c)
		pppoeCheckErr(t, tc.name, ValidatePPPoE(c), tc.want)
	}
	for _, tc := range []struct {
		name string
		edit func(*device.PPPoEConfig)
		want string
	}{
		{"server", func(*device.PPPoEConfig) {}, ""},
		{"local with prefix", func(c *device.PPPoEConfig) { c.LocalAddress = "198.18.50.1/32" }, "not an IP address"},
		{"local in pool", func(c *device.PPPoEConfig) { c.LocalAddress = "198.18.50.20" }, "lies inside remote_pool"},
		{"ipv6 local", func(c *device.PPPoEConfig) { c.LocalAddress = "2001:db8::1" }, "pppoe-server takes an IPv4 address"},
		{"pool too big", func(c *device.PPPoEConfig) { c.RemotePool = "198.18.0.0/15" }, "holds 131070 addresses"},
		{"user twice", func(c *device.PPPoEConfig) {
			c.Users = append(c.Users, device.PPPUser{Name: "ppp1", Password: "other"})
		}, `user "ppp1" is listed twice`},
	} {
		c := pppoeSeed002Server()
		tc.edit(&c)
		err := ValidatePPPoE(c)
		pppoeCheckErr(t, tc.name, err, tc.want)
		if err != nil && strings.Contains(err.Error(), pppoeServerPassword) {
			t.Errorf("%s: the error shows a password", tc.name)
		}
	}
}

func pppoeCheckErr(t *testing.T, name string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v", name, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: err = %v, want it to contain %q", name, err, want)
	}
}

func pppoeRouterSnapshot(t *testing.T, missing ...string) *device.Snapshot {
	t.Helper()
	snap, err := ParseSnapshot(readFixture(t, "snapshot_router.txt"))
	if err != nil {
		t.Fatal(err)
	}
	snap.Facts.Missing = missing
	return snap
}

func TestCheckPPPoE(t *testing.T) {
	d := &Driver{}
	client, server := pppoeSeed002Client(), pppoeSeed002Server()
	pppoeCheckErr(t, "client", d.CheckPPPoE(client, pppoeRouterSnapshot(t)), "")
	pppoeCheckErr(t, "server", d.CheckPPPoE(server, pppoeRouterSnapshot(t)), "")
	pppoeCheckErr(t, "no /dev/ppp", d.CheckPPPoE(client, pppoeRouterSnapshot(t, "/dev/ppp")),
		"a PPPoE client needs the kernel's PPP support, and this device has no /dev/ppp")
	pppoeCheckErr(t, "no pppoe-server", d.CheckPPPoE(server, pppoeRouterSnapshot(t, "pppoe-server")),
		"a PPPoE server needs pppoe-server on the device, which it lacks: install pppoe")
	pppoeCheckErr(t, "clamp without nft", d.CheckPPPoE(client, pppoeRouterSnapshot(t, "nft")), "needs nft")
	gone := client
	gone.Interface = "eth9"
	pppoeCheckErr(t, "no such interface", d.CheckPPPoE(gone, pppoeRouterSnapshot(t)), `interface "eth9" not found on the device; it has: eth1, eth2, lo`)
	taken := client
	taken.Name = "eth2"
	pppoeCheckErr(t, "name of an interface", d.CheckPPPoE(taken, pppoeRouterSnapshot(t)), `an interface named "eth2" already exists`)
	snap := pppoeRouterSnapshot(t)
	snap.Tunnels = map[string]device.TunnelState{"wan0": {TunnelConfig: device.TunnelConfig{Name: "wan0", Type: device.TunnelWireGuard}}}
	pppoeCheckErr(t, "name of a tunnel", d.CheckPPPoE(client, snap), `a wireguard tunnel named "wan0" already exists`)
	snap = pppoeRouterSnapshot(t)
	snap.Router.Interfaces["wan0"] = device.InterfaceState{Name: "wan0"}
	snap.PPPoE = map[string]device.PPPoEState{"wan0": {PPPoEConfig: pppoeWithoutSecrets(client)}}
	pppoeCheckErr(t, "the session's own interface", d.CheckPPPoE(client, snap), "")
}

// This machine's own answer: the snapshot's probe of tools and /dev/ppp,
// run here, must make CheckPPPoE name the missing kernel support exactly
// when the kernel has no PPP (the development machines have none).
func TestCheckPPPoEOnThisMachine(t *testing.T) {
	_, probe, ok := strings.Cut(snapshotScript, "echo '##missing'\n")
	if !ok {
		t.Fatal("snapshotScript has no ##missing section")
	}
	out, err := exec.Command("sh", "-c", probe).Output()
	if err != nil {
		t.Fatalf("missing probe: %v", err)
	}
	missing := strings.Fields(string(out))
	err = (&Driver{}).CheckPPPoE(pppoeSeed002Client(), pppoeRouterSnapshot(t, missing...))
	fi, statErr := os.Stat("/dev/ppp")
	hasPPP := statErr == nil && fi.Mode()&os.ModeCharDevice != 0
	named := err != nil && strings.Contains(err.Error(), "no /dev/ppp") && strings.Contains(err.Error(), "modprobe ppp_generic")
	if hasPPP == named {
		t.Errorf("kernel PPP support here: %v; missing = %v; CheckPPPoE: %v", hasPPP, missing, err)
	}
}

func TestPPPWords(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		// Debian's README for pppoe quotes a T-Online user name with a #.
		{`user "111111111111222222222222#0001@t-online.de"`, []string{"user", "111111111111222222222222#0001@t-online.de"}},
		{`mtu 1454 # the seed's`, []string{"mtu", "1454"}},
		{`# routerlab pppoe wan0`, nil},
		{`password 'it"s'`, []string{"password", `it"s`}},
		{`name a\sb\tc\101\x42`, []string{"name", "a b\tcAB"}},
		{`"ppp1" * "se\"cr\\et" *`, []string{"ppp1", "*", `se"cr\et`, "*"}},
		{`nic-eth1`, []string{"nic-eth1"}},
		{`x""y ""`, []string{"xy", ""}},
	} {
		if got := pppWords(tc.line); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("pppWords(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// FuzzPPPQuote proves a quoted value reads back whole through pppd's
// word rules, whatever it holds (one line of text).
func FuzzPPPQuote(f *testing.F) {
	for _, s := range []string{"", "plain", pppoeClientPassword, pppoeServerPassword, `a"b`, `\`, `#`, "tab\tx", `\x41\101`, "ünï"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\n\x00") {
			t.Skip("one line, no NUL")
		}
		if got := pppWords(pppQuote(s)); len(got) != 1 || got[0] != s {
			t.Fatalf("pppWords(pppQuote(%q)) = %q", s, got)
		}
		if got := pppWords(pppWord(s)); len(got) != 1 || got[0] != s {
			t.Fatalf("pppWords(pppWord(%q)) = %q", s, got)
		}
	})
}
