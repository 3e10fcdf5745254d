package provider

import (
	"context"
	"os"
	"path/filepath"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The renderings a run can keep in state (renderings_in_state), each with
// the file the archive holds it in.
var renderings = []struct{ name, file string }{
	{"markdown", "results.md"},
	{"json", "run.json"},
	{"csv", "results.csv"},
	{"svg", "chart.svg"},
}

// defaultRenderings is what the state keeps unless told otherwise: the
// table people read. JSON, CSV and SVG run to hundreds of lines, and a
// replacement's plan prints every line of their old values (issue 20:
// an 827-line plan with "forces replacement" on line 383); the archive
// keeps all four.
var defaultRenderings = []string{"markdown"}

func renderingNames() []string {
	names := make([]string, len(renderings))
	for i, r := range renderings {
		names[i] = r.name
	}
	return names
}

// keptRenderings is renderings_in_state, or the default while unknown.
func keptRenderings(ctx context.Context, m benchmarkRunModel) []string {
	if m.RenderingsInState.IsNull() || m.RenderingsInState.IsUnknown() {
		return defaultRenderings
	}
	var kept []string
	if m.RenderingsInState.ElementsAs(ctx, &kept, false).HasError() {
		return defaultRenderings
	}
	return kept
}

// renderingField is the model's attribute of a rendering.
func (m *benchmarkRunModel) renderingField(name string) *types.String {
	switch name {
	case "markdown":
		return &m.Markdown
	case "json":
		return &m.JSON
	case "csv":
		return &m.CSV
	default:
		return &m.SVG
	}
}

// dropRenderings nulls the renderings the state does not keep.
func (m *benchmarkRunModel) dropRenderings(ctx context.Context) {
	kept := keptRenderings(ctx, *m)
	for _, r := range renderings {
		if !slices.Contains(kept, r.name) {
			*m.renderingField(r.name) = types.StringNull()
		}
	}
}

// planRenderings plans the renderings the state will not keep as null,
// so that a plan shows nothing for them rather than (known after apply).
func planRenderings(ctx context.Context, plan benchmarkRunModel, planned *tfsdk.Plan) diag.Diagnostics {
	var diags diag.Diagnostics
	kept := keptRenderings(ctx, plan)
	for _, r := range renderings {
		if !slices.Contains(kept, r.name) {
			diags.Append(planned.SetAttribute(ctx, path.Root(r.name), types.StringNull())...)
		}
	}
	return diags
}

// updateRenderings applies a new renderings_in_state to a kept run: a
// rendering no longer kept is dropped, a newly kept one is read back from
// the run's archive; without an archive it stays empty, with a warning.
func updateRenderings(ctx context.Context, state *benchmarkRunModel, diags *diag.Diagnostics) {
	kept := keptRenderings(ctx, *state)
	for _, r := range renderings {
		field := state.renderingField(r.name)
		if !slices.Contains(kept, r.name) {
			*field = types.StringNull()
			continue
		}
		if !field.IsNull() && !field.IsUnknown() {
			continue
		}
		*field = types.StringNull()
		dir := state.ArchivePath.ValueString()
		if dir == "" {
			diags.AddAttributeWarning(path.Root("renderings_in_state"), "Rendering Not Available",
				"run "+state.ID.ValueString()+" was kept without "+r.name+" and has no archive_dir to read it back from; it appears with the next run (terraform apply -replace).")
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, r.file))
		if err != nil {
			diags.AddAttributeWarning(path.Root("renderings_in_state"), "Rendering Not Available", "reading "+r.name+" back from the archive: "+err.Error())
			continue
		}
		*field = types.StringValue(string(b))
	}
}
