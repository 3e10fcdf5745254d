package provider

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/report"
)

func near(want float64) knownvalue.Check {
	return knownvalue.Float64Func(func(v float64) error {
		if v < want-0.01 || v > want+0.01 {
			return fmt.Errorf("%.3f, want %.2f", v, want)
		}
		return nil
	})
}

// The line rates the seeds hit: 941.5/929.6 on plain GbE (seed 004) and
// 934.7 at MSS 1414 over PPPoE (seed 002).
func TestLineRateDataSource(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: `
data "routerlab_line_rate" "gbe" {
  link_speed = "1gbit"
  mss        = [1460, 1200]
}
data "routerlab_line_rate" "pppoe" {
  link_speed    = "1G"
  mss           = [1414]
  encapsulation { pppoe = true }
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.routerlab_line_rate.gbe", tfjsonpath.New("rates").AtSliceIndex(0).AtMapKey("goodput_mbps"), near(941.48)),
				statecheck.ExpectKnownValue("data.routerlab_line_rate.gbe", tfjsonpath.New("rates").AtSliceIndex(0).AtMapKey("wire_bytes"), knownvalue.Int64Exact(1538)),
				statecheck.ExpectKnownValue("data.routerlab_line_rate.gbe", tfjsonpath.New("rates").AtSliceIndex(1).AtMapKey("goodput_mbps"), near(929.58)),
				statecheck.ExpectKnownValue("data.routerlab_line_rate.pppoe", tfjsonpath.New("rates").AtSliceIndex(0).AtMapKey("goodput_mbps"), near(934.67)),
			},
		}},
	})
}

func TestLineRateDataSourceErrors(t *testing.T) {
	t.Parallel()
	planError(t, `
data "routerlab_line_rate" "x" {
  link_speed = "fast"
  mss        = [1460]
}`, `(?s)link_speed`)
	planError(t, `
data "routerlab_line_rate" "x" {
  link_speed    = "1gbit"
  mss           = [1400]
  encapsulation {
    tunnel = "ipsec"
    esp_cipher = "rot13"
  }
}`, `(?s)rot13`)
}

// archivedRun builds a small run; its numbers are fixtures, not results.
func archivedRun(id, name string, start time.Time, mbps float64) bench.Run {
	return bench.Run{
		ID: id, Name: name, Started: start, Finished: start.Add(time.Minute), Iperf3Version: "3.12",
		Plan: bench.Plan{Pairs: []bench.Pair{{Name: "A-B", Client: "a", Server: "b", Target: "198.18.2.10", Port: 5201}},
			Duration: 60 * time.Second, Protocol: bench.TCP, MSS: []int{1414}, Directions: []bench.Direction{bench.Download},
			LinkMbps: 1000, Encapsulation: bench.Encapsulation{Timestamps: true, PPPoE: true}},
		DUTs: []bench.DUTInfo{{Device: "er6p", Platform: "edgeos", Model: "ER-6P", Firmware: "v1.10.9", ConfigSHA256: "ab12"}},
		Steps: []bench.StepResult{{Step: bench.Step{MSS: 1414, Direction: bench.Download}, Started: start, Finished: start.Add(time.Minute),
			Pairs: []bench.PairResult{{Pair: "A-B", ReceiverMbps: mbps, SenderMbps: mbps + 5, MSS: 1414}}, TotalReceiverMbps: mbps}},
	}
}

// The archive data source compares runs by name, in the asked order, and
// names what is missing.
func TestBenchmarkArchiveDataSource(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	t0 := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	for i, r := range []bench.Run{
		archivedRun("20261130T010000Z-00000001", "forwarding=disable pppoe=disable", t0, 439),
		archivedRun("20261130T011000Z-00000002", "forwarding=disable pppoe=enable", t0.Add(10*time.Minute), 929),
		archivedRun("20261130T012000Z-00000003", "forwarding=enable pppoe=enable", t0.Add(20*time.Minute), 935),
	} {
		if _, err := report.WriteArchive(dir, r); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`
data "routerlab_benchmark_archive" "offload" {
  dir   = %q
  names = ["forwarding=enable pppoe=enable", "forwarding=disable pppoe=disable"]
}
data "routerlab_benchmark_archive" "latest" {
  dir  = %q
  last = 1
}`, dir, dir),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.routerlab_benchmark_archive.offload", tfjsonpath.New("runs"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue("data.routerlab_benchmark_archive.offload", tfjsonpath.New("runs").AtSliceIndex(0).AtMapKey("id"), knownvalue.StringExact("20261130T012000Z-00000003")),
					statecheck.ExpectKnownValue("data.routerlab_benchmark_archive.latest", tfjsonpath.New("runs"), knownvalue.ListSizeExact(1)),
					statecheck.ExpectKnownValue("data.routerlab_benchmark_archive.latest", tfjsonpath.New("runs").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("forwarding=enable pppoe=enable")),
				},
				Check: resource.ComposeTestCheckFunc(
					resource.TestMatchResourceAttr("data.routerlab_benchmark_archive.offload", "comparison_markdown", regexp.MustCompile(`(?s)forwarding=enable pppoe=enable.*935.*439`)),
					resource.TestMatchResourceAttr("data.routerlab_benchmark_archive.offload", "comparison_svg", regexp.MustCompile(`<svg`)),
				),
			},
			{
				Config: fmt.Sprintf(`
data "routerlab_benchmark_archive" "x" {
  dir = %q
  ids = ["20261130T099999Z-ffffffff"]
}`, dir),
				ExpectError: regexp.MustCompile(`run id 20261130T099999Z-ffffffff is not in`),
			},
		},
	})
}
