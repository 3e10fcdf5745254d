# Seed 001: a YAMAHA RTX810 (Rev.11.01.33 in the seed) and a Debian host
# running strongSwan joined by an IKEv2 site-to-site tunnel (pre-shared key,
# FQDN identities, tunnel MTU 1438, `ip tunnel tcp mss limit auto`), the
# RTX810's stateful filters and masquerade on its WAN (lan2) with the static
# IKE/ESP entries, and iperf3 between a host behind each through the tunnel
# with the four ESP suites of the seed: aes128/aes256 × sha1/sha256
# (ipsec.tftest.hcl applies them in turn). The seed read power off a TAP-TST10
# meter by eye (3.7 W idle, 3.8 W under load): `manual` figures.
#
#   a (198.18.100.0/24) ── lan1  RTX810  lan2 ── eth0  debian  eth1 ── b (198.18.200.0/24)
#                      198.18.100.1   (DHCP)    198.18.10.2     198.18.200.1
#
# The RTX810 is configured over its console (administrator mode, then
# `save`): give its administrator password. On real hardware set
# `benchmark = true` and give hosts a and b; against a simulated RTX810 (CI,
# make sim-up) only the configuration is applied and checked. The Debian peer
# is a real Linux host (a router of `make lab-up` will do); leaving `debian`
# null configures the RTX810 alone.
terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

variable "rtx810" {
  description = "How to reach the RTX810: host, port, username (a `login user`), password, host_key, and its administrator password."
  type = object({
    host                   = string
    port                   = optional(number, 22)
    username               = string
    password               = string
    host_key               = string
    administrator_password = string
  })
  sensitive = true
}

variable "debian" {
  description = "How to reach the Debian strongSwan peer: host, port, username, password or private_key (the key itself, e.g. file(\"~/.ssh/id_ed25519\"); optional: agent or keys otherwise), host_key. null (the default): no Debian peer, the RTX810 alone."
  type = object({
    host        = string
    port        = optional(number, 22)
    username    = optional(string, "root")
    password    = optional(string)
    private_key = optional(string)
    host_key    = string
  })
  default   = null
  sensitive = true
}

variable "psk" {
  description = "IPsec pre-shared key of the tunnel."
  type        = string
  sensitive   = true
}

variable "esp" {
  description = "The ESP suite of this run: aes128-sha1, aes256-sha1, aes128-sha256 or aes256-sha256 (seed 001)."
  type        = string
  default     = "aes128-sha1"
}

variable "debian_wan_address" {
  description = "The Debian peer's address on the link to the RTX810's lan2 (seed 001 named it debian.example.com in its DNS)."
  type        = string
  default     = "198.18.10.2"
}

variable "rtx810_wan_address" {
  description = "The address the RTX810's lan2 gets by DHCP (seed 001 named it rtx810.example.com in its DNS)."
  type        = string
  default     = "198.18.10.1"
}

variable "benchmark" {
  description = "Run the benchmark (real hardware with hosts a and b); false applies the configuration only."
  type        = bool
  default     = false
}

variable "hosts" {
  description = "Hosts a (behind the RTX810) and b (behind the Debian peer), when benchmark is true."
  type        = map(object({ host = string }))
  default     = {}
}

variable "duration_seconds" {
  type    = number
  default = 60
}

variable "archive_dir" {
  type    = string
  default = "results"
}

