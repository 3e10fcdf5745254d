package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"testing"
)

// vendorAccTest names the vendor acceptance tests the device tier is for.
var vendorAccTest = regexp.MustCompile(`^TestAcc(RouterOS|EdgeOS|VyOS|RTX)_`)

// TestDeviceTierCoversEveryVendorTest holds issue 24 point 1's promise:
// every vendor acceptance test either changes a vendorRouter (simRouter,
// so it can run on a device) or declares with simOnly why it needs a
// simulator of its own; a new test that does neither fails here, naming
// itself. Calls are followed through the package's own helpers
// (testRTXLifecycle and the like).
func TestDeviceTierCoversEveryVendorTest(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	calls := map[string]map[string]bool{} // function → functions it calls by name
	var tests []string
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv != nil {
				continue
			}
			name := fn.Name.Name
			calls[name] = map[string]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if id, ok := c.Fun.(*ast.Ident); ok {
						calls[name][id.Name] = true
					}
				}
				return true
			})
			if vendorAccTest.MatchString(name) {
				tests = append(tests, name)
			}
		}
	}
	if len(tests) < 20 {
		t.Fatalf("found %d vendor acceptance tests: the pattern or the file list is wrong", len(tests))
	}
	reaches := func(from, target string) bool {
		seen := map[string]bool{}
		var walk func(string) bool
		walk = func(f string) bool {
			if f == target {
				return true
			}
			if seen[f] {
				return false
			}
			seen[f] = true
			for c := range calls[f] {
				if walk(c) {
					return true
				}
			}
			return false
		}
		return walk(from)
	}
	sort.Strings(tests)
	var onDevice, simulatorOnly int
	for _, name := range tests {
		dev, sim := reaches(name, "simRouter"), reaches(name, "simOnly")
		switch {
		case dev && sim:
			t.Errorf("%s both runs on a vendorRouter and declares simOnly: one or the other", name)
		case dev:
			onDevice++
		case sim:
			simulatorOnly++
		default:
			t.Errorf("%s neither runs on a vendorRouter (simRouter, device_tier_test.go) nor says with simOnly why it needs a simulator of its own", name)
		}
	}
	t.Logf("%d vendor acceptance tests: %d run on a device too, %d need a simulator of their own", len(tests), onDevice, simulatorOnly)
}
