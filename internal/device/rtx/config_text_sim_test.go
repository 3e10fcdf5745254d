package rtx_test

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/rtx"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// The acceptance criterion of issue 19 end to end: for each show config
// file, the sections and digest ParseConfig reads from the file equal
// what the real driver's Snapshot reads over SSH from the simulated
// router loaded with that configuration (rtxsim.Options.Config, its
// header's model, revision, serial and MAC), and so do the facts where
// the file has a header. The simulator prints the configuration in its
// own order (published dumps, rtxsim/testdata/README.md). The other
// show config files hold what the simulator does not keep as the device
// prints it, so they are compared with the driver on the command path
// only (TestParseConfigEqualsDriverSnapshot):
//
//   - rtx810_base.txt, rtx1210_en.txt: `login password *` (the simulator
//     models no login password: it reads the line and prints nothing);
//   - rtx810_pppoe_l2tp.txt: `administrator password <plaintext>` as a
//     loaded configuration file has it (the simulator takes the
//     password at the console only);
//   - rtx830.txt: `operation http revision-up permit on` (no rule), and
//     `description lan1` after the lan1 lines (the simulator prints it
//     first).
func TestParseConfigEqualsSimulatedRouter(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	for _, f := range []string{"rtx810_whole.txt", "rtx810_whole_wrapped80.txt", "rtx810_echo_crlf.txt", "seed_001.txt", "seed_001_published.txt"} {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(filepath.Join("testdata", f))
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			p, err := rtx.ParseConfig(text, "")
			if err != nil {
				t.Fatal(err)
			}
			opts, header := simOptions(text)
			drv := simDriverAsIs(t, opts)
			s := snapshot(t, drv)
			got, want := p.Snapshot, s
			if !header {
				// Without the header the text names only the LAN
				// interfaces its lines name; the router has the
				// model's (ParseConfig warns of it).
				w := *s
				w.Router.Interfaces = map[string]device.InterfaceState{}
				for name, st := range s.Router.Interfaces {
					if _, ok := got.Router.Interfaces[name]; ok {
						w.Router.Interfaces[name] = st
					}
				}
				want = &w
			}
			for what, pair := range map[string][2]any{
				"router": {got.Router, want.Router}, "tunnels": {got.Tunnels, want.Tunnels}, "firewall": {got.Firewall, want.Firewall},
				"offload": {got.Offload, want.Offload}, "pppoe": {got.PPPoE, want.PPPoE}, "text": {got.Text, want.Text}, "sha256": {got.SHA256, want.SHA256},
			} {
				if !reflect.DeepEqual(pair[0], pair[1]) {
					t.Errorf("%s: ParseConfig read\n%+v\nthe driver read from the simulated router\n%+v", what, pair[0], pair[1])
				}
			}
			if header && !reflect.DeepEqual(got.Facts, want.Facts) {
				t.Errorf("facts %+v, the driver's %+v", got.Facts, want.Facts)
			}
		})
	}
}

var (
	simRevisionRE = regexp.MustCompile(`^# (RTX\S+) (Rev\.[0-9.]+) \((.*)\)$`)
	simSerialRE   = regexp.MustCompile(`serial=(\S+) MAC-Address=(\S+)`)
	simLANsRE     = regexp.MustCompile(`^# Memory .*?(\d+)LAN`)
	simEchoRE     = regexp.MustCompile(`^\S*[>#] ?show config$`)
)

// simOptions is the router a show config file describes: its header's
// hardware and, as Config, its lines joined where the console wrapped
// them (a row one column short of the width, 80 unless console columns
// says otherwise, goes on with the next row) without its header and
// echo. This joining is the test's own, simpler than the parser's: the
// files are written so that no unwrapped row is exactly that wide.
func simOptions(text string) (rtxsim.Options, bool) {
	rows := strings.Split(strings.ReplaceAll(strings.TrimRight(text, "\r\n"), "\r\n", "\n"), "\n")
	width := 80
	for _, r := range rows {
		if n, ok := strings.CutPrefix(r, "console columns "); ok {
			width, _ = strconv.Atoi(n)
		}
	}
	var lines []string
	joinNext := false
	for _, r := range rows {
		if joinNext {
			lines[len(lines)-1] += r
		} else {
			lines = append(lines, r)
		}
		cols := 0
		for _, c := range r {
			cols++
			if c >= 0x80 {
				cols++
			}
		}
		joinNext = cols == width-1
	}
	opts := rtxsim.Options{Config: []string{}}
	header := false
	for _, l := range lines {
		switch m := simRevisionRE.FindStringSubmatch(l); {
		case m != nil:
			opts.Model, opts.Revision, opts.RevisionDate, header = m[1], m[2], m[3], true
		case strings.HasPrefix(l, "# main:"):
			if m := simSerialRE.FindStringSubmatch(l); m != nil {
				opts.Serial, opts.MAC = m[1], m[2]
			}
		case simLANsRE.MatchString(l):
			opts.LANs, _ = strconv.Atoi(simLANsRE.FindStringSubmatch(l)[1])
		case strings.HasPrefix(l, "#") && !simEchoRE.MatchString(l):
		case simEchoRE.MatchString(l):
		case l == "administrator password *":
			opts.AdminPassword = simAdminPassword
		case l == "console character en.ascii" || l == "console character ascii":
			opts.Language = "en"
			opts.Config = append(opts.Config, l)
		default:
			opts.Config = append(opts.Config, l)
		}
	}
	return opts, header
}

// simDriverAsIs is simDriver without its defaults: a router without an
// administrator password (RTX asks for one and takes Enter) prints no
// `administrator password *`.
func simDriverAsIs(t *testing.T, opts rtxsim.Options) *rtx.Driver {
	t.Helper()
	dev := devicesim.New(t, rtxsim.New(opts), devicesim.Options{})
	c := sshx.NewClient("rtx", sshx.Config{
		Endpoint:       dev.Endpoint(),
		Dialect:        drivers.Dialect(device.RTX),
		EnablePassword: opts.AdminPassword,
		CommandTimeout: 20 * time.Second,
	}, nil)
	t.Cleanup(func() { c.Close() })
	return rtx.New(c)
}
