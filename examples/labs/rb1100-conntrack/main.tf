# Seed 003: a MikroTik RB1100 routing between two networks, benchmarked in
# a 2×2 matrix: connection tracking on/off × firewall allow_all ("no f/w")
# or stateful ("f/w"), TCP with small and full-size writes, both
# directions. One variant per apply; conntrack.tftest.hcl applies all four
# in turn. With fasttrack = true the same matrix runs with RouterOS's
# fasttrack (routerlab_offload), which the seed's RouterOS 4.x lacked.
#
#   a ── ether1 (198.18.1.1/24)  RB1100  ether2 (198.18.2.1/24) ── b
#
# On real hardware set `benchmark = true` and give hosts a and b; against
# the simulated RB1100 (CI) only the configuration is applied and checked.
terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

variable "rb1100" {
  description = "How to reach the RB1100: host, port, username, password, host_key."
  type = object({
    host     = string
    port     = optional(number, 22)
    username = optional(string, "admin")
    password = string
    host_key = string
  })
  sensitive = true
}

variable "connection_tracking" {
  type    = bool
  default = true
}

variable "firewall" {
  description = "allow_all (seed 003's \"no f/w\") or stateful (\"f/w\")."
  type        = string
  default     = "allow_all"
}

variable "fasttrack" {
  type    = bool
  default = false
}

variable "benchmark" {
  description = "Run the benchmark (real hardware with hosts a and b); false applies the configuration only."
  type        = bool
  default     = false
}

variable "hosts" {
  description = "Hosts a and b, when benchmark is true."
  type        = map(object({ host = string }))
  default     = {}
}

variable "archive_dir" {
  type    = string
  default = "results"
}

provider "routerlab" {
  ssh { connect_timeout = "10s" }
  device {
    name     = "rb1100"
    platform = "routeros"
    host     = var.rb1100.host
    port     = var.rb1100.port
    username = var.rb1100.username
    password = var.rb1100.password
    host_key = var.rb1100.host_key
  }
  dynamic "device" {
    for_each = var.hosts
    content {
      name     = device.key
      platform = "linux"
      host     = device.value.host
      username = "root"
    }
  }
}

locals {
  variant = "${var.connection_tracking ? "C/t" : "No c/t"}, ${var.firewall == "allow_all" ? "no f/w" : "f/w"}${var.fasttrack ? ", fasttrack" : ""}"
}

resource "routerlab_router" "rb1100" {
  device              = "rb1100"
  hostname            = "rb1100-lab"
  ip_forwarding       = true
  connection_tracking = var.connection_tracking
  interfaces = {
    ether1 = { addresses = ["198.18.1.1/24"], description = "LAN A" }
    ether2 = { addresses = ["198.18.2.1/24"], description = "LAN B" }
  }
}

resource "routerlab_firewall" "rb1100" {
  device         = "rb1100"
  preset         = var.firewall
  wan_interfaces = var.firewall == "stateful" ? ["ether2"] : null
  depends_on     = [routerlab_router.rb1100]
}

# After the firewall: on a router with a default configuration (a hEX's
# "defconf: fasttrack") what runs, `effective`, depends on the filter
# rules in front of that rule (allow_all's accept takes established
# connections first), and is read when the offload is applied.
resource "routerlab_offload" "rb1100" {
  device     = "rb1100"
  settings   = { ip = { fasttrack = var.fasttrack } }
  depends_on = [routerlab_firewall.rb1100]
}

# Seed 003 sweeps iperf write sizes (-l) with TCP; b is "outside" (WAN), so
# a connects out and both directions run over that one connection.
resource "routerlab_benchmark_run" "matrix" {
  count = var.benchmark ? 1 : 0
  name  = local.variant
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["rb1100"]
  lengths          = [64, 256, 512, 1024, 1460]
  directions       = ["upload", "download"]
  duration_seconds = 10
  link_speed       = "1gbit"
  archive_dir      = var.archive_dir
  depends_on       = [routerlab_firewall.rb1100, routerlab_offload.rb1100]
}

output "variant" {
  value = local.variant
}
