# Seed 003's matrix as a Terraform test: each run applies one variant to the
# lab router, benchmarks it and archives the run; the last one also reads the
# archive back and compares the four. `terraform test` destroys everything at
# the end, which restores the router.
#
# The assertions hold on any working router: every step measured traffic in
# both directions, the firewall and conntrack settings are what the run says,
# and the DUT's CPU was sampled.

run "no_conntrack_no_firewall" {
  variables {
    connection_tracking = false
    firewall            = "allow_all"
  }
  assert {
    condition     = alltrue([for s in routerlab_benchmark_run.matrix.results : s.receiver_mbps > 10])
    error_message = "a step measured (almost) nothing: ${routerlab_benchmark_run.matrix.markdown}"
  }
  assert {
    condition     = routerlab_router.r.connection_tracking == false && routerlab_firewall.r.preset == "allow_all"
    error_message = "the router does not report the variant's settings"
  }
}

run "no_conntrack_firewall" {
  variables {
    connection_tracking = false
    firewall            = "stateful"
  }
  assert {
    condition     = alltrue([for s in routerlab_benchmark_run.matrix.results : s.receiver_mbps > 10])
    error_message = "with the stateful firewall and no connection tracking, traffic must still pass: ${routerlab_benchmark_run.matrix.markdown}"
  }
}

run "conntrack_no_firewall" {
  variables {
    connection_tracking = true
    firewall            = "allow_all"
  }
  assert {
    condition     = alltrue([for s in routerlab_benchmark_run.matrix.results : s.receiver_mbps > 10])
    error_message = "a step measured (almost) nothing: ${routerlab_benchmark_run.matrix.markdown}"
  }
}

run "conntrack_firewall" {
  variables {
    connection_tracking = true
    firewall            = "stateful"
    compare_last        = 4
  }
  assert {
    condition     = alltrue([for s in routerlab_benchmark_run.matrix.results : s.receiver_mbps > 10])
    error_message = "a step measured (almost) nothing: ${routerlab_benchmark_run.matrix.markdown}"
  }
  assert {
    condition     = length(data.routerlab_benchmark_archive.matrix[0].runs) == 4
    error_message = "the archive does not hold the four variants"
  }
  assert {
    condition     = alltrue([for s in routerlab_benchmark_run.matrix.results : length(s.cpu) == 1 && s.cpu[0].samples > 0])
    error_message = "the router's CPU was not sampled"
  }
}
