# Seed 001's four ESP suites as a Terraform test: each run changes the suite
# on both routers, benchmarks through the re-established tunnel and archives
# the run; the last one compares the four. Every step must have carried
# traffic (a reaches b only through the tunnel) and report its share of the
# ESP line rate.

run "aes128_sha1" {
  variables {
    esp = "aes128-sha1"
  }
  assert {
    condition     = alltrue([for s in routerlab_benchmark_run.suite.results : s.receiver_mbps > 5 && s.line_rate_mbps > 0])
    error_message = "no traffic through the tunnel: ${routerlab_benchmark_run.suite.markdown}"
  }
  assert {
    condition     = routerlab_tunnel.r1.ipsec.esp_proposals[0] == "aes128-sha1"
    error_message = "r1 does not report the suite"
  }
  # Every suite is measured at the same MSS, whose ESP packets fit the link.
  assert {
    condition     = alltrue([for s in routerlab_benchmark_run.suite.results : s.mss_used == 1360 && !anytrue([for w in s.warnings : strcontains(w, "link MTU")])])
    error_message = "a step ran at another MSS or with packets over the link MTU: ${routerlab_benchmark_run.suite.markdown}"
  }
}

run "aes256_sha1" {
  variables {
    esp = "aes256-sha1"
  }
  assert {
    condition     = alltrue([for s in routerlab_benchmark_run.suite.results : s.receiver_mbps > 5])
    error_message = "no traffic through the tunnel: ${routerlab_benchmark_run.suite.markdown}"
  }
}

run "aes128_sha256" {
  variables {
    esp = "aes128-sha256"
  }
  assert {
    condition     = alltrue([for s in routerlab_benchmark_run.suite.results : s.receiver_mbps > 5])
    error_message = "no traffic through the tunnel: ${routerlab_benchmark_run.suite.markdown}"
  }
}

run "aes256_sha256" {
  variables {
    esp          = "aes256-sha256"
    compare_last = 4
  }
  assert {
    condition     = alltrue([for s in routerlab_benchmark_run.suite.results : s.receiver_mbps > 5])
    error_message = "no traffic through the tunnel: ${routerlab_benchmark_run.suite.markdown}"
  }
  assert {
    condition     = length(data.routerlab_benchmark_archive.suites[0].runs) == 4
    error_message = "the archive does not hold the four suites"
  }
}
