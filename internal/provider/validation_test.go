package provider

import (
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// A throw-away but well-formed ed25519 host key for configs that must pass
// host_key validation.
const someHostKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBSq3CqBHgG0YmAiNJ0a7ASTjqoJ2PQ6pq33dzX3Y4yW"

// planError runs one plan-only step that must fail with want. These are
// unit tests: they run Terraform but need no device and no TF_ACC.
func planError(t *testing.T, config string, want string) {
	t.Helper()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config:      config,
			PlanOnly:    true,
			ExpectError: wrapTolerant(want),
		}},
	})
}

// wrapTolerant compiles want so that each space also matches the line
// breaks Terraform inserts when it wraps a long diagnostic.
func wrapTolerant(want string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(want, " ", `\s+`))
}

// providerWith is a provider block with shared SSH credentials and the
// given device blocks.
func providerWith(device string) string {
	return fmt.Sprintf(`
provider "routerlab" {
  ssh {
    username = "root"
    password = "not-a-real-secret-4711"
  }
  %s
}
`, device)
}

// closedPortDevice is a device block for a device that does not exist
// (port 1 on 127.0.0.1, some host key pinned): for plan-time errors that
// come before any read.
func closedPortDevice(name, platform string) string {
	return fmt.Sprintf("device {\n    name     = %q\n    platform = %q\n    host     = \"127.0.0.1\"\n    port     = 1\n    host_key = %q\n  }", name, platform, someHostKey)
}

func TestPlanValidation(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	okDevice := closedPortDevice("r", "linux")
	cases := []struct {
		name, config, want string
	}{
		{"unknown platform",
			providerWith(`device {
    name = "r"
    platform = "cisco"
    host = "127.0.0.1"
  }`) + `data "routerlab_device" "r" { device = "r" }`,
			`(?s)device\[0\].platform.*value must be one of:.*"edgeos".*"linux".*"routeros".*"rtx".*got: "cisco"`},
		{"empty host",
			providerWith(`device {
    name = "r"
    platform = "linux"
    host = ""
  }`) + `data "routerlab_device" "r" { device = "r" }`,
			`(?s)device\[0\].host.*string length must be at least 1`},
		{"port out of range",
			providerWith(`device {
    name = "r"
    platform = "linux"
    host = "127.0.0.1"
    port = 70000
  }`) + `data "routerlab_device" "r" { device = "r" }`,
			`(?s)device\[0\].port.*value must be between 1 and 65535, got: 70000`},
		{"bad host key",
			providerWith(`device {
    name = "r"
    platform = "linux"
    host = "127.0.0.1"
    host_key = "ssh-ed25519 not-base64!"
  }`) + `data "routerlab_device" "r" { device = "r" }`,
			`(?s)device\[0\].host_key`},
		{"bad duration",
			providerWith(`device {
    name = "r"
    platform = "linux"
    host = "127.0.0.1"
    connect_timeout = "soon"
  }`) + `data "routerlab_device" "r" { device = "r" }`,
			`(?s)"soon" is not a positive duration`},
		{"unknown device",
			providerWith(okDevice) + `resource "routerlab_router" "x" { device = "nope" }`,
			`(?s)device "nope" is not one of the provider's device blocks; known devices: r`},
		{"unknown jump host",
			providerWith(fmt.Sprintf(`device {
    name = "r"
    platform = "linux"
    host = "127.0.0.1"
    host_key = %q
    jump_hosts = ["bastion"]
  }`, someHostKey)) + `data "routerlab_device" "r" { device = "r" }`,
			`(?s)jump host "bastion" is not a valid device`},
		{"administrator password off rtx",
			providerWith(fmt.Sprintf(`device {
    name = "r"
    platform = "linux"
    host = "127.0.0.1"
    host_key = %q
    administrator_password = "not-shown-anywhere"
  }`, someHostKey)) + `data "routerlab_device" "r" { device = "r" }`,
			`(?s)administrator_password is for platform "rtx"`},
		{"platform without driver",
			providerWith(fmt.Sprintf(`device {
    name = "vy"
    platform = "vyos"
    host = "127.0.0.1"
    host_key = %q
  }`, someHostKey)) + `resource "routerlab_firewall" "x" {
  device = "vy"
  preset = "allow_all"
}`,
			`(?s)platform "vyos" does not support routerlab_firewall`},
		{"invalid CIDR",
			providerWith(okDevice) + `resource "routerlab_router" "x" {
  device     = "r"
  interfaces = { eth1 = { addresses = ["198.18.1.300/24"] } }
}`, `(?s)address "198.18.1.300/24" is not an IP address with prefix length`},
		{"non-canonical route key",
			providerWith(okDevice) + `resource "routerlab_router" "x" {
  device        = "r"
  static_routes = { "198.18.4.1/24" = { gateway = "198.18.2.10" } }
}`, `(?s)write it as the network prefix "198.18.4.0/24"`},
		{"mtu too small",
			providerWith(okDevice) + `resource "routerlab_router" "x" {
  device     = "r"
  interfaces = { eth1 = { mtu = 40 } }
}`, `(?s)interfaces\["eth1"\].mtu.*value must be between 68 and 65535, got: 40`},
		{"control character in description",
			providerWith(okDevice) + `resource "routerlab_router" "x" {
  device     = "r"
  interfaces = { eth1 = { description = "line1\nline2" } }
}`, `(?s)control characters .*are not allowed`},
		{"shell metacharacters in interface name",
			providerWith(okDevice) + `resource "routerlab_router" "x" {
  device     = "r"
  interfaces = { "eth1;reboot" = { mtu = 1500 } }
}`, `(?s)interface name "eth1;reboot": allowed are letters, digits`},
		{"route without next hop",
			providerWith(okDevice) + `resource "routerlab_router" "x" {
  device        = "r"
  static_routes = { "198.18.4.0/24" = {} }
}`, `(?s)static_routes\["198.18.4.0/24"\]: set gateway, interface or both`},
		{"non-canonical IPv6 gateway",
			providerWith(okDevice) + `resource "routerlab_router" "x" {
  device        = "r"
  static_routes = { "2001:db8:4::/64" = { gateway = "2001:DB8::1" } }
}`, `(?s)gateway "2001:DB8::1": write it in canonical form "2001:db8::1"`},
		{"IPv4-mapped gateway",
			providerWith(okDevice) + `resource "routerlab_router" "x" {
  device        = "r"
  static_routes = { "198.18.4.0/24" = { gateway = "::ffff:198.18.2.10" } }
}`, `(?s)gateway "::ffff:198.18.2.10" is an IPv4-mapped IPv6 address: write the IPv4 address\s+"198.18.2.10"`},
		{"gateway of the other family",
			providerWith(okDevice) + `resource "routerlab_router" "x" {
  device        = "r"
  static_routes = { "198.18.4.0/24" = { gateway = "2001:db8::1" } }
}`, `(?s)gateway 2001:db8::1 is IPv6 but destination 198.18.4.0/24 is IPv4`},
		{"bad hostname",
			providerWith(okDevice) + `resource "routerlab_router" "x" {
  device   = "r"
  hostname = "bench_r"
}`, `(?s)hostname "bench_r": label "bench_r" must be`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { planError(t, c.config, c.want) })
	}
}

