# Seed 004: an EdgeRouter 6P routing between four LANs (eth1–eth4, hosts a–d)
# with no filters or NAT, benchmarked three ways: A-B without offload, A-B
# with `system offload ipv4 forwarding`, and A-B with C-D at the same moment
# with offload, and three pairs at once (A-D shares the hosts of the
# others). offload.tftest.hcl applies the four in turn.
#
# On real hardware set `benchmark = true` and give hosts a–d; against the
# simulated EdgeRouter (CI) only the configuration is applied and checked.
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

variable "forwarding_offload" {
  type    = bool
  default = false
}

variable "pairs" {
  description = "Concurrent pairs: 1 (A-B), 2 (A-B and C-D) or 3 (A-B, C-D and A-D)."
  type        = number
  default     = 1
  validation {
    condition     = contains([1, 2, 3], var.pairs)
    error_message = "pairs is 1, 2 or 3."
  }
}

variable "benchmark" {
  description = "Run the benchmark (real hardware with hosts a–d); false applies the configuration only."
  type        = bool
  default     = false
}

variable "hosts" {
  description = "Hosts a, b, c, d (one per LAN), when benchmark is true."
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

# Plain routing between the four LANs (seed 004's config, lab addresses).
resource "routerlab_router" "er6p" {
  device   = "er6p"
  hostname = "er6p-lab"
  interfaces = {
    eth1 = { addresses = ["198.18.1.1/24"], description = "LAN A" }
    eth2 = { addresses = ["198.18.2.1/24"], description = "LAN B" }
    eth3 = { addresses = ["198.18.3.1/24"], description = "LAN C" }
    eth4 = { addresses = ["198.18.4.1/24"], description = "LAN D" }
  }
  # Seed 004's DHCP server on every LAN: .2–.199, the router as gateway and
  # DNS server, not authoritative.
  dhcp_servers = { for i, lan in ["A", "B", "C", "D"] : "LAN${i + 1}" => {
    subnet         = "198.18.${i + 1}.0/24"
    range_start    = "198.18.${i + 1}.2"
    range_stop     = "198.18.${i + 1}.199"
    default_router = "198.18.${i + 1}.1"
    dns_servers    = ["198.18.${i + 1}.1"]
  } }
}

resource "routerlab_offload" "er6p" {
  device   = "er6p"
  settings = { ipv4 = { forwarding = var.forwarding_offload } }
}

locals {
  all_pairs = [
    { name = "A-B", client = "a", server = "b", target = "198.18.2.10" },
    { name = "C-D", client = "c", server = "d", target = "198.18.4.10" },
    { name = "A-D", client = "a", server = "d", target = "198.18.4.10" },
  ]
}

resource "routerlab_benchmark_run" "routing" {
  count = var.benchmark ? 1 : 0
  name  = "${join(" + ", slice(local.all_pairs[*].name, 0, var.pairs))}, ipv4 forwarding offload ${var.forwarding_offload ? "enable" : "disable"}"
  dynamic "pair" {
    for_each = slice(local.all_pairs, 0, var.pairs)
    content {
      name   = pair.value.name
      client = pair.value.client
      server = pair.value.server
      target = pair.value.target
    }
  }
  dut              = ["er6p"]
  mss              = [1460, 1200, 800, 400]
  directions       = ["upload"]
  duration_seconds = 60
  link_speed       = "1gbit"
  archive_dir      = var.archive_dir
  depends_on       = [routerlab_router.er6p, routerlab_offload.er6p]
}

output "config_sha256" {
  value = routerlab_router.er6p.config_sha256
}
