// Package hostile is the property test every platform runs against its
// simulator, and Linux on a router of the namespace lab (issue 18): for every resource and every string attribute of
// its configuration, a set of hostile values is either refused by the
// plan's checks, with a message naming the attribute, or reaches the
// device as inert data: the write succeeds, no second command runs (the
// target's sentinel shows it), the configuration gains no directive (its
// normalised text has as many lines as with the plain value) and the
// value reads back as given.
//
// The attributes are found by reflection over the domain types, so a
// field added to device.TunnelConfig tomorrow is attacked tomorrow
// without anyone listing it here.
package hostile

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Sentinel is the word every payload's second command would leave
// behind: a file /tmp/rlsentinel, a host name, an identity, a line.
const Sentinel = "rlsentinel"

// Value is one hostile string.
type Value struct{ Name, Text string }

// Values are the hostile strings: every way we know of to end a value
// early, start a second command or a second configuration directive on a
// shell, a Vyatta session, the RouterOS console or the RTX console.
func Values() []Value {
	return []Value{
		{"CR", "x\r/system identity set name=" + Sentinel},
		{"LF", "x\nset system host-name " + Sentinel},
		{"NUL", "x\x00y"},
		{"single quote", "it's'; touch /tmp/" + Sentinel + "; '"},
		{"double quote", `x" ; touch /tmp/` + Sentinel + ` ; "`},
		{"backtick", "`touch /tmp/" + Sentinel + "`"},
		{"command substitution", "$(touch /tmp/" + Sentinel + ")"},
		{"semicolon", "x; touch /tmp/" + Sentinel},
		{"and-and", "x && touch /tmp/" + Sentinel},
		{"here-document end", "x\nROUTERLAB_EOF\ntouch /tmp/" + Sentinel + "\n: <<'ROUTERLAB_EOF'"},
		{"RouterOS variable", "$" + Sentinel},
		{"RouterOS command", "[/system identity set name=" + Sentinel + "]"},
		{"RTX comment", "x # " + Sentinel},
		{"non-ASCII", "ラボ-ü-" + Sentinel},
		{"IPv6 zone", "fe80::1%x\ntouch /tmp/" + Sentinel},
		{"backslash", `x\` + "\n" + Sentinel},
		{"10 kB", strings.Repeat("a", 10240)},
	}
}

// secretFields are the fields no parser reads back.
var secretFields = map[string]bool{"PSK": true, "Password": true, "PresharedKey": true, "PrivateKey": true, "StaticKey": true}

// attrNames are the attribute names whose snake case the field's name
// does not give.
var attrNames = map[string]string{"AllowedIPs": "allowed_ips", "L2TP": "l2tp_ipsec", "IPsec": "ipsec", "OpenVPN": "openvpn", "WireGuard": "wireguard",
	"WANInterfaces": "wan_interfaces", "IKEProposals": "ike_proposals", "ESPProposals": "esp_proposals", "IPv4Forwarding": "ip_forwarding"}

// step is one hop of a path into a configuration.
type step struct {
	field string // a struct field
	index int    // a slice element (field == "" and key == "")
	key   string // a map element
	isKey bool   // the map key itself is the slot
	isMap bool
}

// Slot is one string in a configuration.
type Slot struct {
	steps  []step
	Path   string // "OpenVPN.Remote", "Interfaces[eth1].Description", "Interfaces{eth1}"
	Attr   string // the attribute's name as errors name it: "remote"
	Secret bool
}

// Slots lists every string of cfg: fields, slice elements, map keys and
// map values, through pointers, in a stable order.
func Slots(cfg any) []Slot {
	var out []Slot
	var walk func(v reflect.Value, steps []step, path, attr string, secret bool)
	walk = func(v reflect.Value, steps []step, path, attr string, secret bool) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), steps, path, attr, secret)
			}
		case reflect.String:
			out = append(out, Slot{steps: append([]step(nil), steps...), Path: path, Attr: attr, Secret: secret})
		case reflect.Struct:
			for i := range v.NumField() {
				f := v.Type().Field(i)
				if !f.IsExported() {
					continue
				}
				name, p := f.Name, path
				if !f.Anonymous {
					p = strings.TrimPrefix(path+"."+name, ".")
				}
				a := attr
				if !f.Anonymous {
					a = snake(name)
				}
				walk(v.Field(i), append(steps, step{field: name}), p, a, secret || secretFields[name])
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i), append(steps, step{index: i}), fmt.Sprintf("%s[%d]", path, i), attr, secret)
			}
		case reflect.Map:
			keys := v.MapKeys()
			names := make([]string, len(keys))
			for i, k := range keys {
				names[i] = k.String()
			}
			for _, k := range sortedStrings(names) {
				if v.Type().Key().Kind() == reflect.String {
					out = append(out, Slot{steps: append(append([]step(nil), steps...), step{key: k, isKey: true, isMap: true}), Path: path + "{" + k + "}", Attr: attr})
				}
				walk(v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())), append(steps, step{key: k, isMap: true}), path+"["+k+"]", attr, secret)
			}
		}
	}
	walk(reflect.ValueOf(cfg), nil, "", "", false)
	return out
}

// With returns a deep copy of cfg with the slot's string set to s.
func With[C any](cfg C, slot Slot, s string) C {
	cp := deepCopy(cfg)
	v := reflect.ValueOf(&cp).Elem()
	set(v, slot.steps, s)
	return cp
}

func set(v reflect.Value, steps []step, s string) {
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if len(steps) == 0 {
		v.SetString(s)
		return
	}
	st := steps[0]
	switch {
	case st.isMap:
		k := reflect.ValueOf(st.key).Convert(v.Type().Key())
		elem := v.MapIndex(k)
		if st.isKey {
			v.SetMapIndex(k, reflect.Value{})
			v.SetMapIndex(reflect.ValueOf(s).Convert(v.Type().Key()), elem)
			return
		}
		cp := reflect.New(elem.Type()).Elem()
		cp.Set(elem)
		set(cp, steps[1:], s)
		v.SetMapIndex(k, cp)
	case st.field != "":
		set(v.FieldByName(st.field), steps[1:], s)
	default:
		set(v.Index(st.index), steps[1:], s)
	}
}

// get reads the slot's string from a value of another type with the same
// field names (a State for a Config); ok is false where it has none.
func get(v reflect.Value, steps []step) (string, bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "", false
		}
		v = v.Elem()
	}
	if len(steps) == 0 {
		if v.Kind() != reflect.String {
			return "", false
		}
		return v.String(), true
	}
	st := steps[0]
	switch {
	case st.isMap:
		if v.Kind() != reflect.Map {
			return "", false
		}
		if st.isKey {
			return st.key, v.MapIndex(reflect.ValueOf(st.key).Convert(v.Type().Key())).IsValid()
		}
		e := v.MapIndex(reflect.ValueOf(st.key).Convert(v.Type().Key()))
		if !e.IsValid() {
			return "", false
		}
		return get(e, steps[1:])
	case st.field != "":
		if v.Kind() != reflect.Struct {
			return "", false
		}
		f := v.FieldByName(st.field)
		if !f.IsValid() {
			return "", false
		}
		return get(f, steps[1:])
	default:
		if v.Kind() != reflect.Slice || st.index >= v.Len() {
			return "", false
		}
		return get(v.Index(st.index), steps[1:])
	}
}

// readKey is what a read-back holds at a map-key slot after the key was
// replaced by s: the new key.
func readBack(state any, slot Slot, s string) (string, bool) {
	steps := slot.steps
	if last := steps[len(steps)-1]; last.isKey {
		steps = append(append([]step(nil), steps[:len(steps)-1]...), step{key: s, isKey: true, isMap: true})
	}
	return get(reflect.ValueOf(state), steps)
}

func deepCopy[C any](c C) C {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	var out C
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

func snake(name string) string {
	if a, ok := attrNames[name]; ok {
		return a
	}
	var b strings.Builder
	r := []rune(name)
	for i, c := range r {
		upper := c >= 'A' && c <= 'Z'
		if upper && i > 0 && (r[i-1] >= 'a' && r[i-1] <= 'z' || r[i-1] >= '0' && r[i-1] <= '9' || i+1 < len(r) && r[i+1] >= 'a' && r[i+1] <= 'z' && r[i-1] >= 'A' && r[i-1] <= 'Z') {
			b.WriteByte('_')
		}
		b.WriteString(strings.ToLower(string(c)))
	}
	return b.String()
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Case is one resource of one platform: its valid configuration and how
// the plan checks it, the apply writes it, the device reads it back and
// the destroy removes it, all through the platform's real driver.
type Case[C any] struct {
	Name string
	Base C
	// Validate is the plan's check: the driver's Validate and Check
	// against a fresh snapshot.
	Validate func(ctx context.Context, c C) error
	Apply    func(ctx context.Context, c C) error
	// Read is the object as the driver reads it back (a State whose
	// fields bear the Config's names).
	Read func(ctx context.Context, c C) (any, error)
	Undo func(ctx context.Context, c C) error
	// Skip leaves a slot alone, for a reason the caller states.
	Skip func(s Slot) bool
}

// Target is the device the cases run on.
type Target struct {
	Driver device.Driver
	// Effects reports a second command that ran: the sentinel's trace on
	// the device (a file, a host name, an identity), which it
	// then clears, so the next value is judged on its own.
	Effects func() error
}

// Run attacks every slot of c with every hostile value.
func Run[C any](t *testing.T, tg Target, c Case[C]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// The plain configuration: its text's line count is what a hostile
	// value must not change.
	if err := c.Validate(ctx, c.Base); err != nil {
		t.Fatalf("%s: the base configuration is refused: %v", c.Name, err)
	}
	if err := c.Apply(ctx, c.Base); err != nil {
		t.Fatalf("%s: the base configuration does not apply: %v", c.Name, err)
	}
	baseLines := textLines(ctx, t, tg)
	if err := c.Undo(ctx, c.Base); err != nil {
		t.Fatalf("%s: undoing the base configuration: %v", c.Name, err)
	}
	refused, inert := 0, 0
	for _, slot := range Slots(c.Base) {
		if c.Skip != nil && c.Skip(slot) {
			continue
		}
		for _, v := range Values() {
			cfg := With(c.Base, slot, v.Text)
			what := fmt.Sprintf("%s: %s = %s", c.Name, slot.Path, v.Name)
			if err := c.Validate(ctx, cfg); err != nil {
				refused++
				msg := err.Error()
				if !namesAttr(msg, slot.Attr) {
					t.Errorf("%s: refused without naming %q: %s", what, slot.Attr, msg)
				}
				if slot.Secret && strings.Contains(msg, v.Text) {
					t.Errorf("%s: the refusal shows the secret: %s", what, msg)
				}
				continue
			}
			inert++
			if err := c.Apply(ctx, cfg); err != nil {
				t.Errorf("%s: the plan accepted it, the device refused it: %v", what, err)
				_ = c.Undo(ctx, cfg)
				continue
			}
			if err := tg.Effects(); err != nil {
				t.Errorf("%s: a second command ran: %v", what, err)
			}
			if n := textLines(ctx, t, tg); n != baseLines {
				t.Errorf("%s: the configuration has %d lines, %d with the plain value: a directive was added", what, n, baseLines)
			}
			if !slot.Secret {
				state, err := c.Read(ctx, cfg)
				switch {
				case err != nil:
					t.Errorf("%s: reading back: %v", what, err)
				default:
					if got, ok := readBack(state, slot, v.Text); ok && got != v.Text {
						t.Errorf("%s: reads back as %q", what, trim(got))
					} else if !ok {
						t.Errorf("%s: does not read back", what)
					}
				}
			}
			if err := c.Undo(ctx, cfg); err != nil {
				t.Errorf("%s: undo: %v", what, err)
			}
		}
	}
	if refused+inert == 0 {
		t.Fatalf("%s: no slot was attacked", c.Name)
	}
	t.Logf("%s: %d values refused at plan, %d carried as data", c.Name, refused, inert)
}

// namesAttr reports whether an error names the attribute: "routes" also
// as "route" and "addresses" as "address", as a message about one
// element names it.
func namesAttr(msg, attr string) bool {
	return strings.Contains(msg, attr) || strings.Contains(msg, strings.TrimSuffix(attr, "s")) || strings.Contains(msg, strings.TrimSuffix(attr, "es"))
}

func textLines(ctx context.Context, t *testing.T, tg Target) int {
	t.Helper()
	snap, err := tg.Driver.Snapshot(ctx)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return strings.Count(snap.Text, "\n")
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
