package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
)

// The files serve writes into the state directory.
const (
	pidFile     = "simctl.pid"
	readyFile   = "devices.json" // written last: the simulators listen
	controlFile = "control"      // the address of the configuration endpoint
	logFile     = "serve.log"
	rcFile      = "terraformrc"
)

// Passwords of the simulators: they listen on 127.0.0.1 only and hold no
// real configuration; printed so that a user can ssh in.
const (
	simPassword      = devicesim.DefaultPassword
	rtxAdminPassword = "sim-admin-not-secret"
	examplePSK       = "sim-psk-not-secret"
	examplePPP       = "sim-ppp-not-secret"
)

// simDevice is one running simulator as devices.json records it.
type simDevice struct {
	Name     string `json:"name"`
	Platform string `json:"platform"`
	What     string `json:"what"`
	Host     string `json:"host"`
	Port     int    `json:"port"`
	User     string `json:"user"`
	Password string `json:"password"`
	HostKey  string `json:"host_key"`
	// AdministratorPassword is RTX's administrator password.
	AdministratorPassword string `json:"administrator_password,omitempty"`

	dev    *devicesim.Device
	config func() string
}

// rtxSeed001Base is seed 001's RTX810 before routerlab (lab addresses):
// lan2 on DHCP towards the peer, lan1 inside with the DHCP server.
var rtxSeed001Base = []string{
	"ip route default gateway dhcp lan2",
	"ip lan1 address 198.18.100.1/24",
	"ip lan2 address dhcp",
	"ipsec auto refresh on",
	"sshd service on",
	"dhcp service server",
	"dhcp server rfc2131 compliant except remain-silent",
	"dhcp scope 1 198.18.100.2-198.18.100.191/24",
}

// startDevices starts the simulators the seed examples use: the vendors'
// routers only. The examples' Debian peers (seed 001's strongSwan peer,
// seed 000's L2TP/IPsec client) are no simulator: Linux behaviour is tried
// on Linux (issue 27). The variables files leave them out, and the
// examples then configure the vendor router alone; a real Debian host can
// be given as `debian` to configure the peer too (the L2TP client needs a
// kernel with PPP). The provider's tests run these peers on routers of the
// namespace lab (TestAccExample_rtx810IPsec) and, for PPP, inside
// user-mode Linux (TestAccPPP_l2tpIPsecUML).
func startDevices(routerOS string) ([]*simDevice, error) {
	rtx := rtxsim.New(rtxsim.Options{AdminPassword: rtxAdminPassword, Config: rtxSeed001Base})
	er6p := edgeossim.New(edgeossim.Options{})
	vyos := edgeossim.New(edgeossim.Options{Flavour: edgeossim.VyOS})
	chr := rossim.New(rossim.Options{Version: "6.49.10", Model: "CHR"})
	rb := rossim.New(rossim.Options{Version: routerOS, Model: "RB750Gr3"})
	ros := devicesim.Options{User: "admin", LoginFlags: true}
	specs := []struct {
		name, platform, what string
		h                    devicesim.Handler
		opts                 devicesim.Options
		config               func() string
	}{
		{"rtx810", "rtx", "YAMAHA RTX810 Rev.11.01.34 (seed 001's, before routerlab)", rtx, devicesim.Options{}, func() string { return strings.Join(rtx.Config(), "\n") + "\n" }},
		{"er6p", "edgeos", "Ubiquiti EdgeRouter 6P, EdgeOS factory configuration (seed 002)", er6p, devicesim.Options{}, er6p.Config},
		{"vyos", "vyos", "VyOS " + edgeossim.DefaultVyOSVersion + " router", vyos, devicesim.Options{}, vyos.Config},
		{"chr", "routeros", "MikroTik CHR 6.49.10, the PPPoE server of seed 002", chr, ros, func() string { return exportBody(chr) }},
		{"rb750gr3", "routeros", "MikroTik RB750Gr3 " + routerOS + " (seed 000's L2TP/IPsec server)", rb, ros, func() string { return exportBody(rb) }},
	}
	var out []*simDevice
	for _, s := range specs {
		dev, err := devicesim.Start(s.h, s.opts)
		if err != nil {
			closeAll(out)
			return nil, fmt.Errorf("starting %s: %w", s.name, err)
		}
		d := &simDevice{Name: s.name, Platform: s.platform, What: s.what, Host: dev.Host, Port: dev.Port,
			User: dev.User, Password: dev.Password, HostKey: strings.TrimSpace(dev.HostKeyLine()), dev: dev, config: s.config}
		if s.platform == "rtx" {
			d.AdministratorPassword = rtxAdminPassword
		}
		out = append(out, d)
	}
	return out, nil
}

