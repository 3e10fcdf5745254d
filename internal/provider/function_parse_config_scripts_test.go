package provider

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
)

// parse_config over a RouterOS export whose scripts carry tokens (issue
// 21, point 9): no part of the function's result holds a body's secret,
// and a broken body's error quotes none of it.
func TestParseConfigScriptBodiesNoSecret(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile("../device/routeros/testdata/export_v7_hex_scripts.rsc")
	if err != nil {
		t.Fatal(err)
	}
	parse, err := drivers.ConfigParser(device.RouterOS)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := parse(string(text), "")
	if err != nil {
		t.Fatal(err)
	}
	result, ferr := parseResult(context.Background(), parsed)
	if ferr != nil {
		t.Fatal(ferr)
	}
	out := result.String()
	if !strings.Contains(out, "<script-hmac:") {
		t.Fatalf("no script digest in the result:\n%s", out)
	}
	secrets := []string{"dummy-ppp-hook-key", "dummy-netwatch-1234", "dummy-sched-token-42", "dummy-token-7f3a9c", "7f3a9c", "dummy-tok"}
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("parse_config's result holds %q from a script body", s)
		}
	}
	lines := strings.Split(string(text), "\n")
	if _, err := parse(strings.Join(lines[:len(lines)-3], "\n"), ""); err == nil {
		t.Error("a source cut off parsed")
	} else {
		for _, s := range secrets {
			if strings.Contains(err.Error(), s) {
				t.Errorf("the error holds %q: %v", s, err)
			}
		}
	}
}
