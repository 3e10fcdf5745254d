# Seed 002: an EdgeRouter 6P as PPPoE client (MTU 1454, MSS clamp 1414,
# seed 002's WAN_IN/WAN_LOCAL firewall and masquerade), benchmarked with
# three offload configurations: none, `ipv4 pppoe`, `ipv4 forwarding` +
# `ipv4 pppoe`. offload.tftest.hcl applies the three in turn.
#
# The PPPoE server is seed 002's MikroTik CHR (RouterOS 6.44, MTU 1454,
# one account), configured through the RouterOS driver:
#
#   a ── eth1  ER-6P  eth0 ──PPPoE── ether1  CHR  ether2 ── b
#      198.18.100.1/24              198.18.200.1   198.18.201.1/24
#
# On real hardware: hosts a (LAN) and b (behind the PPPoE server) run
# iperf3; set `benchmark = true`. Against the simulated routers (CI) only
# the configuration is applied and checked.
terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

variable "er6p" {
  description = "How to reach the EdgeRouter: host, port, username, password, host_key."
  type = object({
    host     = string
    port     = optional(number, 22)
    username = optional(string, "ubnt")
    password = string
    host_key = string
  })
  sensitive = true
}

variable "chr" {
  description = "How to reach the CHR (PPPoE server): host, port, username, password, host_key."
  type = object({
    host     = string
    port     = optional(number, 22)
    username = optional(string, "admin")
    password = string
    host_key = string
  })
  sensitive = true
}

variable "pppoe_password" {
  type      = string
  sensitive = true
  default   = "lab-pw-not-secret"
}

variable "offload" {
  description = "The offload switches of this run (seed 002's three tables)."
  type        = object({ forwarding = bool, pppoe = bool })
  default     = { forwarding = false, pppoe = false }
}

variable "benchmark" {
  description = "Run the benchmark (real hardware with hosts a and b); false applies the configuration only."
  type        = bool
  default     = false
}

variable "hosts" {
  description = "Hosts a (LAN client) and b (server behind the PPPoE server), when benchmark is true."
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
    name     = "er6p"
    platform = "edgeos"
    host     = var.er6p.host
    port     = var.er6p.port
    username = var.er6p.username
    password = var.er6p.password
    host_key = var.er6p.host_key
  }
  device {
    name     = "chr"
    platform = "routeros"
    host     = var.chr.host
    port     = var.chr.port
    username = var.chr.username
    password = var.chr.password
    host_key = var.chr.host_key
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

resource "routerlab_router" "er6p" {
  device   = "er6p"
  hostname = "er6p-lab"
  interfaces = {
    eth1 = { addresses = ["198.18.100.1/24"], description = "LAN" }
  }
}

# Seed 002's CHR: the PPPoE server on ether1 (MTU 1454, the profile
# clamping MSS to it), one account, and b's network on ether2.
resource "routerlab_router" "chr" {
  device   = "chr"
  hostname = "chr-pppoe"
  interfaces = {
    ether2 = { addresses = ["198.18.201.1/24"], description = "to b" }
  }
}

resource "routerlab_pppoe_session" "server" {
  device        = "chr"
  name          = "pppoe"
  role          = "server"
  interface     = "ether1"
  service_name  = "lab"
  mtu           = 1454
  mru           = 1454
  mss_clamp     = "pmtu"
  local_address = "198.18.200.1"
  remote_pool   = "198.18.200.10-198.18.200.20"
  users         = [{ name = "ppp1", password = var.pppoe_password }]
}

resource "routerlab_pppoe_session" "wan" {
  device        = "er6p"
  name          = "pppoe0"
  role          = "client"
  interface     = "eth0"
  user          = "ppp1"
  password_wo   = var.pppoe_password
  mtu           = 1454
  default_route = true
  use_peer_dns  = true
  depends_on    = [routerlab_pppoe_session.server]
}

resource "routerlab_firewall" "er6p" {
  device         = "er6p"
  preset         = "stateful"
  wan_interfaces = ["pppoe0"]
  masquerade     = ["pppoe0"]
  mss_clamp      = "1414"
  depends_on     = [routerlab_pppoe_session.wan]
}

resource "routerlab_offload" "er6p" {
  device   = "er6p"
  settings = { ipv4 = var.offload }
}

resource "routerlab_benchmark_run" "pppoe" {
  count = var.benchmark ? 1 : 0
  name  = "forwarding=${var.offload.forwarding ? "enable" : "disable"} pppoe=${var.offload.pppoe ? "enable" : "disable"}"
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.201.10"
  }
  dut              = ["er6p"]
  mss              = [1414, 1200, 800, 400]
  directions       = ["download", "upload"]
  duration_seconds = 60
  link_speed       = "1gbit"
  encapsulation { pppoe = true }
  archive_dir = var.archive_dir
  depends_on  = [routerlab_firewall.er6p, routerlab_offload.er6p]
}

output "offload" {
  value = routerlab_offload.er6p.settings
}
