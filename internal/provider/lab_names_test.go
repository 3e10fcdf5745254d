package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLabNamesAndNetsAreUnique: lab tests that check plumbing run side by
// side (t.Parallel), so no two of this package's labs may share a name (their
// namespaces and state directory) or a management /24 (198.19.<net>.0/24 on
// the host). It reads the package's test files, where every lab is started
// with a literal name and net.
func TestLabNamesAndNetsAreUnique(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	started := regexp.MustCompile(`(?:startLab|startRoutingLab|startSiteToSiteLab|onLabRouter)\(t, "([a-z0-9]+)", (\d+)`)
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

// seriesTests are the tests that run alone (no t.Parallel): those that
// assert a figure against the line rate, which a test beside them would
// lower, and the one that sets the process's environment (t.Setenv
// reaches the in-process provider of every test running then).
var seriesTests = map[string]string{
	"TestAccBenchmark_baseline":         "figures",
	"TestAccBenchmark_sweep":            "figures",
	"TestAccBenchmark_search":           "figures (found rates against the shaper and the hosts' ceiling, RTT under load)",
	"TestAccBenchmark_pairsDriftExpect": "figures",
	"TestAccReadme_ownConfiguration":    "figures (the README's table)",
	"TestAccRTX_transcript":             "t.Setenv",
}

// TestEveryOtherTestRunsInParallel holds CONTRIBUTING's rule ("Which tests
// run side by side"): every test of this package but seriesTests calls
// t.Parallel() first, so the serial phase holds only what must be alone
// (it was 5.5 minutes of a 22-minute package run while a dozen simulator
// tests sat in it).
func TestEveryOtherTestRunsInParallel(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fn := regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\) \{\n((?:\s*//.*\n)*)(.*)\n`)
	found := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fn.FindAllStringSubmatch(string(b), -1) {
			found++
			code, _, _ := strings.Cut(m[3], "//")
			name, first := m[1], strings.TrimSpace(code)
			_, alone := seriesTests[name]
			switch {
			case alone && first == "t.Parallel()":
				t.Errorf("%s (%s) is listed to run alone (%s) but calls t.Parallel()", name, f, seriesTests[name])
			case !alone && first != "t.Parallel()":
				t.Errorf("%s (%s) does not call t.Parallel() first (it begins %q): add it, or list it in seriesTests with why it must run alone", name, f, first)
			}
		}
	}
	if found < 100 {
		t.Fatalf("found %d tests: the pattern no longer matches this package's test functions", found)
	}
	// make test-all runs seriesTests alone by name (SERIES_TESTS) and the
	// UML tier (UML_TESTS: names ending in UML) in an invocation of its
	// own: both lists must be this package's.
	mk, err := os.ReadFile("../../GNUmakefile")
	if err != nil {
		t.Fatal(err)
	}
	series := regexp.MustCompile(`(?m)^SERIES_TESTS\s*:=\s*\^\(([A-Za-z0-9_|]+)\)\$\$$`).FindSubmatch(mk)
	if series == nil {
		t.Fatal("GNUmakefile has no SERIES_TESTS := ^(A|B|...)$$ line")
	}
	listed := strings.Split(string(series[1]), "|")
	for _, name := range listed {
		if _, ok := seriesTests[name]; !ok {
			t.Errorf("GNUmakefile's SERIES_TESTS names %s, which seriesTests does not", name)
		}
	}
	for name := range seriesTests {
		if !slices.Contains(listed, name) {
			t.Errorf("seriesTests names %s, which GNUmakefile's SERIES_TESTS does not: make test-all would run it beside others", name)
		}
	}
	umlCall := regexp.MustCompile(`(?ms)^func (Test\w+)\(t \*testing\.T\) \{\n(.*?)^\}`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range umlCall.FindAllStringSubmatch(string(b), -1) {
			if uml, named := strings.Contains(m[2], "requireUMLTier"+"(t,"), strings.HasSuffix(m[1], "UML"); uml != named {
				t.Errorf("%s (%s): a test is on the UML tier (requireUMLTier) exactly when its name ends in UML (make test-all's UML_TESTS)", m[1], f)
			}
		}
	}
	// A second t.Parallel() in the same test panics, but only when the
	// test runs (the whole package's run ends there).
	body := regexp.MustCompile(`(?ms)^func (Test\w+)\(t \*testing\.T\) \{\n(.*?)^\}`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range body.FindAllStringSubmatch(string(b), -1) {
			if n := strings.Count("\n"+m[2], "\n\tt.Parallel()"); n > 1 {
				t.Errorf("%s (%s) calls t.Parallel() %d times", m[1], f, n)
			}
		}
	}
}