// Without any auth method the error says which to set, and never echoes a
// secret of another device.
func TestPlanValidationNoAuth(t *testing.T) {
	t.Parallel()
	planError(t, `
provider "routerlab" {
  device {
    name = "r"
    platform = "linux"
    host = "127.0.0.1"
    host_key = "`+someHostKey+`"
  }
}
data "routerlab_device" "r" { device = "r" }
`, `(?s)device "r":.*(password|private_key|agent)`)
}

// An unreachable device fails at plan with host and port.
func TestPlanUnreachableHost(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens there now
	cfg := providerWith(fmt.Sprintf(`device {
    name = "r"
    platform = "linux"
    host = "127.0.0.1"
    port = %d
    host_key = %q
    connect_timeout = "2s"
  }`, port, someHostKey)) +
		`data "routerlab_device" "r" { device = "r" }`
	want := fmt.Sprintf(`(?s)127\.0\.0\.1:%d.*refused`, port)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps:                    []resource.TestStep{{Config: cfg, PlanOnly: true, ExpectError: wrapTolerant(want)}},
	})
}

// Secrets never reach error text: a wrong password against a closed port
// and against a bad key both fail without echoing the secret.
func TestErrorsHideSecrets(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	const secret = "hunter2-very-secret"
	inv, diags := buildInventory(t.Context(), providerModel{Devices: namedBlocks(map[string]deviceModel{
		"r": {
			sshModel: sshModel{Password: types.StringValue(secret), Port: types.Int64Value(int64(port)), Timeout: types.StringValue("2s")},
			Platform: types.StringValue("linux"), Host: types.StringValue("127.0.0.1"), HostKey: types.StringValue(someHostKey),
		},
		"k": {
			sshModel: sshModel{PrivateKey: types.StringValue("-----BEGIN OPENSSH PRIVATE KEY-----\n" + secret + "\n-----END OPENSSH PRIVATE KEY-----\n")},
			Platform: types.StringValue("linux"), Host: types.StringValue("127.0.0.1"), HostKey: types.StringValue(someHostKey),
		},
	})})
	for _, d := range diags {
		if strings.Contains(d.Detail(), secret) || strings.Contains(d.Summary(), secret) {
			t.Errorf("diagnostic leaks the secret: %s", d.Detail())
		}
	}
	if !diags.HasError() {
		t.Error("an unparsable private_key must be a configuration error")
	}
	dev, err := inv.Lookup("r")
	if err != nil {
		t.Fatal(err)
	}
	_, err = dev.Snapshot(t.Context())
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("127.0.0.1:%d", port)) {
		t.Fatalf("err = %v, want it to name 127.0.0.1:%d", err, port)
	}
	if strings.Contains(err.Error(), secret) {
		t.Fatalf("error leaks the password: %v", err)
	}
}