provider "routerlab" {
  ssh { connect_timeout = "10s" }
  device {
    name                   = "rtx810"
    platform               = "rtx"
    host                   = var.rtx810.host
    port                   = var.rtx810.port
    username               = var.rtx810.username
    password               = var.rtx810.password
    host_key               = var.rtx810.host_key
    administrator_password = var.rtx810.administrator_password
  }
  dynamic "device" {
    # Whether there is a Debian peer is no secret; how to reach it is.
    for_each = nonsensitive(var.debian != null) ? ["debian"] : []
    content {
      name        = "debian"
      platform    = "linux"
      host        = var.debian.host
      port        = var.debian.port
      username    = var.debian.username
      password    = var.debian.password
      private_key = var.debian.private_key
      host_key    = var.debian.host_key
    }
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

# The seed's inside LAN (lan1); lan2 stays on DHCP with its default route.
resource "routerlab_router" "rtx810" {
  device     = "rtx810"
  interfaces = { lan1 = { addresses = ["198.18.100.1/24"] } }
}

# ip lan2 secure filter in/out with the dynamic tcp/udp filters, and NAT
# descriptor masquerade with static entries for IKE, NAT-T and ESP to the
# router itself: the seed's filter lists under routerlab's numbers.
resource "routerlab_firewall" "rtx810" {
  device         = "rtx810"
  preset         = "stateful"
  wan_interfaces = ["lan2"]
  masquerade     = ["lan2"]
  depends_on     = [routerlab_router.rtx810]
}

# The seed's tunnel select 1: IKEv2, FQDN identities, no remote address (the
# peer is known by its name), keepalive on, MTU 1438 ("YAMAHA sets a safe
# 1280 unless the tunnel MTU is given", the seed notes), MSS clamped to it.
# The seed sets no IKE suite: 3des-sha1-modp1024 is RTX's default, and as
# an IKEv2 responder RTX takes any suite it supports; the ESP suite is the
# run's.
resource "routerlab_tunnel" "rtx810" {
  device    = "rtx810"
  name      = "s2s"
  type      = "ipsec"
  mtu       = 1438
  mss_clamp = "pmtu"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["3des-sha1-modp1024"]
    esp_proposals  = [var.esp]
    psk_wo         = var.psk
    psk_wo_version = 1
    remote_address = "%any"
    local_id       = "rtx810.lab.test"
    remote_id      = "debian.lab.test"
    remote_subnets = ["198.18.200.0/24"]
    dpd_delay      = 10
    initiate       = true
  }
  depends_on = [routerlab_firewall.rtx810]
}

# The seed's Debian 9: strongSwan with ike=aes128-sha1-modp1024!, the run's
# esp=...!, auto=start, through the Linux driver.
resource "routerlab_router" "debian" {
  count         = nonsensitive(var.debian != null) ? 1 : 0
  device        = "debian"
  ip_forwarding = true
}

resource "routerlab_tunnel" "debian" {
  count  = nonsensitive(var.debian != null) ? 1 : 0
  device = "debian"
  name   = "rtx810"
  type   = "ipsec"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha1-modp1024"]
    esp_proposals  = [var.esp]
    psk_wo         = var.psk
    psk_wo_version = 1
    local_address  = var.debian_wan_address
    remote_address = var.rtx810_wan_address
    local_id       = "debian.lab.test"
    remote_id      = "rtx810.lab.test"
    local_subnets  = ["198.18.200.0/24"]
    remote_subnets = ["198.18.100.0/24"]
    initiate       = true
  }
  depends_on = [routerlab_tunnel.rtx810, routerlab_router.debian]
}

resource "routerlab_benchmark_run" "suite" {
  count = var.benchmark ? 1 : 0
  name  = "RTX810 IPsec ${var.esp}, MTU 1438"
  # a, behind the RTX810, sends to b behind the Debian peer (the seed's
  # CentOS A and B).
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.200.10"
  }
  dut              = ["rtx810"]
  directions       = ["download", "upload"]
  duration_seconds = var.duration_seconds
  link_speed       = "1gbit"
  encapsulation {
    tunnel     = "ipsec"
    esp_cipher = var.esp
  }
  power_meter {
    type       = "manual"
    idle_watts = 3.7
    load_watts = 3.8
  }
  archive_dir = var.archive_dir
  triggers    = { esp = var.esp }
  depends_on  = [routerlab_tunnel.debian]
}

output "rtx810_config_sha256" {
  value = routerlab_router.rtx810.config_sha256
}
