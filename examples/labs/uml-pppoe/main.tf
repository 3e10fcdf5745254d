# Seed 002's PPPoE benchmark on the built-in lab, through a real PPPoE
# session: host a — router cli (the PPPoE client, standing in for the
# seed's ER-6P) — router srv (the PPPoE server, standing in for its CHR) —
# host b, inside a user-mode-linux kernel of the lab's own (the machine's
# kernel may have no PPP; see README "What UML is").
#
#   a ── eth2  cli  eth1 ──PPPoE, MTU 1454── eth1  srv  eth2 ── b
#   198.18.1.0/24       198.18.21.10   198.18.21.1      198.18.2.0/24
#
# As in the seed: MTU 1454, a's traffic masqueraded on the session, iperf3's
# MSS set to 1414/1200/800/400 in both directions, each step set against
# PPPoE's line rate. Not here: the seed's MSS clamp and WAN_IN/WAN_LOCAL
# (routerlab_pppoe_session's mss_clamp, routerlab_firewall): they are
# nftables rules, and Debian's UML kernel has nftables for the bridge
# family only, so the lab sets the masquerade itself (iptables-legacy);
# iperf3's -M 1414 is what the clamp gives a 1500-byte LAN. Figures inside
# UML compare configurations, not hardware: the UML kernel runs every node
# on one host core.
terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

variable "lab_known_hosts_file" { type = string }
variable "lab_private_key_file" { type = string }
variable "a_host" { type = string }
variable "cli_host" { type = string }
variable "srv_host" { type = string }
variable "b_host" { type = string }

variable "pppoe_password" {
  type      = string
  sensitive = true
  default   = "lab-pw-not-secret"
}

variable "duration_seconds" {
  type    = number
  default = 10
}

variable "archive_dir" {
  type    = string
  default = "results"
}

provider "routerlab" {
  ssh {
    username         = "root"
    private_key      = file(var.lab_private_key_file)
    known_hosts_file = var.lab_known_hosts_file
  }
  device {
    name     = "a"
    platform = "linux"
    host     = var.a_host
  }
  device {
    name     = "cli"
    platform = "linux"
    host     = var.cli_host
  }
  device {
    name     = "srv"
    platform = "linux"
    host     = var.srv_host
  }
  device {
    name     = "b"
    platform = "linux"
    host     = var.b_host
  }
}

# The seed's CHR: a PPPoE server at MTU 1454 with one account.
resource "routerlab_pppoe_session" "server" {
  device        = "srv"
  name          = "bras0"
  role          = "server"
  interface     = "eth1"
  local_address = "198.18.21.1"
  remote_pool   = "198.18.21.10-198.18.21.19"
  mtu           = 1454
  mru           = 1454
  users         = [{ name = "ppp1", password = var.pppoe_password }]
}

# The seed's ER-6P: pppoe 0 on the WAN port, MTU 1454, default route
# through the session.
resource "routerlab_pppoe_session" "client" {
  device              = "cli"
  name                = "pppoe0"
  role                = "client"
  interface           = "eth1"
  user                = "ppp1"
  password_wo         = var.pppoe_password
  password_wo_version = 1
  mtu                 = 1454
  mru                 = 1454
  default_route       = true
  depends_on          = [routerlab_pppoe_session.server]
}

resource "routerlab_benchmark_run" "pppoe" {
  name = "PPPoE MTU 1454"
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["cli"]
  mss              = [1414, 1200, 800, 400]
  directions       = ["upload", "download"]
  duration_seconds = var.duration_seconds
  omit_seconds     = 2
  link_speed       = "1gbit"
  encapsulation {
    pppoe = true
  }
  archive_dir = var.archive_dir
  depends_on  = [routerlab_pppoe_session.client]
}

output "session" {
  value = {
    status  = routerlab_pppoe_session.client.status
    address = routerlab_pppoe_session.client.local_ppp_address
    peer    = routerlab_pppoe_session.client.remote_ppp_address
  }
}

output "table" {
  value = routerlab_benchmark_run.pppoe.markdown
}

output "archive" {
  value = routerlab_benchmark_run.pppoe.archive_path
}
