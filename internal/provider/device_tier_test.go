package provider

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// The device tier (issue 24 point 1). Every vendor acceptance test
// changes one vendorRouter: by default a simulator the test starts in
// this process, loaded with the test's starting configuration; with
// ROUTERLAB_TEST_<PLATFORM>_HOST set, the device those variables name
// (a router on the desk, or a simulator `make sim-up` started, which is
// how CI exercises this path). Either way the test reaches the router
// over SSH only, through the transport and dialect the provider uses:
// its whole configuration (`/export`, `show configuration commands`,
// `show config`) is read before the test and compared byte for byte
// after destroy, and changes "by hand" are typed at the router's own
// CLI. Nothing is guessed: a device's interfaces the test may touch are
// listed in ROUTERLAB_TEST_<PLATFORM>_INTERFACES and stand in for the
// names the test's HCL uses. CONTRIBUTING.md "Testing against your own
// router" is the user's side of this.

// deviceTierVars are the variables of one platform's device, after the
// prefix ROUTERLAB_TEST_<PLATFORM>_.
var deviceTierVars = []string{
	"HOST",             // required: names the device and selects the tier
	"PORT",             // default 22
	"USER",             // required
	"PASSWORD",         // a password, or
	"PRIVATE_KEY_FILE", // a private key file (or both)
	"KNOWN_HOSTS",      // a known_hosts file with the device's key, or
	"HOST_KEY",         // the device's host key line ("ssh-ed25519 AAAA...")
	"ADMIN_PASSWORD",   // RTX: the administrator password
	"INTERFACES",       // required: the interfaces the tests may change, comma-separated
}

// deviceTierPrefix is platform p's variable prefix.
func deviceTierPrefix(p device.Platform) string {
	return "ROUTERLAB_TEST_" + strings.ToUpper(string(p)) + "_"
}

// onePerDevice serialises the tests on one device: they run in parallel
// against simulators of their own, but share a device, whose
// configuration each one must find as the one before left it.
var onePerDevice sync.Map // platform → *sync.Mutex

// vendorRouter is the router one vendor acceptance test changes.
type vendorRouter struct {
	platform device.Platform
	name     string // the device's name in the test's HCL
	// Sim is the simulator when the test started it (nil on a device):
	// for the checks only a simulator can make (its saved configuration,
	// faults). The test's changes never go through it.
	Sim      devicesim.Handler
	onDevice bool
	ssh      sshx.Config
	block    string            // the device block's connection lines
	rename   map[string]string // the test's interface names → the device's
	before   string            // the whole configuration before the test
}

// simRouter is a vendorRouter for the simulator dev runs (started by the
// test with its starting configuration), unless the environment names a
// device of platform p: then dev is not used (start it lazily with
// startSim, which is only called without a device), the test's
// interfaces are renamed to the device's, and the test holds the device
// until it ends. ifaces are the interface names the test's HCL and
// changes use, in the order ROUTERLAB_TEST_<P>_INTERFACES lists the
// device's.
func simRouter(t *testing.T, p device.Platform, name string, ifaces []string, startSim func() (devicesim.Handler, *devicesim.Device), adminPassword string) *vendorRouter {
	t.Helper()
	r := &vendorRouter{platform: p, name: name}
	if os.Getenv(deviceTierPrefix(p)+"HOST") != "" {
		r.fromEnvironment(t, ifaces)
	} else {
		h, dev := startSim()
		r.Sim = h
		ep := dev.Endpoint()
		r.ssh = sshx.Config{Endpoint: ep, Dialect: drivers.Dialect(p), EnablePassword: adminPassword}
		r.block = fmt.Sprintf("    host = %q\n    port = %d\n    username = %q\n    password = %q\n    host_key = %q\n",
			ep.Host, ep.Port, ep.User, ep.Password, strings.TrimSpace(ep.HostKey))
		if adminPassword != "" {
			r.block += fmt.Sprintf("    administrator_password = %q\n", adminPassword)
		}
	}
	r.before = r.checkRestorable(t, ifaces)
	return r
}

