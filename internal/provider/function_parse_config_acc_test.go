package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// parseConfigCase is a simulated router and the configuration text it
// holds, as the engineer would have saved it.
type parseConfigCase struct {
	platform, provider, text string
}

// Issue 19's acceptance: parse_config, called by real Terraform, reads
// from a configuration text exactly what the driver reads from the
// simulated router holding it: the same normalised text and sha256 as
// routerlab_running_config, and the platform in its facts.
// (The platform packages compare every section, file by file:
// TestParseConfigEqualsDriverSnapshot.)
func TestAccParseConfig_equalsDriver(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	cases := map[string]func(t *testing.T) parseConfigCase{
		"edgeos": func(t *testing.T) parseConfigCase {
			text := readTestdata(t, "../device/edgeos/testdata/cfg_edgeos_2_er4_router.txt")
			lines, ethernets := vyattaLines(text)
			dev := devicesim.New(t, edgeossim.New(edgeossim.Options{Lines: lines, Ethernets: ethernets, WireGuard: true}), devicesim.Options{})
			return parseConfigCase{platform: "edgeos", provider: strings.Replace(edgeosProvider(dev), `"er6p"`, `"r"`, 1), text: text}
		},
		"routeros": func(t *testing.T) parseConfigCase {
			sim := rossim.New(rossim.Options{Version: "7.13.4", Model: "RB5009UG+S+"})
			mustRun(t, sim, `/system identity set name=rb-lab
/ip address add address=198.18.10.1/24 interface=ether1 comment=routerlab
/interface wireguard add name=wg-lab listen-port=51820 private-key="eF1aXvwVJ0PLs4N5yY0bXXsLiXDnX6dyZo4nG7bI4Ec=" comment=routerlab:wg-lab`)
			dev := devicesim.New(t, sim, devicesim.Options{User: "admin", LoginFlags: true})
			// What the engineer saved: the router's own export.
			return parseConfigCase{platform: "routeros", provider: strings.Replace(routerosProvider(dev), `"rb"`, `"r"`, 1), text: sim.Export("terse")}
		},
		"vyos": func(t *testing.T) parseConfigCase {
			text := readTestdata(t, "../device/edgeos/testdata/cfg_vyos_1_4_router.txt")
			lines, ethernets := vyattaLines(text)
			dev := devicesim.New(t, edgeossim.New(edgeossim.Options{Flavour: edgeossim.VyOS, Lines: lines, Ethernets: ethernets}), devicesim.Options{})
			p := strings.Replace(edgeosProvider(dev), `"er6p"`, `"r"`, 1)
			return parseConfigCase{platform: "vyos", provider: strings.Replace(p, `platform = "edgeos"`, `platform = "vyos"`, 1), text: text}
		},
		"rtx": func(t *testing.T) parseConfigCase {
			_, dev := startRTXSim(t, rtxSeedBase)
			// What the engineer saved: show config as the console prints it.
			c := sshx.NewClient("rtx810", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RTX), EnablePassword: rtxSimAdminPassword}, nil)
			t.Cleanup(func() { c.Close() })
			res, err := c.Run(context.Background(), "show config")
			if err != nil || res.ExitStatus != 0 {
				t.Fatalf("show config: %v %+v", err, res)
			}
			return parseConfigCase{platform: "rtx", provider: strings.Replace(rtxProvider(dev), `"rtx810"`, `"r"`, 1), text: res.Stdout}
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			c := mk(t)
			file := filepath.Join(t.TempDir(), "config.txt")
			if err := os.WriteFile(file, []byte(c.text), 0o600); err != nil {
				t.Fatal(err)
			}
			config := c.provider + fmt.Sprintf(`
data "routerlab_running_config" "r" { device = "r" }
output "parsed" { value = provider::routerlab::parse_config(%q, file(%q)) }
output "device_sha256" { value = data.routerlab_running_config.r.sha256 }
output "device_text" { value = data.routerlab_running_config.r.text }
`, c.platform, file)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviders,
				Steps: []resource.TestStep{{
					Config: config,
					Check: func(s *terraform.State) error {
						out := s.RootModule().Outputs
						parsed, ok := out["parsed"].Value.(map[string]any)
						if !ok {
							return fmt.Errorf("parsed output is %T", out["parsed"].Value)
						}
						if parsed["sha256"] != out["device_sha256"].Value {
							return fmt.Errorf("sha256: parse_config %v, the driver %v\n--- parse_config\n%v\n--- the driver\n%v", parsed["sha256"], out["device_sha256"].Value, parsed["normalised_text"], out["device_text"].Value)
						}
						if facts, _ := parsed["facts"].(map[string]any); facts["platform"] != c.platform {
							return fmt.Errorf("facts: %v", parsed["facts"])
						}
						return nil
					},
				}},
			})
		})
	}
}

func readTestdata(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// vyattaLines are a `show configuration commands` text's lines, to load
// into edgeossim, and the Ethernet ports they name (the simulated router
// has those ports, and refuses any other).
func vyattaLines(text string) (lines, ethernets []string) {
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lines = append(lines, l)
		if w := strings.Fields(l); len(w) > 3 && w[1] == "interfaces" && w[2] == "ethernet" && !slices.Contains(ethernets, w[3]) {
			ethernets = append(ethernets, w[3])
		}
	}
	return lines, ethernets
}
