package power

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Shelly reads a Shelly smart plug or relay with power metering.
//
// Gen2 and later (Plus, Pro, Gen3, Gen4): GET
// {url}/rpc/Switch.GetStatus?id={channel}, field apower. Gen1: GET
// {url}/status, field meters[channel].power (emeters[channel].power on the
// Shelly EM). With gen 0 the first Read tries Gen2 and falls back to Gen1
// when the device answers 404, then remembers which one answered.
type Shelly struct {
	base    *url.URL
	gen     int
	channel int
	c       *client

	mu       sync.Mutex
	detected int
}

// Read implements Meter.
func (s *Shelly) Read(ctx context.Context) (float64, error) {
	gen := s.gen
	if gen == 0 {
		s.mu.Lock()
		gen = s.detected
		s.mu.Unlock()
	}
	switch {
	case gen >= 2:
		return s.readGen2(ctx)
	case gen == 1:
		return s.readGen1(ctx)
	}
	w, err := s.readGen2(ctx)
	if se, ok := errors.AsType[*statusError](err); ok && se.Code == http.StatusNotFound {
		w, err1 := s.readGen1(ctx)
		if err1 != nil {
			return 0, fmt.Errorf("%w; and as Gen1: %w", err, err1)
		}
		s.remember(1)
		return w, nil
	}
	if err == nil {
		s.remember(2)
	}
	return w, err
}

func (s *Shelly) remember(gen int) {
	s.mu.Lock()
	s.detected = gen
	s.mu.Unlock()
}

func (s *Shelly) readGen2(ctx context.Context) (float64, error) {
	u := withPath(s.base, "/rpc/Switch.GetStatus")
	u.RawQuery = "id=" + strconv.Itoa(s.channel)
	shown := showURL(s.base, "/rpc/Switch.GetStatus?"+u.RawQuery)
	body, err := s.c.get(ctx, u, shown)
	if err != nil {
		return 0, err
	}
	w, err := ParseShellyGen2(body)
	if err != nil {
		return 0, s.c.errorf(shown, err)
	}
	return w, nil
}

func (s *Shelly) readGen1(ctx context.Context) (float64, error) {
	u := withPath(s.base, "/status")
	shown := showURL(s.base, "/status")
	body, err := s.c.get(ctx, u, shown)
	if err != nil {
		return 0, err
	}
	w, err := ParseShellyGen1(body, s.channel)
	if err != nil {
		return 0, s.c.errorf(shown, err)
	}
	return w, nil
}

// ParseShellyGen2 reads apower from a Gen2+ Switch.GetStatus answer:
//
//	{"id":0,"source":"init","output":true,"apower":8.9,"voltage":237.5,
//	 "current":0.041,"aenergy":{...},"temperature":{...}}
func ParseShellyGen2(body []byte) (float64, error) {
	var st struct {
		APower *float64 `json:"apower"`
	}
	if err := decodeJSON(body, &st); err != nil {
		return 0, err
	}
	if st.APower == nil {
		return 0, errors.New("no apower in Switch.GetStatus: this switch does not meter power (for Shelly EM/3EM/PM Mini use type http_json)")
	}
	return checkWatts(*st.APower)
}

// ParseShellyGen1 reads meters[channel].power from a Gen1 /status answer
// (emeters on the Shelly EM):
//
//	{"relays":[...],"meters":[{"power":8.9,"overpower":0,"is_valid":true,
//	 "timestamp":0,"counters":[...],"total":1234}],...}
func ParseShellyGen1(body []byte, channel int) (float64, error) {
	type meter struct {
		Power   *float64 `json:"power"`
		IsValid *bool    `json:"is_valid"`
	}
	var st struct {
		Meters  []meter `json:"meters"`
		EMeters []meter `json:"emeters"`
	}
	if err := decodeJSON(body, &st); err != nil {
		return 0, err
	}
	name, meters := "meters", st.Meters
	if meters == nil && st.EMeters != nil {
		name, meters = "emeters", st.EMeters
	}
	if meters == nil {
		return 0, errors.New("no meters in /status: this device does not meter power")
	}
	if channel >= len(meters) {
		return 0, fmt.Errorf("channel %d is out of range: /status has %d %s", channel, len(meters), name)
	}
	m := meters[channel]
	if m.IsValid != nil && !*m.IsValid {
		return 0, fmt.Errorf("%s[%d].is_valid is false: the meter has no valid reading", name, channel)
	}
	if m.Power == nil {
		return 0, fmt.Errorf("no %s[%d].power in /status", name, channel)
	}
	return checkWatts(*m.Power)
}

