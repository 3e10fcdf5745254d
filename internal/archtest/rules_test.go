package archtest

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/routerlab/terraform-provider-routerlab"

// goList runs `go list` with a template in the module root and returns one
// line per package.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list %v: %v\n%s", args, err, msg)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// platformPackages are the packages that know one vendor each.
func isPlatformPackage(path string) bool {
	rest, ok := strings.CutPrefix(path, module+"/internal/device/")
	return ok && !strings.Contains(rest, "/") && rest != "drivers"
}

// The benchmark engine runs commands through internal/command and asks
// drivers for probes: it never imports a platform package or the SSH
// transport itself.
func TestBenchImportsNoPlatformOrTransport(t *testing.T) {
	for _, line := range goList(t, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./internal/bench/...") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.Contains(f[0], "/cmd/") {
			continue // scripted benchmarks are programs, not the engine
		}
		for _, imp := range f[1:] {
			if imp == module+"/internal/sshx" || isPlatformPackage(imp) || imp == module+"/internal/device/drivers" {
				t.Errorf("%s imports %s", f[0], imp)
			}
		}
	}
}

// Device knowledge and the engine stay free of Terraform: not even
// indirectly do they pull in the plugin framework.
func TestDeviceAndBenchImportNoFramework(t *testing.T) {
	lines := goList(t, "-deps", "-f", "{{.ImportPath}}", "./internal/device/...", "./internal/bench/...", "./internal/command/...", "./internal/sshx/...")
	if len(lines) < 10 {
		t.Fatalf("go list -deps listed only %d packages", len(lines))
	}
	for _, p := range lines {
		if strings.Contains(p, "terraform-plugin-framework") || strings.Contains(p, "terraform-plugin-go") {
			t.Errorf("internal/device, internal/bench, internal/command or internal/sshx depend on %s", p)
		}
	}
}

// Outside internal/device/drivers no code switches on a platform value:
// no `switch` over a device.Platform, no `case device.Linux`, no
// comparison with a platform constant. Platform packages may name their
// own constant (Platform() returns it); they may not compare.
func TestPlatformSwitchOnlyInDrivers(t *testing.T) {
	consts := map[string]bool{"Linux": true, "RouterOS": true, "EdgeOS": true, "RTX": true}
	checked := 0
	for _, line := range goList(t, "-f", "{{.Dir}} {{join .GoFiles \" \"}}", "./...") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasSuffix(filepath.ToSlash(f[0]), "internal/device/drivers") {
			continue
		}
		for _, name := range f[1:] {
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, filepath.Join(f[0], name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			isPlatform := func(e ast.Expr) bool {
				sel, ok := e.(*ast.SelectorExpr)
				if !ok {
					return false
				}
				x, ok := sel.X.(*ast.Ident)
				return ok && x.Name == "device" && consts[sel.Sel.Name]
			}
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CaseClause:
					for _, e := range n.List {
						if isPlatform(e) {
							t.Errorf("%s: case on a platform value outside internal/device/drivers", fset.Position(e.Pos()))
						}
					}
				case *ast.BinaryExpr:
					if (n.Op == token.EQL || n.Op == token.NEQ) && (isPlatform(n.X) || isPlatform(n.Y)) {
						t.Errorf("%s: comparison with a platform value outside internal/device/drivers", fset.Position(n.Pos()))
					}
				}
				return true
			})
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d files", checked)
	}
}

// inspectGoFiles parses every non-test Go file of the packages and walks
// it with visit (given the file's directory, name and fileset); it fails
// the test when fewer than least files were read, so a pattern that
// matches nothing cannot pass.
func inspectGoFiles(t *testing.T, least int, patterns []string, skip func(dir, name string) bool, visit func(fset *token.FileSet, n ast.Node)) {
	t.Helper()
	checked := 0
	for _, line := range goList(t, append([]string{"-f", "{{.Dir}} {{join .GoFiles \" \"}}"}, patterns...)...) {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		for _, name := range f[1:] {
			if skip != nil && skip(filepath.ToSlash(f[0]), name) {
				continue
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, filepath.Join(f[0], name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			ast.Inspect(file, func(n ast.Node) bool { visit(fset, n); return true })
		}
	}
	if checked < least {
		t.Fatalf("checked only %d files", checked)
	}
}

// Every address routerlab writes to a device is checked by device.ParseIP,
// which refuses IPv6 zones ("fe80::1%<anything>": netip.ParseAddr takes
// any bytes there, line breaks and "$(...)" included). So outside that one
// parser neither the device packages nor the provider call netip's
// address parsers; a new validator cannot forget the zone.
func TestAddressesParsedOnlyByDeviceParseIP(t *testing.T) {
	banned := map[string]bool{"ParseAddr": true, "ParseAddrPort": true} // MustParse* take constants
	skip := func(dir, name string) bool { return strings.HasSuffix(dir, "internal/device") && name == "address.go" }
	inspectGoFiles(t, 50, []string{"./internal/device/...", "./internal/provider/..."}, skip, func(fset *token.FileSet, n ast.Node) {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == "netip" && banned[sel.Sel.Name] {
			t.Errorf("%s: netip.%s outside device.ParseIP: parse addresses with device.ParseIP or device.ParseIPPort, which refuse IPv6 zones", fset.Position(sel.Pos()), sel.Sel.Name)
		}
	})
}

// Every file and every nft input a driver sends travels in a here-document
// written by shell.HereDoc, whose terminator no line of the body can
// equal. A hand-written "<<'" in a driver would be a here-document without
// that guard.
func TestHereDocumentsOnlyThroughShellHereDoc(t *testing.T) {
	inspectGoFiles(t, 30, []string{"./internal/device/..."}, nil, func(fset *token.FileSet, n ast.Node) {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.Contains(lit.Value, "<<'") {
			t.Errorf("%s: a here-document written by hand: use shell.HereDoc", fset.Position(lit.Pos()))
		}
	})
}