// exportBody is a RouterOS simulator's export without its dated header.
func exportBody(s *rossim.Sim) string {
	var keep []string
	for _, l := range strings.Split(s.Export(), "\n") {
		if !strings.HasPrefix(l, "#") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func closeAll(devs []*simDevice) {
	for _, d := range devs {
		d.dev.Close()
	}
}

// serve runs the simulators until SIGTERM or SIGINT.
func serve(state, routerOS string) error {
	devs, err := startDevices(routerOS)
	if err != nil {
		return err
	}
	defer closeAll(devs)
	byName := map[string]*simDevice{}
	for _, d := range devs {
		byName[d.Name] = d
	}
	// The configuration endpoint: what each simulator holds, for `simctl
	// show` (and the tests that check a destroy left it as it started).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/config/{name}", func(w http.ResponseWriter, r *http.Request) {
		d, ok := byName[r.PathValue("name")]
		if !ok {
			http.Error(w, "no such simulator", http.StatusNotFound)
			return
		}
		fmt.Fprint(w, d.config())
	})
	go func() { _ = http.Serve(ln, mux) }()
	if err := os.WriteFile(filepath.Join(state, controlFile), []byte(ln.Addr().String()+"\n"), 0o600); err != nil {
		return err
	}
	if err := writeVarFiles(state, byName); err != nil {
		return err
	}
	if err := writeDeviceTierEnv(state, byName); err != nil {
		return err
	}
	b, err := json.MarshalIndent(devs, "", "  ")
	if err != nil {
		return err
	}
	// Written last, and atomically: up waits for it.
	tmp := filepath.Join(state, readyFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(state, readyFile)); err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	for _, f := range []string{readyFile, controlFile} {
		_ = os.Remove(filepath.Join(state, f))
	}
	return nil
}

// hclObject writes a device variable of the examples.
func hclObject(d *simDevice) string {
	fields := []string{
		fmt.Sprintf("host = %q", d.Host), fmt.Sprintf("port = %d", d.Port), fmt.Sprintf("username = %q", d.User),
		fmt.Sprintf("password = %q", d.Password), fmt.Sprintf("host_key = %q", d.HostKey),
	}
	if d.AdministratorPassword != "" {
		fields = append(fields, fmt.Sprintf("administrator_password = %q", d.AdministratorPassword))
	}
	return "{\n  " + strings.Join(fields, "\n  ") + "\n}"
}

// exampleVars are the seed examples' variables, each naming a simulator
// (or a plain value).
var exampleVars = map[string][][2]string{
	"rtx810-ipsec":        {{"rtx810", "@rtx810"}, {"psk", examplePSK}},
	"er6p-pppoe-offload":  {{"er6p", "@er6p"}, {"chr", "@chr"}},
	"rb750gr3-l2tp-ipsec": {{"rb750gr3", "@rb750gr3"}, {"psk", examplePSK}, {"ppp_password", examplePPP}},
}

