package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

const routerConfig = `
resource "routerlab_router" "r" {
  device   = "r"
  hostname = "bench-r"
  interfaces = {
    eth1 = { addresses = ["198.18.1.1/24", "198.18.11.1/24"], mtu = 1400, description = "to a: it's \"A\"; $(x)" }
    eth2 = { addresses = ["198.18.2.1/24"], mtu = 1500, description = "" }
  }
  static_routes = {
    "198.18.100.0/24" = { gateway = "198.18.2.10" }
  }
  ip_forwarding       = true
  ipv6_forwarding     = false
  connection_tracking = false
}
`

// expectChange is a plan check: the resource's planned change moves the
// attribute at path from one value to another. It proves a plan names the
// attribute that drifted.
type expectChange struct {
	addr     string
	path     []string
	from, to any
}

func (e expectChange) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != e.addr {
			continue
		}
		before, after := dig(rc.Change.Before, e.path), dig(rc.Change.After, e.path)
		if fmt.Sprint(before) != fmt.Sprint(e.from) || fmt.Sprint(after) != fmt.Sprint(e.to) {
			resp.Error = fmt.Errorf("%s %s: planned %v -> %v, want %v -> %v", e.addr, strings.Join(e.path, "."), before, after, e.from, e.to)
		}
		return
	}
	resp.Error = fmt.Errorf("no planned change for %s", e.addr)
}

func dig(v any, path []string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// TestAccRouter_lifecycle configures the router through Terraform, shows a
// hand-made change as drift, imports it, and proves destroy puts the
// router back exactly as it was.
func TestAccRouter_lifecycle(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "accr", 230, testRouterLifecycle)
}

func testRouterLifecycle(t *testing.T, tg routerTarget) {
	before := snapshotText(t, tg)
	const addr = "routerlab_router.r"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(*terraform.State) error {
			if after := snapshotText(t, tg); after != before {
				return fmt.Errorf("router not restored by destroy:\n--- before\n%s--- after\n%s", before, after)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: tg.provider() + routerConfig,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("hostname"), knownvalue.StringExact("bench-r")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("interfaces").AtMapKey("eth1").AtMapKey("mtu"), knownvalue.Int64Exact(1400)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("interfaces").AtMapKey("eth1").AtMapKey("addresses"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("198.18.1.1/24"), knownvalue.StringExact("198.18.11.1/24")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("connection_tracking"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("cpu_count"), knownvalue.Int64Func(func(v int64) error {
						if v < 1 {
							return fmt.Errorf("cpu_count %d", v)
						}
						return nil
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("config_sha256"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{64}$`))),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				// What the router itself says, read outside the provider.
				Check: func(*terraform.State) error {
					host, mtu, alias, addrs, route, conntrack := routerFacts(t, tg)
					switch {
					case host != "bench-r":
						return fmt.Errorf("hostname on router = %q", host)
					case mtu != 1400 || alias != `to a: it's "A"; $(x)`:
						return fmt.Errorf("eth1 mtu %d, alias %q", mtu, alias)
					case !slices.Contains(addrs, "198.18.11.1/24"):
						return fmt.Errorf("eth1 addresses: %v", addrs)
					case route != "via 198.18.2.10":
						return fmt.Errorf("owned route 198.18.100.0/24: %q", route)
					case conntrack:
						return fmt.Errorf("connection tracking still on")
					}
					if lt, ok := tg.(*labTarget); ok {
						l := lt.l
						// The kernel's own view, through other tools.
						if link := labExec(t, l, "r", "ip", "link", "show", "dev", "eth1"); !strings.Contains(link, `alias to a: it's "A"; $(x)`) || !strings.Contains(link, "mtu 1400") {
							return fmt.Errorf("eth1 link: %s", link)
						}
						if rt := labExec(t, l, "r", "ip", "route", "show", "198.18.100.0/24"); !strings.Contains(rt, "via 198.18.2.10") || !strings.Contains(rt, "proto 244") {
							return fmt.Errorf("route: %q", rt)
						}
						if nft := labExec(t, l, "r", "nft", "list", "table", "inet", "routerlab"); !strings.Contains(nft, "notrack") {
							return fmt.Errorf("conntrack rules: %s", nft)
						}
						// Forwarding works through the configured router.
						labExec(t, l, "a", "ping", "-c1", "-W2", "198.18.2.10")
					}
					return nil
				},
			},
			{
				// Someone changes the router by hand: plan shows the drift
				// on exactly those attributes and apply repairs it.
				PreConfig: func() {
					tg.setMTU(t, "eth1", 1300)
					tg.setHostname(t, "hacked")
					tg.deleteRoute(t, "198.18.100.0/24")
				},
				Config: tg.provider() + routerConfig,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					expectChange{addr: addr, path: []string{"interfaces", "eth1", "mtu"}, from: 1300, to: 1400},
					expectChange{addr: addr, path: []string{"hostname"}, from: "hacked", to: "bench-r"},
					expectChange{addr: addr, path: []string{"static_routes", "198.18.100.0/24", "gateway"}, from: nil, to: "198.18.2.10"},
					// The same keys stay managed, so the originals destroy
					// restores are known in the plan, not "(known after
					// apply)" (issue 20, point 6), and read in the
					// attributes' own names.
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("restore_values"), knownvalue.StringRegexp(
						regexp.MustCompile(`^\{"hostname":"[^"]*","interfaces":\{"eth1":\{"addresses":\[[^]]*\],"mtu":\d+,"description":"[^"]*"\}.*"connection_tracking":(true|false)`))),
				}},
				Check: func(*terraform.State) error {
					if host, mtu, _, _, route, _ := routerFacts(t, tg); mtu != 1400 || host != "bench-r" || route != "via 198.18.2.10" {
						return fmt.Errorf("drift not repaired: hostname %q, eth1 mtu %d, route %q", host, mtu, route)
					}
					return nil
				},
			},
			{
				// An update that stops managing eth2's description and MTU
				// and changes the route: applied in place.
				Config: tg.provider() + strings.Replace(routerConfig, `gateway = "198.18.2.10" }`, `gateway = "198.18.2.10", metric = 7 }`, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("static_routes").AtMapKey("198.18.100.0/24").AtMapKey("metric"), knownvalue.Int64Exact(7)),
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     "r:eth1,eth2",
				ImportStateVerify: true,
				// An imported router has nothing of routerlab's to restore;
				// an empty description is adopted as unset (null), as
				// Terraform's generated configuration writes it.
				ImportStateVerifyIgnore: []string{"restore_values", "interfaces.eth2.description"},
			},
		},
	})
}

