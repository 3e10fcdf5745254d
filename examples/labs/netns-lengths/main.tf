# Seed 003 on the built-in lab: the write-size sweep (iperf3 -l 64, 512,
# 1460) once over a direct link between the hosts (the baseline, seed 003's
# "Direct Connection") and once through router r, whose table then shows
# each step as a share of the baseline. Every link is shaped to 1 Gbit/s.
# `labctl up -lans 2 -rate 1gbit -direct a,b -tfvars lab.auto.tfvars.json
# -tfvars-for .` writes the variables; `make demo-lengths` does all of it.
terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

variable "lab_known_hosts_file" { type = string }
variable "lab_private_key_file" { type = string }
variable "r_host" { type = string }
variable "a_host" { type = string }
variable "b_host" { type = string }
# b's address on the direct link a — b (198.18.99.20), bypassing r.
variable "b_direct_addr" { type = string }

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
    name     = "r"
    platform = "linux"
    host     = var.r_host
  }
  device {
    name     = "a"
    platform = "linux"
    host     = var.a_host
  }
  device {
    name     = "b"
    platform = "linux"
    host     = var.b_host
  }
}

# Plain routing between the two LANs.
resource "routerlab_router" "r" {
  device   = "r"
  hostname = "rtx-lab"
  interfaces = {
    eth1 = { addresses = ["198.18.1.1/24"], description = "LAN A" }
    eth2 = { addresses = ["198.18.2.1/24"], description = "LAN B" }
  }
  ip_forwarding = true
}

# The baseline: the same hosts and the same sweep over the direct link.
resource "routerlab_benchmark_run" "direct" {
  name = "Direct connection"
  role = "baseline"
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = var.b_direct_addr
  }
  lengths          = [64, 512, 1460]
  duration_seconds = var.duration_seconds
  omit_seconds     = 2
  link_speed       = "1gbit"
  archive_dir      = var.archive_dir
}

# Through the router, compared step by step with the baseline.
resource "routerlab_benchmark_run" "routed" {
  name = "Through r, plain routing"
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["r"]
  lengths          = [64, 512, 1460]
  duration_seconds = var.duration_seconds
  omit_seconds     = 2
  link_speed       = "1gbit"
  baseline         = routerlab_benchmark_run.direct.id
  archive_dir      = var.archive_dir

  depends_on = [routerlab_router.r]
}

output "direct_table" {
  value = routerlab_benchmark_run.direct.markdown
}

output "routed_table" {
  value = routerlab_benchmark_run.routed.markdown
}

# What routerlab's own CPU sampling cost r, in % of one core (-1: unknown).
output "sampler_cpu_percent" {
  value = routerlab_benchmark_run.routed.duts[0].sampler_cpu_percent
}

output "archive" {
  value = routerlab_benchmark_run.routed.archive_path
}

output "baseline_archive" {
  value = routerlab_benchmark_run.direct.archive_path
}
