# RFC 2544 zero-loss throughput (NDR) per frame size, as vendors publish
# router figures (kpps and Mbit/s at 64 … 1518 bytes), with the hosts'
# own ceiling beside it so a figure the traffic generator set is never
# read as the router's.

# The same search straight between the hosts, without the router: what
# the generator itself can send and receive at each frame size.
resource "routerlab_benchmark_run" "ceiling" {
  name     = "hosts without the router"
  role     = "baseline"
  protocol = "udp"
  pair {
    name   = "A-B"
    client = "client_a"
    server = "server_b"
    target = "198.18.99.20" # server_b on the direct link
  }
  duration_seconds = 10 # the confirmation trial
  archive_dir      = "${path.module}/results"
  search {
    frame_sizes = [64, 128, 256, 512, 1024, 1280, 1518] # iperf3 -l = frame − 46
  }
}

# Through the router: the highest rate with no loss at all (loss_percent
# = 0, NDR), searched with 1 s trials and confirmed for duration_seconds.
# A result within 5 % of the ceiling above is marked host_limited.
resource "routerlab_benchmark_run" "ndr" {
  name     = "NDR, fast path"
  protocol = "udp"
  pair {
    name   = "A-B"
    client = "client_a"
    server = "server_b"
    target = "198.18.20.10"
  }
  dut                 = ["hex"]
  duration_seconds    = 10
  link_speed          = "1gbit"
  baseline            = routerlab_benchmark_run.ceiling.id
  archive_dir         = "${path.module}/results"
  renderings_in_state = ["markdown", "svg"]
  search {
    frame_sizes   = [64, 512, 1400, 1518]
    loss_percent  = 0 # e.g. 0.5 for a partial-drop rate (PDR)
    trial_seconds = 1

    # Published figures to show beside the measured ones ("% of datasheet"),
    # in a vendor's test-results layout: kpps and/or Mbit/s, where
    # Mbit/s = kpps × frame bytes × 8 / 1000. The figures below are
    # placeholders: copy the vendor's own for your model and mode.
    reference {
      frame_size = 64
      kpps       = 1000
      source     = "vendor test results, IP forwarding, none (fast path) - placeholder"
    }
    reference {
      frame_size = 1518
      kpps       = 81.2
      mbps       = 986.1 # 81.2 × 1518 × 8 / 1000
      source     = "vendor test results, IP forwarding, none (fast path) - placeholder"
    }
  }
}

output "ndr_table" {
  value = routerlab_benchmark_run.ndr.markdown
}

output "host_limited_frame_sizes" {
  value = [for r in routerlab_benchmark_run.ndr.search_results : r.frame_size if r.host_limited]
}