// Tasmota reads a Tasmota plug: GET {url}/cm?cmnd=Status%208, field
// StatusSNS.ENERGY.Power (a number, or an array on multi-channel devices,
// indexed by channel). A user and password in the URL are sent as
// Tasmota's user= and password= query parameters.
type Tasmota struct {
	base    *url.URL
	channel int
	c       *client
}

// Read implements Meter.
func (t *Tasmota) Read(ctx context.Context) (float64, error) {
	u := withPath(t.base, "/cm")
	var q []string
	if t.base.User != nil {
		pass, _ := t.base.User.Password()
		q = append(q, "user="+url.QueryEscape(t.base.User.Username()), "password="+url.QueryEscape(pass))
		u.User = nil
	}
	if t.base.RawQuery != "" {
		q = append(q, t.base.RawQuery)
	}
	u.RawQuery = strings.Join(append(q, "cmnd=Status%208"), "&")
	// The user and password in the query are the base URL's: shown as
	// its "xxxxx@".
	shown := showURL(t.base, "/cm?cmnd=Status%208")
	body, err := t.c.get(ctx, u, shown)
	if err != nil {
		return 0, err
	}
	w, err := ParseTasmotaStatus8(body, t.channel)
	if err != nil {
		return 0, t.c.errorf(shown, err)
	}
	return w, nil
}

// ParseTasmotaStatus8 reads StatusSNS.ENERGY.Power from a Tasmota
// `Status 8` answer:
//
//	{"StatusSNS":{"Time":"2024-05-01T12:00:00","ENERGY":{"TotalStartTime":"...",
//	 "Total":12.345,"Yesterday":0.1,"Today":0.05,"Power":8,...}}}
//
// Power is [8,0] on multi-channel devices; channel picks the element.
func ParseTasmotaStatus8(body []byte, channel int) (float64, error) {
	var st struct {
		StatusSNS *struct {
			Energy *struct {
				Power json.RawMessage `json:"Power"`
			} `json:"ENERGY"`
		} `json:"StatusSNS"`
		Command string `json:"Command"`
		Warning string `json:"WARNING"`
	}
	if err := decodeJSON(body, &st); err != nil {
		return 0, err
	}
	switch {
	case st.Warning != "":
		return 0, fmt.Errorf("the device says %q", st.Warning)
	case st.Command == "Unknown":
		return 0, errors.New("the device does not know the command Status 8")
	case st.StatusSNS == nil:
		return 0, errors.New("no StatusSNS in the Status 8 answer")
	case st.StatusSNS.Energy == nil || len(st.StatusSNS.Energy.Power) == 0:
		return 0, errors.New("no StatusSNS.ENERGY.Power in the Status 8 answer: this device has no energy monitor")
	}
	raw := st.StatusSNS.Energy.Power
	var one float64
	if err := json.Unmarshal(raw, &one); err == nil {
		if channel != 0 {
			return 0, fmt.Errorf("channel %d is out of range: ENERGY.Power is a single value", channel)
		}
		return checkWatts(one)
	}
	var many []float64
	if err := json.Unmarshal(raw, &many); err != nil {
		return 0, fmt.Errorf("ENERGY.Power is %s, not a number or an array of numbers", quoteShort(string(raw)))
	}
	if channel >= len(many) {
		return 0, fmt.Errorf("channel %d is out of range: ENERGY.Power has %d values", channel, len(many))
	}
	return checkWatts(many[channel])
}

// HTTPJSON reads the number at a dotted path of any JSON answer.
type HTTPJSON struct {
	u    *url.URL
	path []string
	c    *client
}

// Read implements Meter.
func (h *HTTPJSON) Read(ctx context.Context) (float64, error) {
	shown := redactURL(h.u)
	body, err := h.c.get(ctx, h.u, shown)
	if err != nil {
		return 0, err
	}
	w, err := lookupNumber(body, h.path)
	if err == nil {
		w, err = checkWatts(w)
	}
	if err != nil {
		return 0, h.c.errorf(shown, err)
	}
	return w, nil
}

