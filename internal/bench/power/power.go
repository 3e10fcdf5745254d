// Package power reads the DUT's power draw for the benchmark engine:
// smart plugs (Shelly, Tasmota), any HTTP JSON endpoint, a command that
// prints watts, a device's own power sensor (read through the probe its
// platform driver supplies), or fixed figures read off a meter by eye (the seeds read a TAP-TST10). A Recorder takes an
// idle baseline before the run and samples during each step's measured
// window.
package power

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Meter reads the power draw now, in watts.
type Meter interface {
	Read(ctx context.Context) (watts float64, err error)
}

// Meter types. routeros_health predates other platforms' sensors: it
// names the meter that reads a device's own sensor (Sensor), whatever the
// platform, and stays because users write it.
const (
	TypeShelly         = "shelly"
	TypeTasmota        = "tasmota"
	TypeHTTPJSON       = "http_json"
	TypeCommand        = "command"
	TypeRouterOSHealth = "routeros_health"
	TypeManual         = "manual"
)

// Types lists the meter types New accepts.
var Types = []string{TypeShelly, TypeTasmota, TypeHTTPJSON, TypeCommand, TypeRouterOSHealth, TypeManual}

// DefaultTimeout bounds one Read when Config.Timeout is zero.
const DefaultTimeout = 5 * time.Second

// Config describes a meter. Which fields a type uses:
//
//	shelly           url, gen, channel
//	tasmota          url, channel
//	http_json        url, json_path
//	command          command, host (nil: the local sh)
//	routeros_health  host, probe
//	manual           idle_watts, load_watts
//
// Timeout applies to every type. Errors name the fields in snake_case as
// above. Credentials go in the URL (http://user:password@host/, a token in
// the path or query) or in the command (curl -H 'Authorization: …'); they
// never appear in error messages: a URL is shown as its scheme and host
// only (see redactURL), a command not at all.
//
// Validate checks what a user can write, so it passes a routeros_health
// Config without Probe (at plan time the caller may stand in a host for
// the device); New needs the Probe, taken from the device's driver
// (device.PowerReader).
type Config struct {
	Type     string
	URL      string
	JSONPath string // http_json: dotted path, e.g. "data.power" or "emeters.0.power"
	Command  string
	Host     command.Runner
	Gen      int // shelly: 0 = detect (Gen2+ RPC, falling back to Gen1 on 404), 1, or 2 and later
	Channel  int // shelly switch id / meter index, tasmota Power array index

	// Probe is how Host reads its own sensor (routeros_health), from the
	// device's driver.
	Probe *device.PowerProbe

	IdleWatts, LoadWatts float64 // manual

	Timeout time.Duration // per Read; 0 = DefaultTimeout
}

// field names a Config field in errors, and which types use it.
type field struct {
	name  string
	set   bool
	types []string
}

func (c Config) fields() []field {
	return []field{
		{"url", c.URL != "", []string{TypeShelly, TypeTasmota, TypeHTTPJSON}},
		{"json_path", c.JSONPath != "", []string{TypeHTTPJSON}},
		{"command", c.Command != "", []string{TypeCommand}},
		{"host", c.Host != nil, []string{TypeCommand, TypeRouterOSHealth}},
		{"probe", c.Probe != nil, []string{TypeRouterOSHealth}},
		{"gen", c.Gen != 0, []string{TypeShelly}},
		{"channel", c.Channel != 0, []string{TypeShelly, TypeTasmota}},
		{"idle_watts", c.IdleWatts != 0, []string{TypeManual}},
		{"load_watts", c.LoadWatts != 0, []string{TypeManual}},
	}
}

// Uses reports whether a meter of type typ reads the field named field
// (snake_case, as in the table on Config: "url", "command", ...).
func Uses(typ, field string) bool {
	for _, f := range (Config{}).fields() {
		if f.name == field {
			return slices.Contains(f.types, typ)
		}
	}
	return false
}

// Validate checks cfg for its type.
func (c Config) Validate() error {
	_, err := c.validate()
	return err
}

