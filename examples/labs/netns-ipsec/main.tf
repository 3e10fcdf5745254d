# Seed 001's site-to-site IPsec on the built-in lab: host a — router r1 —
# router r2 — host b, r1 and r2 joined by an IKEv2 PSK tunnel between
# 198.18.1.0/24 and 198.18.2.0/24 (the routers route nothing else for each
# other's LAN: traffic from a to b only passes through the tunnel). One ESP
# suite per apply; ipsec.tftest.hcl applies the four of seed 001 in turn,
# benchmarks each and archives it, then compares them.
terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

variable "lab_known_hosts_file" { type = string }
variable "lab_private_key_file" { type = string }
variable "a_host" { type = string }
variable "r1_host" { type = string }
variable "r2_host" { type = string }
variable "b_host" { type = string }

variable "esp" {
  description = "The ESP suite of this run: aes128-sha1, aes256-sha1, aes128-sha256 or aes256-sha256 (seed 001)."
  type        = string
  default     = "aes128-sha256"
}

variable "psk" {
  type      = string
  sensitive = true
  default   = "lab-psk-not-secret"
}

variable "duration_seconds" {
  type    = number
  default = 10
}

variable "archive_dir" {
  type    = string
  default = "results"
}

variable "compare_last" {
  type    = number
  default = 0
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
    name     = "r1"
    platform = "linux"
    host     = var.r1_host
  }
  device {
    name     = "r2"
    platform = "linux"
    host     = var.r2_host
  }
  device {
    name     = "b"
    platform = "linux"
    host     = var.b_host
  }
}

# The responder first: r1 initiates as soon as its side is loaded.
resource "routerlab_tunnel" "r2" {
  device = "r2"
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = [var.esp]
    psk_wo         = var.psk
    psk_wo_version = 1
    local_address  = "198.18.3.2"
    remote_address = "198.18.3.1"
    local_id       = "r2.lab.example"
    remote_id      = "r1.lab.example"
    local_subnets  = ["198.18.2.0/24"]
    remote_subnets = ["198.18.1.0/24"]
    initiate       = false
  }
}

resource "routerlab_tunnel" "r1" {
  device = "r1"
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = [var.esp]
    psk_wo         = var.psk
    psk_wo_version = 1
    local_address  = "198.18.3.1"
    remote_address = "198.18.3.2"
    local_id       = "r1.lab.example"
    remote_id      = "r2.lab.example"
    local_subnets  = ["198.18.1.0/24"]
    remote_subnets = ["198.18.2.0/24"]
    initiate       = true
  }
  depends_on = [routerlab_tunnel.r2]
}

resource "routerlab_benchmark_run" "suite" {
  name = "IPsec ${var.esp}"
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut = ["r1", "r2"]
  # One MSS for every suite: with iperf3's default the first suite's
  # 1460-byte segments (1558-byte ESP packets on a 1500-byte link) were
  # fragmented, and later suites got a smaller MSS from the path MTU the
  # kernel had cached, so the four runs were not measured alike. 1360 + 40
  # bytes of TCP/IP + the largest suite's ESP overhead fits in 1500.
  mss              = [1360]
  directions       = ["download", "upload"]
  duration_seconds = var.duration_seconds
  omit_seconds     = 1
  link_speed       = "1gbit"
  encapsulation {
    tunnel     = "ipsec"
    esp_cipher = var.esp
  }
  archive_dir = var.archive_dir
  triggers    = { esp = var.esp }
  depends_on  = [routerlab_tunnel.r1, routerlab_tunnel.r2]
}

data "routerlab_benchmark_archive" "suites" {
  count      = var.compare_last > 0 ? 1 : 0
  dir        = var.archive_dir
  last       = var.compare_last
  depends_on = [routerlab_benchmark_run.suite]
}

output "status" {
  value = { r1 = routerlab_tunnel.r1.status, r2 = routerlab_tunnel.r2.status }
}

output "table" {
  value = routerlab_benchmark_run.suite.markdown
}
