package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// describedAttr is what every schema attribute type offers.
type describedAttr interface {
	GetMarkdownDescription() string
}

// Every attribute of the provider, its resources and data sources has a
// MarkdownDescription: the generated docs are only as good as these.
func TestSchemasAreDescribed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := New("test")()
	var pr provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &pr)
	checkProviderAttrs(t, "provider", pr.Schema.Attributes)

	for _, f := range p.Resources(ctx) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "routerlab"}, &meta)
		var sr resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &sr)
		if sr.Schema.MarkdownDescription == "" {
			t.Errorf("%s has no MarkdownDescription", meta.TypeName)
		}
		checkResourceAttrs(t, meta.TypeName, sr.Schema.Attributes)
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var meta datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "routerlab"}, &meta)
		var sr datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &sr)
		if sr.Schema.MarkdownDescription == "" {
			t.Errorf("%s has no MarkdownDescription", meta.TypeName)
		}
		checkDataSourceAttrs(t, meta.TypeName, sr.Schema.Attributes)
	}
}

func checkDescribed(t *testing.T, where, name string, a describedAttr) {
	t.Helper()
	if a.GetMarkdownDescription() == "" {
		t.Errorf("%s: attribute %s has no MarkdownDescription", where, name)
	}
}

func checkProviderAttrs(t *testing.T, where string, attrs map[string]pschema.Attribute) {
	for name, a := range attrs {
		checkDescribed(t, where, name, a)
		switch n := a.(type) {
		case pschema.SingleNestedAttribute:
			checkProviderAttrs(t, where+"."+name, n.Attributes)
		case pschema.MapNestedAttribute:
			checkProviderAttrs(t, where+"."+name, n.NestedObject.Attributes)
		case pschema.ListNestedAttribute:
			checkProviderAttrs(t, where+"."+name, n.NestedObject.Attributes)
		}
	}
}

func checkResourceAttrs(t *testing.T, where string, attrs map[string]rschema.Attribute) {
	for name, a := range attrs {
		checkDescribed(t, where, name, a)
		switch n := a.(type) {
		case rschema.SingleNestedAttribute:
			checkResourceAttrs(t, where+"."+name, n.Attributes)
		case rschema.MapNestedAttribute:
			checkResourceAttrs(t, where+"."+name, n.NestedObject.Attributes)
		case rschema.ListNestedAttribute:
			checkResourceAttrs(t, where+"."+name, n.NestedObject.Attributes)
		}
	}
}

func checkDataSourceAttrs(t *testing.T, where string, attrs map[string]dsschema.Attribute) {
	for name, a := range attrs {
		checkDescribed(t, where, name, a)
		switch n := a.(type) {
		case dsschema.SingleNestedAttribute:
			checkDataSourceAttrs(t, where+"."+name, n.Attributes)
		case dsschema.MapNestedAttribute:
			checkDataSourceAttrs(t, where+"."+name, n.NestedObject.Attributes)
		case dsschema.ListNestedAttribute:
			checkDataSourceAttrs(t, where+"."+name, n.NestedObject.Attributes)
		}
	}
}
