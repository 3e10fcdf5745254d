package provider

import (
	"context"
	"errors"
	"fmt"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// What the resources beyond routerlab_router share: finding a device's
// capability, import IDs of owned objects, and the read-back after a
// write.

// diagnostics is the framework's diagnostics list.
type diagnostics = diag.Diagnostics

// capabilityOf finds device name and its capability T; what names the
// resource in the error a platform without it gets (at plan time).
func capabilityOf[T any](inv *Inventory, name, what string) (*Device, T, error) {
	var zero T
	dev, err := inv.Lookup(name)
	if err != nil {
		return nil, zero, err
	}
	drv, err := dev.Driver()
	if err != nil {
		return dev, zero, fmt.Errorf("%s on device %q: %w", what, dev.Name, err)
	}
	c, err := device.Capability[T](drv, what)
	if err != nil {
		return dev, zero, fmt.Errorf("device %q: %w", dev.Name, err)
	}
	return dev, c, nil
}

// addDeviceError reports a failed capabilityOf on the device attribute:
// an unknown device, or a platform without the feature.
func addDeviceError(diags *diag.Diagnostics, dev *Device, err error) {
	summary := "Unknown Device"
	if dev != nil {
		summary = "Unsupported Platform"
	}
	diags.AddAttributeError(path.Root("device"), summary, err.Error())
}

// splitObjectID reads an owned object's import ID "<device>/<name>" and
// checks the device exists.
func splitObjectID(id string, inv *Inventory) (devName, name string, err error) {
	devName, name, ok := strings.Cut(id, "/")
	if !ok || devName == "" || name == "" {
		return "", "", fmt.Errorf("import ID %q: want <device>/<name>", id)
	}
	if inv == nil {
		return "", "", fmt.Errorf("the provider is not configured")
	}
	if _, err := inv.Lookup(devName); err != nil {
		return "", "", err
	}
	return devName, name, nil
}

// readBackContext is the context for reading a device back after a write:
// ctx itself, or, when the write was cancelled (Ctrl-C, a deadline), a
// short context of its own, or Terraform would forget what was written.
func readBackContext(ctx context.Context) context.Context {
	if ctx.Err() == nil {
		return ctx
	}
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), interruptedReadTimeout)
	context.AfterFunc(c, cancel)
	return c
}

// namesOr lists names for a message, or says there are none.
func namesOr(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// backtickList renders values for a Markdown description.
func backtickList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "`" + v + "`"
	}
	return strings.Join(q, ", ")
}

// planCheck is the plan-time check every config resource makes: the
// attributes the configuration uses against the support table
// (device.CheckSupport), desired against the platform (validate, no I/O), then against the device as it
// is (check, on the session's one snapshot). Failures become diagnostics
// titled "Invalid <Title>" and "<Title> Not Possible On Device", naming
// the device, its platform and subject (e.g. `tunnel "s2s"`; "" for a
// per-device resource). It returns the snapshot, or nil after an error.
// knownAtPlan reports whether every value of the resource's configuration
// is known at plan. A value that comes from another resource's output
// (terraform_data, a key another provider generates, a peer's address) is
// known only at apply: the plan then shows it as "(known after apply)",
// the attribute validators check every value that is known, and the
// checks against the driver and the device run at apply instead, before
// anything is written (see applyCheck), so a value that turns out bad
// still fails with the same message and changes nothing.
func knownAtPlan(cfg tfsdk.Config) bool { return cfg.Raw.IsFullyKnown() }

// applyCheck is planCheck's validation at apply, inside the write
// sequence and before its first write, for a configuration that was not
// known at plan (and again for one that was: the device may have changed
// since).
func applyCheck(dev *Device, su supportUse, validate func() error, check func(*device.Snapshot) error, snap *device.Snapshot) error {
	if err := su.check(dev, func() (*device.Snapshot, error) { return snap, nil }); err != nil {
		return err
	}
	if err := validate(); err != nil {
		return err
	}
	return check(snap)
}

func planCheck(ctx context.Context, dev *Device, title, subject string, su supportUse, validate func() error, check func(*device.Snapshot) error, diags *diag.Diagnostics) *device.Snapshot {
	where := fmt.Sprintf("device %q (platform %s)", dev.Name, dev.Platform)
	if subject != "" {
		where += ", " + subject
	}
	// The support table first: what the platform does not take at all is
	// refused before the driver looks at values (the device is read here
	// only when a row needs its version).
	if err := su.check(dev, func() (*device.Snapshot, error) { return dev.Snapshot(ctx) }); err != nil {
		addSupportError(diags, dev, subject, err)
		return nil
	}
	if err := validate(); err != nil {
		diags.AddError("Invalid "+title, where+": "+err.Error())
		return nil
	}
	snap, err := dev.Snapshot(ctx)
	if err != nil {
		diags.AddError("Unable to Read Device", fmt.Sprintf("device %q: %s", dev.Name, err))
		return nil
	}
	warnDevice(diags, dev, snap)
	if err := check(snap); errors.Is(err, device.ErrInterfaceAbsent) {
		// An interface that a PPP session or tunnel of this apply will
		// create: the check before the write decides.
		diags.AddWarning("Interface Not On Device Yet", where+": "+strings.TrimSuffix(err.Error(), ": "+device.ErrInterfaceAbsent.Error())+
			". If a PPP session or tunnel of this configuration creates it, make this resource depend on it; "+
			"the apply is refused, before anything is written, if the interface is still missing then.")
	} else if err != nil {
		diags.AddError(title+" Not Possible On Device", where+": "+err.Error())
		return nil
	}
	return snap
}

// inventoryHolder is the Configure step every config resource shares:
// embedded, it keeps the provider's inventory.
type inventoryHolder struct{ inv *Inventory }

func (h *inventoryHolder) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	inv, err := inventoryFrom(req.ProviderData)
	if err != nil {
		resp.Diagnostics.AddError("Unexpected Resource Configure Type", err.Error())
		return
	}
	h.inv = inv
}
