package provider

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A kept run whose renderings_in_state grows reads the new rendering back
// from its archive, without re-running; one that shrinks drops it.
func TestUpdateRenderings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "chart.svg"), []byte("<svg>archived</svg>"), 0o600); err != nil {
		t.Fatal(err)
	}
	kept := func(names ...string) types.List {
		vals := make([]attr.Value, len(names))
		for i, n := range names {
			vals[i] = types.StringValue(n)
		}
		return types.ListValueMust(types.StringType, vals)
	}
	state := benchmarkRunModel{
		ID: types.StringValue("20261201T000000Z-00000001"), ArchivePath: types.StringValue(dir),
		Markdown: types.StringValue("# table"), JSON: types.StringNull(), CSV: types.StringNull(), SVG: types.StringNull(),
		RenderingsInState: kept("svg"),
	}
	var diags diag.Diagnostics
	updateRenderings(t.Context(), &state, &diags)
	if diags.HasError() || diags.WarningsCount() != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if state.SVG.ValueString() != "<svg>archived</svg>" {
		t.Errorf("svg = %s, want the archive's chart.svg", state.SVG)
	}
	if !state.Markdown.IsNull() || !state.JSON.IsNull() {
		t.Errorf("renderings not listed are kept: markdown %s, json %s", state.Markdown, state.JSON)
	}

	// Without an archive there is nothing to read back: a warning, null.
	state.ArchivePath, state.RenderingsInState = types.StringNull(), kept("svg", "csv")
	updateRenderings(t.Context(), &state, &diags)
	if diags.WarningsCount() != 1 || !state.CSV.IsNull() || state.SVG.ValueString() == "" {
		t.Errorf("without an archive: csv %s, svg %s, diagnostics %v", state.CSV, state.SVG, diags)
	}
}