// fromEnvironment fills r from ROUTERLAB_TEST_<P>_*, failing the test
// (never skipping it) on what is missing, and takes the device for the
// rest of the test.
func (r *vendorRouter) fromEnvironment(t *testing.T, ifaces []string) {
	t.Helper()
	pre := deviceTierPrefix(r.platform)
	get := func(k string) string { return os.Getenv(pre + k) }
	for _, k := range []string{"USER", "INTERFACES"} {
		if get(k) == "" {
			t.Fatalf("%sHOST names a device, so %s%s is needed too (the device tier guesses nothing); the variables are %s*: %s",
				pre, pre, k, pre, strings.Join(deviceTierVars, ", "))
		}
	}
	if get("PASSWORD") == "" && get("PRIVATE_KEY_FILE") == "" {
		t.Fatalf("%sPASSWORD or %sPRIVATE_KEY_FILE is needed to log in to %s", pre, pre, get("HOST"))
	}
	if get("KNOWN_HOSTS") == "" && get("HOST_KEY") == "" {
		t.Fatalf("%sKNOWN_HOSTS or %sHOST_KEY is needed: the device tier verifies the device's host key as the provider does", pre, pre)
	}
	if r.platform == device.RTX && get("ADMIN_PASSWORD") == "" {
		t.Fatalf("%sADMIN_PASSWORD is needed: every RTX change is typed in administrator mode", pre)
	}
	port := sshx.DefaultPort
	if s := get("PORT"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 65535 {
			t.Fatalf("%sPORT = %q: want a TCP port (1-65535)", pre, s)
		}
		port = n
	}
	var have []string
	for _, s := range strings.Split(get("INTERFACES"), ",") {
		if s = strings.TrimSpace(s); s != "" {
			have = append(have, s)
		}
	}
	if len(have) < len(ifaces) {
		t.Fatalf("%sINTERFACES lists %d interfaces (%s); this test changes %d (it calls them %s): list as many the tests may change",
			pre, len(have), strings.Join(have, ","), len(ifaces), strings.Join(ifaces, ","))
	}
	r.rename = map[string]string{}
	for i, n := range ifaces {
		r.rename[n] = have[i]
	}
	ep := sshx.Endpoint{Host: get("HOST"), Port: port, User: get("USER"), Auth: sshx.Auth{Password: get("PASSWORD")},
		KnownHostsFile: get("KNOWN_HOSTS"), HostKey: get("HOST_KEY"), ConnectTimeout: 10 * time.Second}
	r.block = fmt.Sprintf("    host = %q\n    port = %d\n    username = %q\n", ep.Host, ep.Port, ep.User)
	if ep.Password != "" {
		r.block += fmt.Sprintf("    password = %q\n", ep.Password)
	}
	if f := get("PRIVATE_KEY_FILE"); f != "" {
		key, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("%sPRIVATE_KEY_FILE: %v", pre, err)
		}
		ep.PrivateKey = string(key)
		r.block += fmt.Sprintf("    private_key = file(%q)\n", f)
	}
	if ep.HostKey != "" {
		r.block += fmt.Sprintf("    host_key = %q\n", ep.HostKey)
	} else {
		r.block += fmt.Sprintf("    known_hosts_file = %q\n", ep.KnownHostsFile)
	}
	if a := get("ADMIN_PASSWORD"); a != "" {
		r.block += fmt.Sprintf("    administrator_password = %q\n", a)
	}
	r.ssh = sshx.Config{Endpoint: ep, Dialect: drivers.Dialect(r.platform), EnablePassword: get("ADMIN_PASSWORD")}
	r.onDevice = true
	mu, _ := onePerDevice.LoadOrStore(r.platform, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	t.Cleanup(mu.(*sync.Mutex).Unlock)
}

// OnDevice reports whether the test runs against a device the
// environment named rather than a simulator of its own.
func (r *vendorRouter) OnDevice() bool { return r.onDevice }

// Device is the provider's device block for the router.
func (r *vendorRouter) Device() string {
	return fmt.Sprintf("  device {\n    name = %q\n    platform = %q\n%s  }\n", r.name, r.platform, r.block)
}

// Provider is a provider block with the router alone.
func (r *vendorRouter) Provider() string {
	return "provider \"routerlab\" {\n  ssh { connect_timeout = \"10s\" }\n" + r.Device() + "}\n"
}

