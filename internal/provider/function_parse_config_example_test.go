package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// The function's documented example runs as written (its files read
// through path.module) and gives each output a value.
func TestExample_parseConfig(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs("../../examples/functions/parse_config")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "function.tf"))
	if err != nil {
		t.Fatal(err)
	}
	// terraform-plugin-testing runs the configuration in a directory of
	// its own: path.module is the example's directory there.
	config := strings.ReplaceAll(string(src), "${path.module}", dir)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: config,
			Check: func(s *terraform.State) error {
				out := s.RootModule().Outputs
				for _, name := range []string{"hex", "chr_router", "er4_warnings", "rtx810_sha256"} {
					if o, ok := out[name]; !ok || o.Value == nil {
						return fmt.Errorf("output %s has no value", name)
					}
				}
				if sha, _ := out["rtx810_sha256"].Value.(string); len(sha) != 64 {
					return fmt.Errorf("rtx810_sha256 = %q", sha)
				}
				if w, _ := out["er4_warnings"].Value.([]any); len(w) == 0 {
					return fmt.Errorf("the ER-4's configuration has unmanaged sections, but no warnings")
				}
				return nil
			},
		}},
	})
}
