package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// privateDUTConfigs holds each DUT's normalised running configuration
// (device.Snapshot.Text, secret-free) as it was when the benchmark ran, so
// that a plan after a hand change can name the lines that changed rather
// than only say that a digest differs. Private state: never shown in a plan.
const privateDUTConfigs = "dut_configs"

// maxChangedLines bounds the lines a drift warning quotes.
const maxChangedLines = 20

// dutChange is one DUT whose running configuration differs from the run's.
type dutChange struct {
	device         string
	removed, added []string
	known          bool // false: the run's text was not recorded
}

// keepDUTConfigs records the DUTs' configuration texts of this run.
func (r *benchmarkRunResource) keepDUTConfigs(ctx context.Context, duts []bench.DUTInfo, p privateSetter, diags *diag.Diagnostics) {
	texts := map[string]string{}
	for _, d := range duts {
		if d.ConfigSHA256 == "" {
			continue
		}
		dev, err := r.inv.Lookup(d.Device)
		if err != nil {
			continue
		}
		// The operation's snapshot, read when the run started: the
		// digest check keeps a text that is not the run's out.
		if snap, err := dev.Snapshot(ctx); err == nil && snap.SHA256 == d.ConfigSHA256 {
			texts[d.Device] = snap.Text
		}
	}
	diags.Append(setPrivateJSON(ctx, p, privateDUTConfigs, texts)...)
}

// dutConfigChanges are the DUTs whose running configuration digest differs
// from the one recorded at run time, with the lines that changed where the
// run's text is known.
func (r *benchmarkRunResource) dutConfigChanges(ctx context.Context, state benchmarkRunModel, p privateGetter) ([]dutChange, diag.Diagnostics) {
	var recorded []dutInfoModel
	diags := state.DUTs.ElementsAs(ctx, &recorded, false)
	if diags.HasError() {
		return nil, diags
	}
	texts := map[string]string{}
	diags.Append(getPrivateJSON(ctx, p, privateDUTConfigs, &texts)...)
	var changes []dutChange
	for _, d := range recorded {
		if d.ConfigSHA256.ValueString() == "" {
			continue // no configuration driver for its platform when it ran
		}
		dev, err := r.inv.Lookup(d.Device.ValueString())
		if err != nil {
			continue // reported by checkDevices
		}
		snap, err := dev.Snapshot(ctx)
		if err != nil {
			diags.AddWarning("Unable to Read DUT", fmt.Sprintf("device %q: %s; cannot tell whether its configuration changed since the run", dev.Name, err))
			continue
		}
		if snap.SHA256 == d.ConfigSHA256.ValueString() {
			continue
		}
		c := dutChange{device: dev.Name}
		if old, ok := texts[dev.Name]; ok {
			c.known = true
			c.removed, c.added = changedLines(old, snap.Text)
		}
		changes = append(changes, c)
	}
	return changes, diags
}

// describe is the change for a plan warning: the lines removed (-) and
// added (+), at most maxChangedLines of them.
func (c dutChange) describe() string {
	if !c.known {
		return fmt.Sprintf("DUT %q: its running configuration digest differs from the run's (the run's configuration text was not recorded, so the lines cannot be named).", c.device)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "DUT %q, lines changed since the run:", c.device)
	n := 0
	for _, part := range []struct {
		mark  string
		lines []string
	}{{"-", c.removed}, {"+", c.added}} {
		for _, l := range part.lines {
			if n == maxChangedLines {
				fmt.Fprintf(&b, "\n  … and %d more", len(c.removed)+len(c.added)-n)
				return b.String()
			}
			fmt.Fprintf(&b, "\n  %s %s", part.mark, l)
			n++
		}
	}
	return b.String()
}

// changedLines compares two configuration texts line by line as multisets
// (normalised texts have a stable order, but a moved line is not a
// change): the lines of before missing from after, and those of after
// missing from before, each in its text's order.
func changedLines(before, after string) (removed, added []string) {
	count := map[string]int{}
	for _, l := range strings.Split(after, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(before, "\n") {
		if count[l] > 0 {
			count[l]--
			continue
		}
		if strings.TrimSpace(l) != "" {
			removed = append(removed, l)
		}
	}
	for _, l := range strings.Split(after, "\n") {
		if count[l] > 0 && strings.TrimSpace(l) != "" {
			added = append(added, l)
			count[l]--
		}
	}
	return removed, added
}