// interfaceWord matches interface-like words for HCL's renaming.
var interfaceWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*`)

// HCL renames the test's interfaces in s to the device's (no change on a
// simulator of the test's own).
func (r *vendorRouter) HCL(s string) string {
	if len(r.rename) == 0 {
		return s
	}
	return interfaceWord.ReplaceAllStringFunc(s, func(w string) string {
		if n, ok := r.rename[w]; ok {
			return n
		}
		return w
	})
}

// Interface is the device's name for the test's interface name.
func (r *vendorRouter) Interface(name string) string { return r.HCL(name) }

// console is a fresh SSH client of the test's own, independent of the
// provider under test.
func (r *vendorRouter) console(t *testing.T, f func(ctx context.Context, c *sshx.Client) error) {
	t.Helper()
	c := sshx.NewClient(r.name, r.ssh, nil)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if err := f(ctx, c); err != nil {
		t.Fatalf("%s (%s at %s): %v", r.name, r.platform, r.ssh.Addr(), err)
	}
}

// wholeCommand is what prints platform p's whole configuration: the
// command parse_config reads (drivers.ConfigPlatforms), run as the
// router's own CLI runs it over SSH.
func wholeCommand(p device.Platform) string {
	switch p {
	case device.EdgeOS, device.VyOS:
		return "/opt/vyatta/bin/vyatta-op-cmd-wrapper show configuration commands"
	}
	return drivers.ConfigPlatforms()[string(p)]
}

// Whole is the router's whole configuration as its own CLI prints it,
// without the comment header RouterOS and RTX print first (a date, the
// uptime: not configuration).
func (r *vendorRouter) Whole(t *testing.T) string {
	t.Helper()
	return r.Printed(t, wholeCommand(r.platform))
}

// Printed is what command, one that prints configuration (RouterOS's
// `/export terse`, say), prints on the router, without the comment
// header as in Whole.
func (r *vendorRouter) Printed(t *testing.T, command string) string {
	t.Helper()
	var out string
	r.console(t, func(ctx context.Context, c *sshx.Client) error {
		res, err := c.Run(ctx, command)
		if err != nil {
			return err
		}
		if res.ExitStatus != 0 {
			return fmt.Errorf("%s: exit %d: %s", command, res.ExitStatus, device.Snippet(res.Stderr+res.Stdout))
		}
		out = withoutHeader(res.Stdout)
		return nil
	})
	return out
}

// withoutHeader drops the leading "#" comment lines of an export or
// `show config`. An RTX header ends with its "# Reporting Date:" line
// (published outputs: internal/device/rtx/config.go, testdata real_*.txt),
// and its "# main:" line, longer than the console's 80 columns, wraps
// onto a row without "#".
func withoutHeader(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "# Reporting Date:") {
			return strings.Join(lines[i+1:], "\n")
		}
	}
	i := 0
	for i < len(lines) && (strings.HasPrefix(lines[i], "#") || strings.TrimSpace(lines[i]) == "") {
		i++
	}
	return strings.Join(lines[i:], "\n")
}

// byHandMark ends a RouterOS script typed by hand: RouterOS stops a
// script at its first failing command and still exits 0, so only the
// mark printed tells that every line ran (as the driver's scripts do).
const byHandMark = "routerlab-test-by-hand-done"

// ByHand types lines at the router's own CLI, as its owner would behind
// Terraform's back: RouterOS commands as one script; EdgeOS and VyOS
// `set`/`delete` lines (shell words: each is typed after the
// configuration wrapper) in one session, committed and saved; RTX
// console lines in administrator mode, then `save`. Interface names are
// renamed as in HCL.
func (r *vendorRouter) ByHand(t *testing.T, lines ...string) string {
	t.Helper()
	lines = slices.Clone(lines) // the caller's lines stay the test's names: a second call renames them once too
	for i := range lines {
		lines[i] = r.HCL(lines[i])
	}
	var out string
	r.console(t, func(ctx context.Context, c *sshx.Client) error {
		var res sshx.Result
		var err error
		switch r.platform {
		case device.RouterOS:
			res, err = c.Run(ctx, strings.Join(lines, "\n")+"\n:put \""+byHandMark+"\"")
			if err == nil && !strings.Contains(res.Stdout, byHandMark) {
				err = fmt.Errorf("by hand: the script stopped before its end: %s", device.Snippet(res.Stdout+res.Stderr))
			}
		case device.EdgeOS, device.VyOS:
			res, err = c.RunWrite(ctx, "sg vyattacfg -c 'sh -s'", []byte(vyattaByHand(lines)))
		case device.RTX:
			res, err = c.Run(ctx, strings.Join(append(lines, "save"), "\n"))
		default:
			err = fmt.Errorf("no by-hand console for platform %s", r.platform)
		}
		if err == nil && res.ExitStatus != 0 {
			err = fmt.Errorf("by hand %q: exit %d: %s", lines, res.ExitStatus, device.Snippet(res.Stderr+res.Stdout))
		}
		out = res.Stdout
		return err
	})
	return out
}

// vyattaByHand is a configuration session as an owner scripts one
// (Vyatta's documented scripting: vyatta-cfg-cmd-wrapper begin, the
// lines, commit, save, end), stopping at the first line that fails.
func vyattaByHand(lines []string) string {
	var b strings.Builder
	b.WriteString("W=/opt/vyatta/sbin/vyatta-cfg-cmd-wrapper\n\"$W\" begin || exit 1\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "\"$W\" %s || { \"$W\" end; exit 1; }\n", l)
	}
	b.WriteString("\"$W\" commit || { \"$W\" end; exit 1; }\n\"$W\" save || { \"$W\" end; exit 1; }\n\"$W\" end\n")
	return b.String()
}

// Has checks that the router's whole configuration has every one of
// want (renamed as in HCL).
func (r *vendorRouter) Has(t *testing.T, want ...string) resource.TestCheckFunc {
	return r.PrintedHas(t, wholeCommand(r.platform), want...)
}

// PrintedHas checks that what command prints (Printed) has every one of
// want (renamed as in HCL): RouterOS's `/export terse`, whose every line
// carries its menu, for a check of one setting.
func (r *vendorRouter) PrintedHas(t *testing.T, command string, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		whole, what := r.Printed(t, command), "configuration"
		if command != wholeCommand(r.platform) {
			what = fmt.Sprintf("%q", command)
		}
		for _, w := range want {
			if w = r.HCL(w); !strings.Contains(whole, w) {
				return fmt.Errorf("%s's %s lacks %q:\n%s", r.name, what, w, r.shown(t, "lacking", whole))
			}
		}
		return nil
	}
}

// HasLines checks that the router's whole configuration has every one
// of want as a line of its own (in the CLI's layout, indentation and
// all; renamed as in HCL).
func (r *vendorRouter) HasLines(t *testing.T, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		whole := r.Whole(t)
		lines := strings.Split(whole, "\n")
		for _, w := range want {
			if w = r.HCL(w); !slices.Contains(lines, w) {
				return fmt.Errorf("%s's configuration lacks the line %q:\n%s", r.name, w, r.shown(t, "lacking", whole))
			}
		}
		return nil
	}
}

// Restored checks, for CheckDestroy, that the router's whole
// configuration is byte for byte what it was before the test; extra (may
// be nil) adds a simulator's own checks.
func (r *vendorRouter) Restored(t *testing.T, extra func() error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if after := r.Whole(t); after != r.before {
			return fmt.Errorf("%s's configuration is not as before after destroy:\n--- before\n%s\n--- after\n%s", r.name, r.shown(t, "before", r.before), r.shown(t, "after", after))
		}
		if extra != nil {
			return extra()
		}
		return nil
	}
}

// shown is a configuration for an error message: itself from a
// simulator (whose secrets are the test's), and from a device only the
// name of a file (mode 0600) that holds it, since a device's
// configuration may hold its owner's secrets.
func (r *vendorRouter) shown(t *testing.T, what, whole string) string {
	t.Helper()
	if !r.onDevice {
		return whole
	}
	return "(" + r.keep(t, what, whole) + ")"
}

// checkRestorable reads the whole configuration and refuses to start a
// test whose changes it could not put back: a configuration the
// platform's parser cannot read, leftovers of an earlier run (whose
// objects a create would refuse or a destroy would take), an interface
// that is not there, or one that carries the address the test reaches
// the router on (a change there would cut the test off). On a device it
// also keeps the configuration in a file and says where when the test
// fails.
func (r *vendorRouter) checkRestorable(t *testing.T, ifaces []string) string {
	t.Helper()
	whole := r.Whole(t)
	parse, err := drivers.ConfigParser(r.platform)
	if err != nil {
		t.Fatal(err)
	}
	// A configuration of nothing but its header (a reset RouterOS, as the
	// simulators start) is put back trivially; the parser refuses it, as it
	// has no command.
	if _, err := parse(whole, ""); err != nil && strings.TrimSpace(whole) != "" {
		t.Fatalf("%s: refusing to start: routerlab cannot read the configuration back, so it could not check that the test puts it back: %v", r.name, err)
	}
	if i := strings.Index(strings.ToLower(whole), "routerlab"); i >= 0 {
		line := whole[strings.LastIndex(whole[:i], "\n")+1:]
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		t.Fatalf("%s: refusing to start: the configuration has routerlab's objects already (%q): an earlier run's leftovers; remove them by hand (CONTRIBUTING.md, Testing against your own router)", r.name, line)
	}
	snap := r.snapshot(t)
	mgmt := r.managementAddress()
	for _, n := range ifaces {
		name := r.Interface(n)
		st, ok := snap.Router.Interfaces[name]
		if !ok {
			t.Fatalf("%s: refusing to start: no interface %q on the router (it has %s)", r.name, name, strings.Join(device.SortedKeys(snap.Router.Interfaces), ", "))
		}
		for _, a := range st.Addresses {
			if p, err := netip.ParsePrefix(a); err == nil && mgmt.IsValid() && p.Contains(mgmt) {
				t.Fatalf("%s: refusing to start: interface %s has %s, the address the test reaches the router on: a change there would cut the test off", r.name, name, a)
			}
		}
	}
	if r.onDevice {
		file := r.keep(t, "before", whole)
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("%s's configuration from before this test is in %s (compare it with the router's own %q; CONTRIBUTING.md says how to put it back)", r.name, file, wholeCommand(r.platform))
			}
		})
	}
	return whole
}

// snapshot is the driver's read of the router over the test's own client.
func (r *vendorRouter) snapshot(t *testing.T) *device.Snapshot {
	t.Helper()
	var snap *device.Snapshot
	r.console(t, func(ctx context.Context, c *sshx.Client) error {
		d, err := drivers.New(r.platform, c)
		if err != nil {
			return err
		}
		snap, err = d.Snapshot(ctx)
		return err
	})
	return snap
}

// managementAddress is the address the test reaches the router on, or
// the zero Addr when its name does not resolve here.
func (r *vendorRouter) managementAddress() netip.Addr {
	if a, err := netip.ParseAddr(r.ssh.Host); err == nil {
		return a
	}
	addrs, err := net.LookupHost(r.ssh.Host)
	if err != nil || len(addrs) == 0 {
		return netip.Addr{}
	}
	a, _ := netip.ParseAddr(addrs[0])
	return a
}

// keep writes a configuration of the device where its owner can find
// it (ROUTERLAB_TEST_RECOVERY_DIR, else the temporary directory), mode
// 0600, and returns the file's name.
func (r *vendorRouter) keep(t *testing.T, what, whole string) string {
	t.Helper()
	dir := os.Getenv("ROUTERLAB_TEST_RECOVERY_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "routerlab-device-tier")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())+"."+string(r.platform)+"."+what)
	if err := os.WriteFile(file, []byte(whole), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// simOnly marks a vendor acceptance test that needs a simulator of its
// own (it loads a whole configuration, cuts a session off, counts the
// administrators): with the environment naming a device of platform p it
// skips, saying why, and runs as before otherwise. The device tier's run
// (make test-device-tier) lists these skips; the simulated tier runs them.
func simOnly(t *testing.T, p device.Platform, why string) {
	t.Helper()
	if os.Getenv(deviceTierPrefix(p)+"HOST") != "" {
		t.Skipf("simulator only (%s): %sHOST names a device, which this test cannot %s", p, deviceTierPrefix(p), why)
	}
}
