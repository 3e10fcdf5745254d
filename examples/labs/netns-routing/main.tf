# Seed 004 on the built-in lab: router r between four LANs, hosts a, b, c, d,
# every router link shaped to 1 Gbit/s. Two pairs (A-B and C-D) run at the
# same moment through r for MSS 1460/1200/800/400, upload and download.
# `labctl up -lans 4 -rate 1gbit -tfvars lab.auto.tfvars.json -tfvars-for .`
# writes the variables; `make demo` does all of it.
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
variable "c_host" { type = string }
variable "d_host" { type = string }

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
  device {
    name     = "c"
    platform = "linux"
    host     = var.c_host
  }
  device {
    name     = "d"
    platform = "linux"
    host     = var.d_host
  }
}

# Plain routing between the four LANs, no filters or NAT (seed 004's config).
resource "routerlab_router" "r" {
  device   = "r"
  hostname = "er6p-lab"
  interfaces = {
    eth1 = { addresses = ["198.18.1.1/24"], description = "LAN A" }
    eth2 = { addresses = ["198.18.2.1/24"], description = "LAN B" }
    eth3 = { addresses = ["198.18.3.1/24"], description = "LAN C" }
    eth4 = { addresses = ["198.18.4.1/24"], description = "LAN D" }
  }
  ip_forwarding = true
}

resource "routerlab_benchmark_run" "routing" {
  name = "A-B and C-D at once, plain routing"
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  pair {
    name   = "C-D"
    client = "c"
    server = "d"
    target = "198.18.4.10"
  }
  dut              = ["r"]
  mss              = [1460, 1200, 800, 400]
  directions       = ["upload", "download"]
  duration_seconds = var.duration_seconds
  omit_seconds     = 2
  link_speed       = "1gbit"
  archive_dir      = var.archive_dir

  # The benchmark runs against the configured router.
  depends_on = [routerlab_router.r]
}

output "table" {
  value = routerlab_benchmark_run.routing.markdown
}

output "archive" {
  value = routerlab_benchmark_run.routing.archive_path
}
