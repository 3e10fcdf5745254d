# Seed 002 style: PPPoE through the router under test, MSS clamped to 1414,
# receiver (download) and sender (upload) per MSS, CPU and watts.
resource "routerlab_benchmark_run" "pppoe" {
  name = "forwarding=enable pppoe=enable"
  pair {
    name   = "A-B"
    client = "client_a"
    server = "server_b"
    target = "198.18.20.10"
  }
  dut              = ["er6p"]
  mss              = [0, 1200, 800, 400] # 0 = iperf3's default (1414 after clamping)
  directions       = ["download", "upload"]
  duration_seconds = 60
  omit_seconds     = 3
  link_speed       = "1gbit"
  encapsulation { pppoe = true }

  power_meter {
    type = "shelly"
    url  = "http://198.18.0.50"
  }

  # Fail the apply (e.g. in a lab's CI after a firmware upgrade) when any
  # step falls short.
  expect {
    min_line_rate_percent = 90
    max_cpu_percent       = 80
  }

  # Re-run when the firmware changes, even if nothing else does.
  triggers = {
    firmware = data.routerlab_device.er6p.firmware
  }

  archive_dir = "${path.module}/results"

  timeouts { create = "30m" }
}

data "routerlab_device" "er6p" {
  device = "er6p"
}

output "pppoe_table" {
  value = routerlab_benchmark_run.pppoe.markdown
}