// validate also returns the parsed URL of the HTTP types.
func (c Config) validate() (*url.URL, error) {
	if !slices.Contains(Types, c.Type) {
		if c.Type == "" {
			return nil, fmt.Errorf("power meter: type is required: one of %s", strings.Join(Types, ", "))
		}
		return nil, fmt.Errorf("power meter: type %q is not one of %s", c.Type, strings.Join(Types, ", "))
	}
	fail := func(format string, a ...any) error {
		return fmt.Errorf("power meter %s: "+format, append([]any{c.Type}, a...)...)
	}
	for _, f := range c.fields() {
		if f.set && !slices.Contains(f.types, c.Type) {
			return nil, fail("%s is not used by this type (it applies to %s)", f.name, strings.Join(f.types, ", "))
		}
	}
	if c.Timeout < 0 {
		return nil, fail("timeout must be positive (0 means %v)", DefaultTimeout)
	}
	var u *url.URL
	switch c.Type {
	case TypeShelly, TypeTasmota, TypeHTTPJSON:
		var err error
		if u, err = parseURL(c.URL); err != nil {
			return nil, fail("%w", err)
		}
	}
	switch c.Type {
	case TypeShelly:
		if u.RawQuery != "" || u.Fragment != "" {
			return nil, fail("url must be the device's base address such as http://192.168.33.1, without a query: got %s", redactURL(u))
		}
		if c.Gen < 0 {
			return nil, fail("gen must be 0 (detect), 1, or 2 and later (Gen2, Gen3, Gen4 share one API): got %d", c.Gen)
		}
		if c.Channel < 0 {
			return nil, fail("channel must be 0 or more (the switch id or meter index): got %d", c.Channel)
		}
	case TypeTasmota:
		if c.Channel < 0 {
			return nil, fail("channel must be 0 or more (the index into ENERGY.Power): got %d", c.Channel)
		}
	case TypeHTTPJSON:
		if c.JSONPath == "" {
			return nil, fail("json_path is required: a dotted path to the watts in the response, such as data.power or emeters.0.power")
		}
		if _, err := splitPath(c.JSONPath); err != nil {
			return nil, fail("%w", err)
		}
	case TypeCommand:
		if strings.TrimSpace(c.Command) == "" {
			return nil, fail("command is required: a shell command that prints the watts")
		}
	case TypeRouterOSHealth:
		if c.Host == nil {
			return nil, fail("host is required: the device whose own sensor reports its power draw")
		}
	case TypeManual:
		if !(c.LoadWatts > 0) || math.IsInf(c.LoadWatts, 0) {
			return nil, fail("load_watts must be more than 0 (the figure read off the meter under load): got %v", c.LoadWatts)
		}
		if !(c.IdleWatts >= 0) || math.IsInf(c.IdleWatts, 0) {
			return nil, fail("idle_watts must be 0 or more (the figure read off the meter at idle): got %v", c.IdleWatts)
		}
	}
	return u, nil
}

// New returns the meter cfg describes.
func New(cfg Config) (Meter, error) {
	u, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	switch cfg.Type {
	case TypeShelly:
		return &Shelly{base: u, gen: cfg.Gen, channel: cfg.Channel, c: newClient(TypeShelly, timeout)}, nil
	case TypeTasmota:
		return &Tasmota{base: u, channel: cfg.Channel, c: newClient(TypeTasmota, timeout)}, nil
	case TypeHTTPJSON:
		path, _ := splitPath(cfg.JSONPath)
		return &HTTPJSON{u: u, path: path, c: newClient(TypeHTTPJSON, timeout)}, nil
	case TypeCommand:
		var h runner = localSh{}
		if cfg.Host != nil {
			h = cfg.Host
		}
		return &Command{cmd: cfg.Command, host: h, timeout: timeout}, nil
	case TypeRouterOSHealth:
		if cfg.Probe == nil || cfg.Probe.Command == "" || cfg.Probe.Parse == nil {
			return nil, fmt.Errorf("power meter %s: no power probe for %s: its platform's driver must supply one (device.PowerReader)", cfg.Type, cfg.Host.Name())
		}
		return &Sensor{meter: cfg.Type, host: cfg.Host, probe: *cfg.Probe, timeout: timeout}, nil
	case TypeManual:
		return Manual{Idle: cfg.IdleWatts, Load: cfg.LoadWatts}, nil
	}
	return nil, errors.New("power meter: unreachable")
}

// MbpsPerWatt is the efficiency figure of a step: throughput over average
// power, 0 when the power is not a positive number.
func MbpsPerWatt(mbps, watts float64) float64 {
	if !(watts > 0) || math.IsInf(watts, 0) || math.IsNaN(mbps) {
		return 0
	}
	return mbps / watts
}

// checkWatts rejects readings that cannot be a router's draw.
func checkWatts(w float64) (float64, error) {
	if math.IsNaN(w) || math.IsInf(w, 0) {
		return 0, fmt.Errorf("reading %v is not a number of watts", w)
	}
	if w < 0 {
		return 0, fmt.Errorf("negative reading %v W (is the meter wired the other way round?)", w)
	}
	return w, nil
}
