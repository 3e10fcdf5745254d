# Seed 002: an EdgeRouter 6P as PPPoE client (MTU 1454, MSS clamp 1414,
# seed 002's WAN_IN/WAN_LOCAL firewall and masquerade), benchmarked with
# three offload configurations: none, `ipv4 pppoe`, `ipv4 forwarding` +
# `ipv4 pppoe`. offload.tftest.hcl applies the three in turn.
#
# On real hardware: hosts a (LAN) and b (behind the PPPoE server) run
# iperf3; set `benchmark = true`. Against the simulated EdgeRouter (CI)
# only the configuration is applied and checked.
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
  ssh = { timeout = "10s" }
  devices = merge(
    { er6p = { platform = "edgeos", host = var.er6p.host, port = var.er6p.port, username = var.er6p.username, password = var.er6p.password, host_key = var.er6p.host_key } },
    { for name, h in var.hosts : name => { platform = "linux", host = h.host, username = "root" } },
  )
}

resource "routerlab_router" "er6p" {
  device   = "er6p"
  hostname = "er6p-lab"
  interfaces = {
    eth1 = { addresses = ["198.18.100.1/24"], description = "LAN" }
  }
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
  count            = var.benchmark ? 1 : 0
  name             = "forwarding=${var.offload.forwarding ? "enable" : "disable"} pppoe=${var.offload.pppoe ? "enable" : "disable"}"
  pairs            = [{ name = "A-B", client = "a", server = "b", target = "198.18.200.10" }]
  dut              = ["er6p"]
  mss              = [1414, 1200, 800, 400]
  directions       = ["download", "upload"]
  duration_seconds = 60
  link_speed       = "1gbit"
  encapsulation    = { pppoe = true }
  archive_dir      = var.archive_dir
  depends_on       = [routerlab_firewall.er6p, routerlab_offload.er6p]
}

output "offload" {
  value = routerlab_offload.er6p.settings
}