// Benchmark inputs the engine would refuse fail at plan, before anything
// runs on a host.
func TestPlanValidationBenchmark(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	devs := providerWith(closedPortDevice("a", "linux") + "\n  " + closedPortDevice("b", "linux"))
	bench := func(body string) string {
		return devs + "resource \"routerlab_benchmark_run\" \"x\" {\n" + body + "\n}\n"
	}
	pair := `pair {
	  client = "a"
	  server = "b"
	  target = "198.18.2.10"
	}`
	cases := []struct{ name, config, want string }{
		{"unknown client", bench(`pair {
		  client = "nope"
		  server = "b"
		  target = "198.18.2.10"
		}`),
			`(?s)pair\[0\].client.*device "nope" is not one of the provider's device blocks; known devices: a, b`},
		{"local DUT", bench(pair + "\n dut = [\"local\"]"), `(?s)a DUT must be a device of the inventory`},
		{"same port twice", bench(`pair {
		  name = "one"
		  client = "a"
		  server = "b"
		  target = "198.18.2.10"
		  port = 5300
		}
		pair {
		  name = "two"
		  client = "a"
		  server = "b"
		  target = "198.18.2.11"
		  port = 5300
		}`), `(?s)pairs one and two both use port 5300 on b`},
		{"bad link speed", bench(pair + "\n link_speed = \"fast\""), `(?s)link_speed`},
		{"bad ESP cipher", bench(pair + "\n encapsulation {\n tunnel = \"ipsec\"\n esp_cipher = \"rot13\"\n }"), `(?s)encapsulation: .*rot13`},
		{"MSS below iperf3 minimum", bench(pair + "\n mss = [60]"), `(?s)mss 60: allowed are 0 \(default\) or 88 to 9216`},
		{"target not an address", bench(`pair {
		  client = "a"
		  server = "b"
		  target = "198.18.2.10; reboot"
		}`), `(?s)is not an IP address`},
		{"shelly without url", bench(pair + "\n power_meter { type = \"shelly\" }"), `(?s)power_meter: .*url`},
		{"unknown direction", bench(pair + "\n directions = [\"sideways\"]"), `(?s)directions.*sideways`},
		{"routeros_health without device", bench(pair + "\n power_meter { type = \"routeros_health\" }"), `(?s)power_meter: device is required for type routeros_health`},
		{"length 0", bench(pair + "\n lengths = [64, 0]"), `(?s)lengths\[1\].*value must be between 1 and 65536, got: 0`},
		{"length above 64 KiB", bench(pair + "\n lengths = [70000]"), `(?s)lengths\[0\].*value must be between 1 and 65536, got: 70000`},
		{"baseline not in the archive", bench(pair + "\n archive_dir = \"" + baselineArchive(t) + "\"\n baseline = \"20261130T000000Z-deadbeef\""),
			`(?s)baseline "20261130T000000Z-deadbeef": no archived run.*holds:\s+20261101T000000Z-0000base`},
		{"baseline of another protocol", bench(pair + "\n protocol = \"udp\"\n archive_dir = \"" + baselineArchive(t) + "\"\n baseline = \"20261101T000000Z-0000base\""),
			`(?s)baseline run 20261101T000000Z-0000base measured tcp, this run measures\s+udp`},
		{"min_percent_of_baseline without baseline", bench(pair + "\n expect { min_percent_of_baseline = 95 }"), `(?s)expect.min_percent_of_baseline needs a baseline run`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { planError(t, c.config, c.want) })
	}
}

// baselineArchive is an archive holding one TCP baseline run.
func baselineArchive(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	archiveRun(t, dir, bench.Run{ID: "20261101T000000Z-0000base", Started: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		Plan:  bench.Plan{Protocol: bench.TCP, Role: bench.RoleBaseline},
		Steps: []bench.StepResult{{Pairs: []bench.PairResult{{Pair: "direct", ReceiverMbps: 941}}}}})
	return dir
}
