package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// A create that fails on the device removes what it wrote: a second
// OpenVPN server on port 1194 fails to bind, and its key, configuration
// and log do not stay on the router, where no destroy would ever remove
// them (issue 18). The first server, which state holds, is untouched.
// On the lab's router r: two real openvpn daemons, the second refused
// its port by the kernel. OpenVPN 2.6 binds its socket after `--daemon`
// has returned 0 with the interface up; the daemon then exits and its
// interface goes, so what the driver sees is the interface that never
// appears, and the error does not name the bind failure (the simulator's
// "Address already in use" was its own; the daemon's log says it, and the
// failed create removes that log with the rest).
func TestAccTunnel_failedCreateLeavesNothing(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "accfc", 208, testFailedCreateLeavesNothing)
}

func testFailedCreateLeavesNothing(t *testing.T, tg routerTarget) {
	server := func(name, local, remote string) string {
		return fmt.Sprintf(`
resource "routerlab_tunnel" %[1]q {
  device = "r"
  name   = %[1]q
  type   = "openvpn"
  openvpn = {
    role           = "server"
    cipher         = "AES-128-CBC"
    auth           = "SHA256"
    local_address  = %[2]q
    remote_address = %[3]q
    static_key     = %[4]q
  }
}`, name, local, remote, testStaticKey())
	}
	first := tg.provider() + server("ova", "198.18.70.1", "198.18.70.2")
	filesOf := func(name string) []string {
		var out []string
		for _, f := range strings.Fields(tg.byHand(t, "find /etc/routerlab /run/routerlab -type f 2>/dev/null | sort || true")) {
			if strings.Contains(f, "/"+name+".") || strings.Contains(f, "-"+name+".") {
				out = append(out, f)
			}
		}
		return out
	}
	var firstFiles []string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(*terraform.State) error {
			if left := filesOf("ova"); len(left) > 0 {
				return fmt.Errorf("destroy left %v", left)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: first,
				Check: func(*terraform.State) error {
					if firstFiles = filesOf("ova"); len(firstFiles) == 0 {
						return fmt.Errorf("the first server wrote no files")
					}
					return nil
				},
			},
			{
				Config:      first + server("ovb", "198.18.71.1", "198.18.71.2"),
				ExpectError: regexp.MustCompile(`(?s)tunnel interface ovb did not appear within 10 s.*what the create wrote was removed again`),
			},
			{
				PreConfig: func() {
					if left := filesOf("ovb"); len(left) > 0 {
						t.Errorf("the failed create left %v on the router", left)
					}
					if now := filesOf("ova"); strings.Join(now, " ") != strings.Join(firstFiles, " ") {
						t.Errorf("the first server's files changed: %v, were %v", now, firstFiles)
					}
				},
				Config: first,
			},
		},
	})
}
