package provider

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/report"
)

var _ datasource.DataSource = (*benchmarkArchiveDataSource)(nil)

// NewBenchmarkArchiveDataSource is the routerlab_benchmark_archive constructor.
func NewBenchmarkArchiveDataSource() datasource.DataSource { return &benchmarkArchiveDataSource{} }

type benchmarkArchiveDataSource struct{}

type benchmarkArchiveModel struct {
	Dir                types.String      `tfsdk:"dir"`
	IDs                []string          `tfsdk:"ids"`
	Names              []string          `tfsdk:"names"`
	Last               types.Int64       `tfsdk:"last"`
	Runs               []archivedRunInfo `tfsdk:"runs"`
	ComparisonMarkdown types.String      `tfsdk:"comparison_markdown"`
	ComparisonSVG      types.String      `tfsdk:"comparison_svg"`
}

type archivedRunInfo struct {
	ID       types.String `tfsdk:"id"`
	Name     types.String `tfsdk:"name"`
	Started  types.String `tfsdk:"started"`
	Finished types.String `tfsdk:"finished"`
	Steps    types.Int64  `tfsdk:"steps"`
	Status   types.String `tfsdk:"status"`
	Error    types.String `tfsdk:"error"`
	Markdown types.String `tfsdk:"markdown"`
}

func (d *benchmarkArchiveDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_benchmark_archive"
}

func (d *benchmarkArchiveDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	s := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the runs that `routerlab_benchmark_run` archived in a directory and compares them in one table and chart, " +
			"as seed 002 compares offload off, PPPoE offload on, and both on. Needs no device.",
		Attributes: map[string]schema.Attribute{
			"dir": schema.StringAttribute{Required: true, MarkdownDescription: "The `archive_dir` the runs were written to."},
			"ids": schema.ListAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Only these run ids, in this order."},
			"names": schema.ListAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Only runs with these names, in this order: the latest complete run of each name (a failed re-run does not hide the run before it), or its latest failed run when none is complete."},
			"last": schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.AtLeast(1)},
				MarkdownDescription: "Only the newest N of the selected runs."},
			"runs": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The selected runs, oldest first unless `ids`/`names` give the order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":       s("Run id."),
					"name":     s("Run name."),
					"started":  s("Start, RFC 3339 UTC."),
					"finished": s("End, RFC 3339 UTC."),
					"steps":    schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of steps measured."},
					"status":   s("`complete`, or `failed` for a run that stopped before its last step (marked in the comparison and left out of its chart)."),
					"error":    s("Why a `failed` run stopped."),
					"markdown": s("The run's own results table."),
				}}},
			"comparison_markdown": s("One table comparing the selected runs: a row per MSS (and length), a column group per run."),
			"comparison_svg":      s("The comparison as an SVG bar chart."),
		},
	}
}

func (d *benchmarkArchiveDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m benchmarkArchiveModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	all, err := report.ReadArchive(m.Dir.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("dir"), "Unable to Read Benchmark Archive", err.Error())
		return
	}
	runs, missing := selectRuns(all, m.IDs, m.Names, int(m.Last.ValueInt64()))
	for _, what := range missing {
		resp.Diagnostics.AddAttributeError(path.Root("dir"), "Run Not in Archive", what+" is not in "+m.Dir.ValueString())
	}
	if resp.Diagnostics.HasError() {
		return
	}
	m.Runs = nil
	for _, r := range runs {
		m.Runs = append(m.Runs, archivedRunInfo{
			ID: types.StringValue(r.ID), Name: types.StringValue(r.Name),
			Started: types.StringValue(r.Started.UTC().Format(time.RFC3339)), Finished: types.StringValue(r.Finished.UTC().Format(time.RFC3339)),
			Steps: types.Int64Value(int64(len(r.Steps))), Status: types.StringValue(string(r.Status)), Error: types.StringValue(r.Error),
			Markdown: types.StringValue(report.Markdown(r)),
		})
		if r.Status == bench.RunFailed {
			resp.Diagnostics.AddWarning("Failed Run in the Comparison",
				fmt.Sprintf("run %s (%s) failed: %s. It is marked in comparison_markdown, its missing steps as not measured, and left out of comparison_svg's bars.", r.ID, r.Name, r.Error))
		}
	}
	m.ComparisonMarkdown = types.StringValue(report.CompareMarkdown(runs))
	m.ComparisonSVG = types.StringValue(report.CompareSVG(runs))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// selectRuns applies the filters; it returns what was asked for but not
// found. all is sorted by start time.
func selectRuns(all []bench.Run, ids, names []string, last int) (runs []bench.Run, missing []string) {
	switch {
	case len(ids) > 0:
		for _, id := range ids {
			i := slices.IndexFunc(all, func(r bench.Run) bool { return r.ID == id })
			if i < 0 {
				missing = append(missing, "run id "+id)
				continue
			}
			runs = append(runs, all[i])
		}
	case len(names) > 0:
		for _, name := range names {
			// The latest complete run of that name, else the latest
			// failed one: all is oldest first.
			i, failed := -1, -1
			for j, r := range all {
				switch {
				case r.Name != name:
				case r.Status == bench.RunFailed:
					failed = j
				default:
					i = j
				}
			}
			if i < 0 {
				i = failed
			}
			if i < 0 {
				missing = append(missing, "a run named "+name)
				continue
			}
			runs = append(runs, all[i])
		}
	default:
		runs = all
	}
	if last > 0 && len(runs) > last {
		runs = runs[len(runs)-last:]
	}
	return runs, missing
}
