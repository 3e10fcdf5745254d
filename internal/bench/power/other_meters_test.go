package power

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func TestCommandLocal(t *testing.T) {
	for cmd, want := range map[string]float64{
		"echo 9.5":                   9.5,
		"printf 'power: 12.25 W\\n'": 12.25,
		"echo .5":                    0.5,
		"echo 1e1":                   10,
	} {
		w, err := mustNew(t, Config{Type: TypeCommand, Command: cmd}).Read(t.Context())
		if err != nil || w != want {
			t.Errorf("%q: Read = %v, %v; want %v", cmd, w, err, want)
		}
	}
	for cmd, parts := range map[string][]string{
		"echo no reading; exit 0":      {"command power meter on local", "no number in the output"},
		"echo oops >&2; exit 3":        {"exit status 3", "oops"},
		"echo -2.5":                    {"negative reading -2.5 W"},
		"sleep 5; echo 1":              {"no answer within 200ms"},
		"exec nonexistent-meter-cmd-x": {"exit status 127"},
	} {
		_, err := mustNew(t, Config{Type: TypeCommand, Command: cmd, Timeout: 200 * time.Millisecond}).Read(t.Context())
		wantErr(t, err, parts...)
	}
}

func TestCommandOnHost(t *testing.T) {
	h := &fakeHost{outputs: map[string]command.Result{"cat /run/watts": {Stdout: "8.1\n"}}}
	w, err := mustNew(t, Config{Type: TypeCommand, Command: "cat /run/watts", Host: h}).Read(t.Context())
	if err != nil || w != 8.1 {
		t.Errorf("Read = %v, %v", w, err)
	}
	h.err = errors.New("ssh: connection lost")
	_, err = mustNew(t, Config{Type: TypeCommand, Command: "cat /run/watts", Host: h}).Read(t.Context())
	wantErr(t, err, "command power meter on ccr", "connection lost")
}

func TestParseFirstNumber(t *testing.T) {
	for out, want := range map[string]float64{"9.5": 9.5, "  +3 W": 3, "P=10.\n": 10, "-1": -1} {
		if got, err := ParseFirstNumber(out); err != nil || got != want {
			t.Errorf("ParseFirstNumber(%q) = %v, %v; want %v", out, got, err, want)
		}
	}
	if _, err := ParseFirstNumber(""); err == nil {
		t.Error("ParseFirstNumber(\"\") succeeded")
	}
}

// healthProbe stands in for a platform's power probe: the engine must
// work with any, and vendor parsers are tested where they live.
var healthProbe = &device.PowerProbe{
	Command: "show power",
	Parse: func(out string) (float64, error) {
		v, ok := strings.CutPrefix(strings.TrimSpace(out), "power: ")
		if !ok {
			return 0, errors.New("no power line")
		}
		return strconv.ParseFloat(strings.TrimSuffix(v, "W"), 64)
	},
}

func TestSensor(t *testing.T) {
	h := &fakeHost{outputs: map[string]command.Result{"show power": {Stdout: "power: 50.8W\r\n"}}}
	w, err := mustNew(t, Config{Type: TypeRouterOSHealth, Host: h, Probe: healthProbe}).Read(t.Context())
	if err != nil || w != 50.8 {
		t.Errorf("Read = %v, %v; want 50.8", w, err)
	}
	if len(h.ran) != 1 || h.ran[0] != "show power" {
		t.Errorf("ran %q, want the probe's command once", h.ran)
	}
}

func TestSensorErrors(t *testing.T) {
	for _, tt := range []struct {
		out   command.Result
		err   error
		parts []string
	}{
		{out: command.Result{Stdout: "voltage: 24V\n"}, parts: []string{"routeros_health on ccr: show power: no power line"}},
		{out: command.Result{Stdout: "power: -3W\n"}, parts: []string{"negative reading -3 W"}},
		{out: command.Result{Stdout: "power: NaN\n"}, parts: []string{"not a number of watts"}},
		{out: command.Result{Stdout: "bad command name power\n", ExitStatus: 1}, parts: []string{"exit status 1", "bad command name power"}},
		{err: errors.New("ssh: handshake failed"), parts: []string{"routeros_health on ccr: show power: ssh: handshake failed"}},
		{err: context.DeadlineExceeded, parts: []string{"no answer within 5s"}},
	} {
		h := &fakeHost{outputs: map[string]command.Result{"show power": tt.out}, err: tt.err}
		_, err := mustNew(t, Config{Type: TypeRouterOSHealth, Host: h, Probe: healthProbe}).Read(t.Context())
		wantErr(t, err, tt.parts...)
	}
}

