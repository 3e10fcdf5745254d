package provider

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// What a configuration uses, for device.CheckSupport: the one table of
// which platform takes which attribute (internal/device/support.go). The
// provider knows no platform's refusals; it lists the attributes a
// configuration sets and asks the table, at plan (planCheck) and again
// at apply (applyCheck) for values known only then.

// supportUse is one resource's configuration as the table sees it.
type supportUse struct {
	resource string
	uses     []device.Use
}

// usedAttributes lists every attribute cfg sets: null values, empty
// collections and the version counters of write-only attributes are not
// uses, and a write-only twin (static_key_wo) counts as its attribute
// (static_key). Values are kept for primitives only; the table quotes a
// value only when a row names it, so a secret is never printed.
func usedAttributes(resource string, cfg tfsdk.Config) supportUse {
	u := supportUse{resource: resource}
	if cfg.Raw.IsNull() {
		return u
	}
	_ = tftypes.Walk(cfg.Raw, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
		steps := p.Steps()
		if len(steps) == 0 {
			return true, nil
		}
		if v.IsNull() || !v.IsKnown() {
			return false, nil
		}
		var path, pattern strings.Builder
		for _, s := range steps {
			switch s := s.(type) {
			case tftypes.AttributeName:
				name := string(s)
				if strings.HasSuffix(name, "_wo_version") {
					return false, nil
				}
				name = strings.TrimSuffix(name, "_wo")
				if path.Len() > 0 {
					path.WriteByte('.')
					pattern.WriteByte('.')
				}
				path.WriteString(name)
				pattern.WriteString(name)
			case tftypes.ElementKeyString:
				fmt.Fprintf(&path, "[%q]", string(s))
				pattern.WriteString(".*")
			case tftypes.ElementKeyInt:
				fmt.Fprintf(&path, "[%d]", int64(s))
				pattern.WriteString(".*")
			default: // a set element
				path.WriteString("[*]")
				pattern.WriteString(".*")
			}
		}
		use := device.Use{Path: path.String(), Pattern: pattern.String()}
		switch {
		case v.Type().Is(tftypes.String):
			var s string
			_ = v.As(&s)
			use.Value = s
		case v.Type().Is(tftypes.Bool):
			var b bool
			_ = v.As(&b)
			use.Value = fmt.Sprint(b)
		case v.Type().Is(tftypes.Number):
			var n big.Float
			_ = v.As(&n)
			use.Value = n.Text('g', -1)
		case v.Type().Is(tftypes.List{}), v.Type().Is(tftypes.Set{}), v.Type().Is(tftypes.Map{}), v.Type().Is(tftypes.Tuple{}):
			var elems []tftypes.Value
			if v.Type().Is(tftypes.Map{}) {
				var m map[string]tftypes.Value
				_ = v.As(&m)
				if len(m) == 0 {
					return false, nil
				}
			} else if _ = v.As(&elems); len(elems) == 0 {
				return false, nil
			}
		}
		u.uses = append(u.uses, use)
		return true, nil
	})
	return u
}

// errDeviceRead marks a failed read of the device's version.
type errDeviceRead struct{ err error }

func (e errDeviceRead) Error() string { return e.err.Error() }

// check asks the table about u on dev; snap gives the device's snapshot
// when a row needs its version (read once, at most).
func (u supportUse) check(dev *Device, snap func() (*device.Snapshot, error)) error {
	return device.CheckSupport(u.resource, dev.Platform, u.uses, func() (string, error) {
		s, err := snap()
		if err != nil {
			return "", errDeviceRead{err}
		}
		return s.Facts.Firmware, nil
	})
}

// addSupportError reports a failed check as planCheck reports its own:
// a device that could not be read, or what the platform does not take.
func addSupportError(diags *diagnostics, dev *Device, subject string, err error) {
	if re := (errDeviceRead{}); errors.As(err, &re) {
		diags.AddError("Unable to Read Device", fmt.Sprintf("device %q: %s", dev.Name, re.err))
		return
	}
	where := fmt.Sprintf("device %q (platform %s)", dev.Name, dev.Platform)
	if subject != "" {
		where += ", " + subject
	}
	diags.AddError("Not Supported On Platform", where+": "+err.Error())
}