// TestAccRouter_ownedRouteDeleted: a route routerlab owns (the owned
// objects of routerlab_router) is deleted behind Terraform's back; the next
// plan re-creates exactly it (the other owned route is left as it is) and
// the apply puts it back on the device.
func TestAccRouter_ownedRouteDeleted(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "acco", 234, func(t *testing.T, tg routerTarget) {
		const addr = "routerlab_router.r"
		cfg := tg.provider() + `
resource "routerlab_router" "r" {
  device        = "r"
  static_routes = {
    "198.18.100.0/24" = { gateway = "198.18.2.10" }
    "198.18.101.0/24" = { interface = "eth1" }
  }
}
`
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			Steps: []resource.TestStep{
				{Config: cfg},
				{
					PreConfig: func() { tg.deleteRoute(t, "198.18.100.0/24") },
					Config:    cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						expectChange{addr: addr, path: []string{"static_routes", "198.18.100.0/24", "gateway"}, from: nil, to: "198.18.2.10"},
						expectChange{addr: addr, path: []string{"static_routes", "198.18.101.0/24", "interface"}, from: "eth1", to: "eth1"},
					}},
					Check: func(*terraform.State) error {
						if _, _, _, _, route, _ := routerFacts(t, tg); route != "via 198.18.2.10" {
							return fmt.Errorf("route not re-created: %q", route)
						}
						return nil
					},
				},
			},
		})
	})
}

// TestAccRouter_restoreAlwaysPossible: restoring never fails on today's
// rules or on what vanished. The router's own host name "lab_r1" (Linux
// accepts it, RFC 1123 does not) is put back on destroy, and an interface
// deleted by hand after routerlab managed it blocks neither the update that
// stops managing it (a warning says its settings are dropped) nor destroy.
func TestAccRouter_restoreAlwaysPossible(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "accv", 235, func(t *testing.T, tg routerTarget) {
		tg.setHostname(t, "lab_r1")
		before := snapshotText(t, tg)
		tg.addInterface(t, "eth9")
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			CheckDestroy: func(*terraform.State) error {
				if after := snapshotText(t, tg); after != before {
					return fmt.Errorf("router not restored by destroy:\n--- before\n%s--- after\n%s", before, after)
				}
				return nil
			},
			Steps: []resource.TestStep{
				{
					Config: tg.provider() + `
resource "routerlab_router" "r" {
  device     = "r"
  hostname   = "bench-r"
  interfaces = { eth9 = { mtu = 1400 }, eth1 = { description = "managed" } }
}
`,
				},
				{
					PreConfig: func() { tg.deleteInterface(t, "eth9") },
					Config: tg.provider() + `
resource "routerlab_router" "r" {
  device     = "r"
  hostname   = "bench-r"
  interfaces = { eth1 = { description = "managed" } }
}
`,
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue("routerlab_router.r", tfjsonpath.New("interfaces").AtMapKey("eth1").AtMapKey("description"), knownvalue.StringExact("managed")),
					},
				},
			},
		})
	})
}

