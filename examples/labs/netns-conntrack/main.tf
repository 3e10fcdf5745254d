# Seed 003's 2×2 matrix on the built-in lab (host a — router r — host b):
# connection tracking on/off × firewall allow_all/stateful. One variant per
# apply; conntrack.tftest.hcl applies all four in turn, benchmarks each and
# archives it, then compares them (routerlab_benchmark_archive).
terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

variable "lab_known_hosts_file" { type = string }
variable "lab_private_key_file" { type = string }
variable "a_host" { type = string }
variable "r_host" { type = string }
variable "b_host" { type = string }

variable "connection_tracking" {
  type    = bool
  default = true
}

variable "firewall" {
  description = "allow_all (seed 003's \"no f/w\") or stateful (\"f/w\")."
  type        = string
  default     = "allow_all"
}

variable "duration_seconds" {
  type    = number
  default = 10
}

variable "archive_dir" {
  type    = string
  default = "results"
}

# Set in the last run of the test: compare the archived variants.
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
    name     = "r"
    platform = "linux"
    host     = var.r_host
  }
  device {
    name     = "b"
    platform = "linux"
    host     = var.b_host
  }
}

locals {
  variant = "${var.connection_tracking ? "C/t" : "No c/t"}, ${var.firewall == "allow_all" ? "no f/w" : "f/w"}"
}

resource "routerlab_router" "r" {
  device              = "r"
  ip_forwarding       = true
  connection_tracking = var.connection_tracking
}

resource "routerlab_firewall" "r" {
  device         = "r"
  preset         = var.firewall
  wan_interfaces = var.firewall == "stateful" ? ["eth2"] : null
  depends_on     = [routerlab_router.r]
}

# Seed 003 sweeps iperf write sizes (-l) with TCP; b is "outside" (WAN), so
# a connects out and both directions run over that one connection.
resource "routerlab_benchmark_run" "matrix" {
  name = local.variant
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["r"]
  lengths          = [256, 1460]
  directions       = ["upload", "download"]
  duration_seconds = var.duration_seconds
  omit_seconds     = 1
  link_speed       = "1gbit"
  archive_dir      = var.archive_dir
  depends_on       = [routerlab_firewall.r]
}

data "routerlab_benchmark_archive" "matrix" {
  count      = var.compare_last > 0 ? 1 : 0
  dir        = var.archive_dir
  last       = var.compare_last
  depends_on = [routerlab_benchmark_run.matrix]
}

output "variant" {
  value = local.variant
}

output "table" {
  value = routerlab_benchmark_run.matrix.markdown
}

output "comparison" {
  value = var.compare_last > 0 ? data.routerlab_benchmark_archive.matrix[0].comparison_markdown : ""
}
