package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

const root = "../../../.."

// The README's support matrix, the resource templates and the rendered
// docs pages say what the support table says: a row changed without
// `make generate` fails here (and `make docs-check`).
func TestDocsMatchSupportTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := Readme(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	if want != string(readme) {
		t.Errorf("README.md's support table is not the table's (run make generate)")
	}
	for _, res := range device.SupportResources() {
		tmpl, err := os.ReadFile(filepath.Join(root, "templates", "resources", TemplateName(res)))
		if err != nil {
			t.Fatal(err)
		}
		if string(tmpl) != Template(res) {
			t.Errorf("templates/resources/%s is not the table's (run make generate)", TemplateName(res))
		}
		page, err := os.ReadFile(filepath.Join(root, "docs", "resources", strings.TrimSuffix(TemplateName(res), ".tmpl")))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), device.SupportSectionMarkdown(res)) {
			t.Errorf("docs/resources/%s has no Platform support section as the table says (run make generate)", strings.TrimSuffix(TemplateName(res), ".tmpl"))
		}
	}
}

func TestReadmeNeedsMarkers(t *testing.T) {
	if _, err := Readme("no markers"); err == nil {
		t.Error("Readme without markers: no error")
	}
}