// debianNote is what a variables file says of the example's Debian peer,
// which no simulator stands in for (startDevices).
var debianNote = map[string]string{
	"rtx810-ipsec": "# debian: the RTX810's strongSwan peer is a real Debian host, not a\n" +
		"# simulator; unset, the example configures the RTX810 alone:\n" +
		`# debian = { host = "...", port = 22, username = "root", private_key = "...", host_key = "ssh-ed25519 ..." }` + "\n",
	"rb750gr3-l2tp-ipsec": "# debian: the L2TP/IPsec client is a real Linux host whose kernel has PPP\n" +
		"# (ppp_generic, l2tp_ppp); unset, the example configures the RB750Gr3 alone:\n" +
		`# debian = { host = "...", port = 22, username = "root", private_key = "...", host_key = "ssh-ed25519 ..." }` + "\n",
}

// writeVarFiles writes <example>.tfvars for each seed example.
func writeVarFiles(state string, byName map[string]*simDevice) error {
	names := make([]string, 0, len(exampleVars))
	for n := range exampleVars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, ex := range names {
		var b strings.Builder
		fmt.Fprintf(&b, "# examples/labs/%s against the simulators of `make sim-up`\n", ex)
		for _, v := range exampleVars[ex] {
			if name, ok := strings.CutPrefix(v[1], "@"); ok {
				d := byName[name]
				if d == nil {
					return fmt.Errorf("example %s: no simulator %s", ex, name)
				}
				fmt.Fprintf(&b, "%s = %s\n", v[0], hclObject(d))
				continue
			}
			fmt.Fprintf(&b, "%s = %q\n", v[0], v[1])
		}
		b.WriteString(debianNote[ex])
		if err := os.WriteFile(filepath.Join(state, ex+".tfvars"), []byte(b.String()), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// deviceTierFile holds, as shell assignments, the variables that point
// the vendor acceptance tests' device tier (internal/provider
// device_tier_test.go) at one simulator per platform: the path a real
// device takes, which is how CI exercises it (make test-device-tier).
const deviceTierFile = "device-tier.env"

// deviceTier names, per platform, the simulator the device tier uses and
// the interfaces its tests may change. RouterOS's list starts at ether2,
// so that the tests' own names (ether1, ether2, ...) are renamed as on a
// device whose first port is its management port.
var deviceTier = []struct{ platform, name, interfaces string }{
	{"routeros", "rb750gr3", "ether2,ether3,ether4,ether5"},
	{"edgeos", "er6p", "eth0,eth1,eth2,eth3"},
	{"vyos", "vyos", "eth0,eth1"},
	{"rtx", "rtx810", "lan1,lan2"},
}

// writeDeviceTierEnv writes deviceTierFile.
func writeDeviceTierEnv(state string, byName map[string]*simDevice) error {
	var b strings.Builder
	b.WriteString("# The device tier against the simulators of `simctl up` (source it, then go test ./internal/provider)\n")
	for _, dt := range deviceTier {
		d := byName[dt.name]
		if d == nil {
			return fmt.Errorf("device tier: no simulator %s", dt.name)
		}
		pre := "ROUTERLAB_TEST_" + strings.ToUpper(dt.platform) + "_"
		vars := [][2]string{{"HOST", d.Host}, {"PORT", fmt.Sprint(d.Port)}, {"USER", d.User}, {"PASSWORD", d.Password},
			{"HOST_KEY", d.HostKey}, {"INTERFACES", dt.interfaces}}
		if d.AdministratorPassword != "" {
			vars = append(vars, [2]string{"ADMIN_PASSWORD", d.AdministratorPassword})
		}
		for _, v := range vars {
			fmt.Fprintf(&b, "export %s%s='%s'\n", pre, v[0], strings.ReplaceAll(v[1], "'", `'\''`))
		}
	}
	return os.WriteFile(filepath.Join(state, deviceTierFile), []byte(b.String()), 0o600)
}

// errNotRunning: the state directory records no serve process.
var errNotRunning = errors.New("no simulators running (make sim-up starts them)")
