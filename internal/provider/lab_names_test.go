package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestLabNamesAndNetsAreUnique: lab tests that check plumbing run side by
// side (t.Parallel), so no two of this package's labs may share a name (their
// namespaces and state directory) or a management /24 (198.19.<net>.0/24 on
// the host). It reads the package's test files, where every lab is started
// with a literal name and net.
func TestLabNamesAndNetsAreUnique(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	started := regexp.MustCompile(`(?:startLab|startRoutingLab|startSiteToSiteLab|forEachTarget)\(t, "([a-z0-9]+)", (\d+)`)
	specName := regexp.MustCompile(`Spec\("([a-z0-9]+)"`)
	specNet := regexp.MustCompile(`MgmtNet = (\d+)`)
	names, nets := map[string]string{}, map[string]string{}
	claim := func(seen map[string]string, what, key, file string) {
		if prev, ok := seen[key]; ok {
			t.Errorf("lab %s %s is used in %s and in %s", what, key, prev, file)
		}
		seen[key] = file
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range started.FindAllStringSubmatch(string(b), -1) {
			claim(names, "name", m[1], f)
			claim(nets, "management net", m[2], f)
		}
		for _, m := range specName.FindAllStringSubmatch(string(b), -1) {
			claim(names, "name", m[1], f)
		}
		for _, m := range specNet.FindAllStringSubmatch(string(b), -1) {
			claim(nets, "management net", m[1], f)
		}
	}
	if len(names) < 20 || len(nets) < 20 {
		t.Fatalf("found %d lab names and %d nets: the patterns no longer match how tests start labs", len(names), len(nets))
	}
}
