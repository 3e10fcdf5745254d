package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The per-router strongswan.conf, compared with a file written by hand.
func TestStrongswanConfGolden(t *testing.T) {
	got := strongswanConf("r1", "/run/routerlab-lab/lts/r1.charon.log", false)
	want, err := os.ReadFile(filepath.Join("testdata", "strongswan.conf.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("strongswanConf:\n%s\nwant (testdata/strongswan.conf.golden):\n%s", got, want)
	}
}

// copySwanctlTree copies the package's layout, not the machine's configs
// or credentials.
func TestCopySwanctlTree(t *testing.T) {
	src := t.TempDir()
	for _, d := range []string{"conf.d", "private", "x509"} {
		if err := os.Mkdir(filepath.Join(src, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(src, "private"), 0o700); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"swanctl.conf":        "# the package's\ninclude conf.d/*.conf\n",
		"conf.d/machine.conf": "connections { }\n",
		"private/key.pem":     "not to be copied\n",
		"stray.conf":          "not to be copied\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	dst := filepath.Join(t.TempDir(), "swanctl")
	if err := copySwanctlTree(src, dst); err != nil {
		t.Fatal(err)
	}
	var got []string
	err := filepath.Walk(dst, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dst, p)
		got = append(got, rel+" "+info.Mode().String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := ". drwxr-xr-x,conf.d drwxr-xr-x,private drwx------,swanctl.conf -rw-------,x509 drwxr-xr-x"
	if strings.Join(got, ",") != want {
		t.Errorf("copied tree:\n%s\nwant:\n%s", strings.Join(got, ","), want)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "swanctl.conf")); string(b) != files["swanctl.conf"] {
		t.Errorf("swanctl.conf = %q", b)
	}

	// Without the package: the layout swanctl expects.
	dst2 := filepath.Join(t.TempDir(), "swanctl")
	if err := copySwanctlTree(filepath.Join(src, "absent"), dst2); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dst2, "swanctl.conf")); err != nil || string(b) != "include conf.d/*.conf\n" {
		t.Errorf("swanctl.conf without the package = %q, %v", b, err)
	}
	if st, err := os.Stat(filepath.Join(dst2, "conf.d")); err != nil || !st.IsDir() {
		t.Errorf("conf.d without the package: %v", err)
	}
}

// A state directory with mount-option separators is refused up front.
func TestStateDirCharacters(t *testing.T) {
	for _, dir := range []string{"/run/a,b", "/run/a:b", "/run/a b", `/run/a\b`} {
		s := SiteToSiteSpec("x")
		s.StateDir = dir
		err := s.withDefaults().validate()
		if err == nil || !strings.Contains(err.Error(), "may hold only") || !strings.Contains(err.Error(), fmt.Sprintf("%q", dir)) {
			t.Errorf("StateDir %q: validate = %v", dir, err)
		}
	}
	if err := SiteToSiteSpec("x").withDefaults().validate(); err != nil {
		t.Errorf("SiteToSiteSpec: %v", err)
	}
}

// With the kernel's ESP, only kernel-libipsec's switch and the header's
// reason differ from the golden file.
func TestStrongswanConfKernelESP(t *testing.T) {
	lib := strongswanConf("r1", "/x/r1.charon.log", false)
	kern := strongswanConf("r1", "/x/r1.charon.log", true)
	if !strings.Contains(kern, "kernel-libipsec {\n\t\t\tload = no\n") || strings.Contains(kern, "load = yes") {
		t.Errorf("kernel ESP: kernel-libipsec is not switched off:\n%s", kern)
	}
	strip := func(s string) string {
		var out []string
		for _, line := range strings.Split(s, "\n") {
			if !strings.HasPrefix(line, "#") && !strings.Contains(line, "load = ") {
				out = append(out, line)
			}
		}
		return strings.Join(out, "\n")
	}
	if strip(lib) != strip(kern) {
		t.Errorf("kernel ESP changes more than kernel-libipsec:\n%s\nvs\n%s", kern, lib)
	}
}