// TestAccRouter_failedApplyKeepsOriginals: an apply whose script fails
// after it changed the host name and an MTU (the route's gateway is on no
// connected subnet, so `ip route add` fails) keeps the resource in state
// (tainted) with the originals, so destroy puts the router back byte for
// byte, as it was before the create.
func TestAccRouter_failedApplyKeepsOriginals(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "accf", 236, func(t *testing.T, tg routerTarget) {
		before := snapshotText(t, tg)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			CheckDestroy: func(*terraform.State) error {
				if after := snapshotText(t, tg); after != before {
					return fmt.Errorf("router not restored after the failed apply:\n--- before\n%s--- after\n%s", before, after)
				}
				return nil
			},
			Steps: []resource.TestStep{
				{
					Config: tg.provider() + `
resource "routerlab_router" "r" {
  device        = "r"
  hostname      = "half-applied"
  interfaces    = { eth1 = { mtu = 1400 } }
  static_routes = { "198.18.200.0/24" = { gateway = "198.18.99.1" } }
}
`,
					ExpectError: regexp.MustCompile(`(?s)Unable to Create Router.*Nexthop has invalid gateway`),
				},
				{
					// What the failure left behind is in state: the
					// host name and MTU that were written, no route.
					RefreshState:       true,
					ExpectNonEmptyPlan: true, // tainted: the next plan replaces it
					Check: resource.ComposeTestCheckFunc(
						resource.TestCheckResourceAttr("routerlab_router.r", "hostname", "half-applied"),
						resource.TestCheckResourceAttr("routerlab_router.r", "interfaces.eth1.mtu", "1400"),
						resource.TestCheckNoResourceAttr("routerlab_router.r", "static_routes.198.18.200.0/24.gateway"),
					),
				},
			},
		})
	})
}

// TestAccRouter_missingNftAtPlan: connection tracking on a router without
// nftables fails at plan, before anything is written, instead of half-way
// through the apply. The lab's router lacks nft (lab.NodeSpec.Lacks: gone
// from its view of /usr/sbin, not from the machine).
func TestAccRouter_missingNftAtPlan(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	s := lab.DefaultSpec("accnn")
	s.MgmtNet = 204
	s.Nodes[1].Lacks = []string{"nft"} // r
	tg := &labTarget{l: startLabSpec(t, s)}
	if out := tg.byHand(t, "command -v nft || echo absent"); out != "absent" {
		t.Fatalf("the router still has nft: %q", out)
	}
	before := snapshotText(t, tg)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: tg.provider() + `
resource "routerlab_router" "r" {
  device              = "r"
  hostname            = "not-written"
  connection_tracking = false
}
`,
			ExpectError: wrapTolerant("connection_tracking needs nftables on the device, and nft is not installed there"),
		}},
	})
	if after := snapshotText(t, tg); after != before {
		t.Fatalf("router changed although the plan failed:\n%s", after)
	}
}

// TestAccRouter_hostKeyMismatch pins the wrong host key: the plan fails with
// both fingerprints and the router is untouched.
func TestAccRouter_hostKeyMismatch(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "acck", 231, func(t *testing.T, tg routerTarget) {
		before := snapshotText(t, tg)
		prov, wantFP, presentedFP := tg.pinnedWrongKey(t)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			Steps: []resource.TestStep{{
				Config: prov + `
resource "routerlab_router" "r" {
  device   = "r"
  hostname = "must-not-be-written"
}
`,
				ExpectError: regexp.MustCompile(`(?s)host key mismatch.*` + regexp.QuoteMeta(wantFP) + `.*` +
					regexp.QuoteMeta(presentedFP)),
			}},
		})
		if after := snapshotText(t, tg); after != before {
			t.Fatalf("router changed despite the host key mismatch:\n%s", after)
		}
	})
}