// LookupNumber returns the number at path in a JSON document. The path is
// dotted keys, with array indexes as numbers: "data.power",
// "emeters.0.power". "$." in front and [n] indexes are also accepted
// ("$.emeters[0].power"). A string holding a number counts as a number.
func LookupNumber(body []byte, path string) (float64, error) {
	segs, err := splitPath(path)
	if err != nil {
		return 0, err
	}
	return lookupNumber(body, segs)
}

func splitPath(path string) ([]string, error) {
	p := strings.TrimSpace(path)
	p = strings.TrimPrefix(strings.TrimPrefix(p, "$"), ".")
	p = strings.ReplaceAll(strings.ReplaceAll(p, "[", "."), "]", "")
	if p == "" {
		return nil, fmt.Errorf("json_path %q names no field", path)
	}
	segs := strings.Split(p, ".")
	for _, s := range segs {
		if s == "" {
			return nil, fmt.Errorf("json_path %q has an empty segment: write keys and array indexes separated by dots, such as emeters.0.power", path)
		}
	}
	return segs, nil
}

func lookupNumber(body []byte, segs []string) (float64, error) {
	var doc any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return 0, notJSON(body, err)
	}
	cur := doc
	for i, seg := range segs {
		at := strings.Join(segs[:i+1], ".")
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[seg]
			if !ok {
				return 0, fmt.Errorf("json_path %s: no field %q", at, seg)
			}
			cur = next
		case []any:
			n, err := strconv.Atoi(seg)
			if err != nil {
				return 0, fmt.Errorf("json_path %s: %q is not an index into an array", at, seg)
			}
			if n < 0 || n >= len(v) {
				return 0, fmt.Errorf("json_path %s: index %d is out of range (the array has %d elements)", at, n, len(v))
			}
			cur = v[n]
		default:
			return 0, fmt.Errorf("json_path %s: %s is %s, not an object or array", at, strings.Join(segs[:i], "."), jsonKind(cur))
		}
	}
	switch v := cur.(type) {
	case json.Number:
		return v.Float64()
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err == nil {
			return f, nil
		}
	}
	return 0, fmt.Errorf("json_path %s is %s, not a number", strings.Join(segs, "."), jsonKind(cur))
}

func jsonKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "the string " + quoteShort(v)
	case json.Number:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// runner is the part of command.Runner a command meter uses.
type runner interface {
	Name() string
	Run(ctx context.Context, cmd string) (command.Result, error)
}

// localSh runs a command with the local sh when no Host is given.
type localSh struct{}

func (localSh) Name() string { return bench.LocalHost }

func (localSh) Run(ctx context.Context, cmd string) (command.Result, error) {
	c := exec.CommandContext(ctx, "sh", "-c", cmd)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	// A background child that keeps the pipes open does not hold Read.
	c.WaitDelay = time.Second
	err := c.Run()
	out := command.Result{Stdout: stdout.String(), Stderr: stderr.String()}
	if ee, ok := errors.AsType[*exec.ExitError](err); ok && ctx.Err() == nil {
		out.ExitStatus = ee.ExitCode()
		return out, nil
	}
	if err != nil && ctx.Err() != nil {
		return out, ctx.Err()
	}
	return out, err
}

// Command runs a shell command (on Host, or locally) and reads the first
// number it prints as watts: "9.5", "9.5 W", "power=9.5".
//
// The command may carry a credential (curl -H 'Authorization: Bearer …'),
// so errors never quote it: they name the meter type and the host, and
// any word of the command that the output it quotes repeats is masked.
type Command struct {
	cmd     string
	host    runner
	timeout time.Duration
}

// Read implements Meter.
func (c *Command) Read(ctx context.Context) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	fail := func(err error) error {
		return fmt.Errorf("%s power meter on %s: %w", TypeCommand, c.host.Name(), err)
	}
	out, err := c.host.Run(ctx, c.cmd)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %v", c.timeout)
		} else if m := mask(err.Error(), c.cmd); m != err.Error() {
			err = errors.New(m) // the transport's error repeated what it ran
		}
		return 0, fail(err)
	}
	if out.ExitStatus != 0 {
		return 0, fail(fmt.Errorf("exit status %d: %s", out.ExitStatus, quoteShort(mask(out.Stderr, c.cmd))))
	}
	w, err := ParseFirstNumber(out.Stdout)
	if err != nil {
		return 0, fail(fmt.Errorf("no number in the output %s", quoteShort(mask(out.Stdout, c.cmd))))
	}
	if w, err = checkWatts(w); err != nil {
		return 0, fail(err)
	}
	return w, nil
}