// At plan time the device's driver is not at hand: Validate passes
// without a probe, New does not.
func TestSensorNeedsProbe(t *testing.T) {
	cfg := Config{Type: TypeRouterOSHealth, Host: &fakeHost{}}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate = %v", err)
	}
	_, err := New(cfg)
	wantErr(t, err, "power meter routeros_health: no power probe for ccr")
	_, err = New(Config{Type: TypeRouterOSHealth, Host: &fakeHost{}, Probe: &device.PowerProbe{Command: "x"}})
	wantErr(t, err, "no power probe")
}

func TestManual(t *testing.T) {
	// Seed 004: 8.1 W idle, 8.8 W under load, read off a TAP-TST10.
	m := mustNew(t, Config{Type: TypeManual, IdleWatts: 8.1, LoadWatts: 8.8})
	if w, err := m.Read(t.Context()); err != nil || w != 8.8 {
		t.Errorf("Read = %v, %v", w, err)
	}
	if b := m.(interface{ IdleBaseline() float64 }).IdleBaseline(); b != 8.1 {
		t.Errorf("IdleBaseline = %v", b)
	}
}

func TestValidate(t *testing.T) {
	h := &fakeHost{}
	tests := []struct {
		cfg   Config
		parts []string // empty: valid
	}{
		{Config{Type: TypeShelly, URL: "http://192.168.33.1"}, nil},
		{Config{Type: TypeShelly, URL: "https://plug.lab/", Gen: 1, Channel: 1, Timeout: time.Second}, nil},
		{Config{Type: TypeTasmota, URL: "http://tasmota.lab", Channel: 1}, nil},
		{Config{Type: TypeHTTPJSON, URL: "http://meter.lab/api", JSONPath: "emeters.0.power"}, nil},
		{Config{Type: TypeCommand, Command: "echo 1"}, nil},
		{Config{Type: TypeCommand, Command: "echo 1", Host: h}, nil},
		{Config{Type: TypeRouterOSHealth, Host: h, Probe: healthProbe}, nil},
		{Config{Type: TypeManual, LoadWatts: 2.9}, nil},
		{Config{Type: TypeManual, IdleWatts: 2.4, LoadWatts: 2.9}, nil},

		{Config{}, []string{"type is required", "shelly, tasmota, http_json, command, routeros_health, manual"}},
		{Config{Type: "kasa"}, []string{`type "kasa" is not one of shelly`}},
		{Config{Type: TypeShelly}, []string{"power meter shelly: url is required"}},
		{Config{Type: TypeShelly, URL: "192.168.33.1"}, []string{"url must start with http:// or https://"}},
		{Config{Type: TypeShelly, URL: "ftp://192.168.33.1"}, []string{"url must start with http://", `"ftp"`}},
		{Config{Type: TypeShelly, URL: "http://"}, []string{"url has no host"}},
		{Config{Type: TypeShelly, URL: "http://admin:" + secret + "@plug/?x=1"}, []string{"without a query", "got http://xxxxx@plug/…"}},
		{Config{Type: TypeShelly, URL: "http://admin:" + secret + "/"}, []string{"url is not a valid URL", "not shown"}},
		{Config{Type: TypeShelly, URL: "http://plug", Gen: -1}, []string{"gen must be 0 (detect), 1, or 2 and later"}},
		{Config{Type: TypeShelly, URL: "http://plug", Channel: -1}, []string{"channel must be 0 or more"}},
		{Config{Type: TypeShelly, URL: "http://plug", JSONPath: "apower"}, []string{"json_path is not used by this type (it applies to http_json)"}},
		{Config{Type: TypeShelly, URL: "http://plug", Host: h}, []string{"host is not used by this type (it applies to command, routeros_health)"}},
		{Config{Type: TypeTasmota, URL: "http://t", Gen: 2}, []string{"power meter tasmota: gen is not used by this type (it applies to shelly)"}},
		{Config{Type: TypeTasmota, URL: "http://t", Channel: -2}, []string{"channel must be 0 or more"}},
		{Config{Type: TypeHTTPJSON, URL: "http://m"}, []string{"json_path is required"}},
		{Config{Type: TypeHTTPJSON, URL: "http://m", JSONPath: "data..power"}, []string{`json_path "data..power" has an empty segment`}},
		{Config{Type: TypeHTTPJSON, URL: "http://m", JSONPath: "$"}, []string{"names no field"}},
		{Config{Type: TypeHTTPJSON, URL: "http://m", JSONPath: "p", Channel: 1}, []string{"channel is not used"}},
		{Config{Type: TypeCommand}, []string{"power meter command: command is required"}},
		{Config{Type: TypeCommand, Command: "  "}, []string{"command is required"}},
		{Config{Type: TypeCommand, Command: "echo 1", URL: "http://x"}, []string{"url is not used by this type (it applies to shelly, tasmota, http_json)"}},
		{Config{Type: TypeRouterOSHealth}, []string{"power meter routeros_health: host is required"}},
		{Config{Type: TypeRouterOSHealth, Host: h, Probe: healthProbe, Command: "/system health print"}, []string{"command is not used"}},
		{Config{Type: TypeCommand, Command: "echo 1", Probe: healthProbe}, []string{"probe is not used by this type (it applies to routeros_health)"}},
		{Config{Type: TypeManual}, []string{"power meter manual: load_watts must be more than 0"}},
		{Config{Type: TypeManual, LoadWatts: math.NaN()}, []string{"load_watts must be more than 0"}},
		{Config{Type: TypeManual, LoadWatts: 3, IdleWatts: -1}, []string{"idle_watts must be 0 or more"}},
		{Config{Type: TypeManual, LoadWatts: 3, URL: "http://x"}, []string{"url is not used"}},
		{Config{Type: TypeCommand, Command: "echo 1", IdleWatts: 2}, []string{"idle_watts is not used by this type (it applies to manual)"}},
		{Config{Type: TypeCommand, Command: "echo 1", Timeout: -time.Second}, []string{"timeout must be positive"}},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		m, nerr := New(tt.cfg)
		if len(tt.parts) == 0 {
			if err != nil || nerr != nil || m == nil {
				t.Errorf("%+v: Validate = %v, New = %v", tt.cfg, err, nerr)
			}
			continue
		}
		if nerr == nil || m != nil {
			t.Errorf("%+v: New succeeded", tt.cfg)
		}
		wantErr(t, err, tt.parts...)
	}
}

func TestMbpsPerWatt(t *testing.T) {
	for _, tt := range []struct{ mbps, watts, want float64 }{
		{942, 8.5, 942 / 8.5},
		{139, 2.9, 139 / 2.9},
		{100, 0, 0},
		{100, -1, 0},
		{100, math.NaN(), 0},
		{100, math.Inf(1), 0},
		{math.NaN(), 5, 0},
		{0, 5, 0},
	} {
		if got := MbpsPerWatt(tt.mbps, tt.watts); got != tt.want {
			t.Errorf("MbpsPerWatt(%v, %v) = %v, want %v", tt.mbps, tt.watts, got, tt.want)
		}
	}
}

func TestLookupNumber(t *testing.T) {
	body := []byte(`{"a":[{"b":"1.5"},{"b":2}],"n":null}`)
	for path, want := range map[string]float64{"a.0.b": 1.5, "a[1].b": 2, "$.a.1.b": 2} {
		if got, err := LookupNumber(body, path); err != nil || got != want {
			t.Errorf("LookupNumber(%q) = %v, %v", path, got, err)
		}
	}
	if _, err := LookupNumber(body, "n"); err == nil || !strings.Contains(err.Error(), "null, not a number") {
		t.Errorf("null: %v", err)
	}
}