func fingerprintOf(t *testing.T, line string) string {
	t.Helper()
	k, err := sshx.ParseHostKey(line)
	if err != nil {
		t.Fatal(err)
	}
	return sshx.Fingerprint(k)
}

// TestAccRouter_unknownInterface fails at plan, listing the interfaces.
func TestAccRouter_unknownInterface(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "acci", 232, func(t *testing.T, tg routerTarget) {
		before := snapshotText(t, tg)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			Steps: []resource.TestStep{{
				Config: tg.provider() + `
resource "routerlab_router" "r" {
  device   = "r"
  hostname = "not-written"
  interfaces = { eth9 = { mtu = 1500 } }
}`,
				ExpectError: regexp.MustCompile(`interface eth9 not found on the device; it has:\s+` + strings.ReplaceAll(regexp.QuoteMeta(tg.interfaceNames(t)), " ", `\s+`)),
			}},
		})
		if after := snapshotText(t, tg); after != before {
			t.Fatal("router changed although the plan failed")
		}
	})
}

// TestAccProvider_connectionsPerOperation: an inventory of 50 devices with
// resources on 3 opens exactly 3 SSH connections in each Terraform
// operation, counted by the provider and by TCP proxies in front of sshd.
func TestAccProvider_connectionsPerOperation(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	l := startLab(t, "accc", 233)
	proxies := map[string]*countingProxy{}
	for _, n := range []string{"a", "r", "b"} {
		proxies[n] = startCountingProxy(t, fmt.Sprintf("%s:%d", l.Node(n).MgmtAddr, l.Node(n).SSHPort))
	}
	idle := startCountingProxy(t, "") // the 47 unused devices point here

	var devs strings.Builder
	for i := 0; i < 47; i++ {
		fmt.Fprintf(&devs, "  device {\n    name = \"unused%02d\"\n    platform = \"linux\"\n    host = \"127.0.0.1\"\n    port = %d\n    host_key = %q\n  }\n", i, idle.port(), l.Node("a").HostKey)
	}
	for _, n := range []string{"a", "r", "b"} {
		fmt.Fprintf(&devs, "  device {\n    name = %q\n    platform = \"linux\"\n    host = \"127.0.0.1\"\n    port = %d\n    host_key = %q\n  }\n", n, proxies[n].port(), l.Node(n).HostKey)
	}
	cfg := fmt.Sprintf(`
provider "routerlab" {
  ssh {
    username = "root"
    private_key = file(%q)
  }
%s}
resource "routerlab_router" "a" {
  device        = "a"
  ip_forwarding = false
}
resource "routerlab_router" "r" {
  device        = "r"
  ip_forwarding = true
  interfaces    = { eth1 = { description = "to a" }, eth2 = { description = "to b" } }
}
resource "routerlab_router" "b" {
  device        = "b"
  ip_forwarding = false
}
data "routerlab_device" "r" {
  device = "r"
}
data "routerlab_running_config" "r" {
  device     = "r"
  depends_on = [routerlab_router.r]
}
`, l.ClientKeyPath(), devs.String())

	rec := &inventoryRecorder{}
	t.Cleanup(rec.closeAll)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.factories(),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr("data.routerlab_device.r", "platform", "linux"),
				resource.TestCheckResourceAttrPair("data.routerlab_running_config.r", "sha256", "routerlab_router.r", "config_sha256"),
			),
		}},
	})

	var total, used int64
	for _, inv := range rec.inventories() {
		d := inv.Dials()
		total += d
		if d == 0 {
			continue // validate-only operations open nothing
		}
		used++
		if d != 3 {
			t.Errorf("an operation opened %d SSH connections, want exactly 3 (one per device in use)", d)
		}
	}
	if used < 2 {
		t.Fatalf("only %d operations connected; want at least plan and apply", used)
	}
	var proxied int64
	for n, p := range proxies {
		proxied += p.accepted()
		if p.accepted() == 0 {
			t.Errorf("device %s was never connected", n)
		}
	}
	if proxied != total {
		t.Errorf("sshd side saw %d connections, the provider counted %d", proxied, total)
	}
	if idle.accepted() != 0 {
		t.Errorf("unused devices were connected %d times", idle.accepted())
	}
	t.Logf("%d operations connected, %d connections in all, 3 per operation", used, total)
}