// minMaskedWord is the shortest word of a command that mask hides:
// shorter ones (curl, -H, sh) are no secret and hiding them would garble
// the message.
const minMaskedWord = 6

// mask replaces in text every word of cmd that is minMaskedWord
// characters or longer with "xxxxx", so that output quoted in an error
// cannot repeat a credential the command carries. Words are runs of
// letters, digits and - _ . ~ + (a token, a password, a host name); what
// separates them (blanks, quotes, = : / ? & @) is kept.
func mask(text, cmd string) string {
	words := strings.FieldsFunc(cmd, func(r rune) bool {
		wordRune := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.~+", r)
		return !wordRune
	})
	// Longest first, so that a word inside a longer one is not masked
	// half-way.
	slices.SortFunc(words, func(a, b string) int { return len(b) - len(a) })
	for _, w := range words {
		if len(w) >= minMaskedWord {
			text = strings.ReplaceAll(text, w, "xxxxx")
		}
	}
	return text
}

var firstNumber = regexp.MustCompile(`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`)

// ParseFirstNumber returns the first decimal number in out.
func ParseFirstNumber(out string) (float64, error) {
	m := firstNumber.FindString(out)
	if m == "" {
		return 0, fmt.Errorf("no number in the output %s", quoteShort(out))
	}
	return strconv.ParseFloat(m, 64)
}

// Sensor reads a device's own power sensor (type routeros_health) through
// the probe its platform driver supplies: which command to run and how to
// read watts out of what it prints. Each Read is one command on the
// device, so keep the Recorder's interval at a second or more: on some
// boards the sensor read itself costs CPU.
type Sensor struct {
	meter   string // the meter type, for errors
	host    command.Runner
	probe   device.PowerProbe
	timeout time.Duration
}

// Read implements Meter.
func (s *Sensor) Read(ctx context.Context) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	fail := func(err error) error {
		return fmt.Errorf("%s on %s: %s: %w", s.meter, s.host.Name(), s.probe.Command, err)
	}
	out, err := s.host.Run(ctx, s.probe.Command)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %v", s.timeout)
		}
		return 0, fail(err)
	}
	if out.ExitStatus != 0 {
		// Vendor CLIs print their complaints on stdout.
		msg := out.Stderr
		if strings.TrimSpace(msg) == "" {
			msg = out.Stdout
		}
		return 0, fail(fmt.Errorf("exit status %d: %s", out.ExitStatus, quoteShort(msg)))
	}
	w, err := s.probe.Parse(out.Stdout)
	if err == nil {
		w, err = checkWatts(w)
	}
	if err != nil {
		return 0, fail(err)
	}
	return w, nil
}

// Manual returns fixed figures read off a meter by eye: Load for every
// Read, Idle as the Recorder's baseline.
type Manual struct {
	Idle, Load float64
}

// Read implements Meter.
func (m Manual) Read(context.Context) (float64, error) { return m.Load, nil }

// IdleBaseline is the idle figure; a Recorder uses it instead of reading.
func (m Manual) IdleBaseline() float64 { return m.Idle }

// decodeJSON unmarshals a meter's answer, explaining non-JSON bodies.
func decodeJSON(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return notJSON(body, err)
	}
	return nil
}

func notJSON(body []byte, err error) error {
	if _, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		return fmt.Errorf("unexpected JSON (%w): %s", err, quoteShort(string(body)))
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return errors.New("the answer is empty, not JSON")
	}
	return fmt.Errorf("the answer is not JSON: %s", quoteShort(string(body)))
}

// withPath returns a copy of base with p appended to its path.
func withPath(base *url.URL, p string) *url.URL {
	u := *base
	u.Path = strings.TrimRight(u.Path, "/") + p
	u.RawPath = ""
	u.RawQuery = ""
	u.Fragment = ""
	return &u
}
