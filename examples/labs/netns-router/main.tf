# The built-in network-namespace lab: host a — router r — host b, each with
# its own sshd. `labctl up -tfvars lab.auto.tfvars.json -tfvars-for .` writes
# the variables.
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

resource "routerlab_router" "r" {
  device   = "r"
  hostname = "bench-r"
  interfaces = {
    eth1 = { addresses = ["198.18.1.1/24"], mtu = 1500, description = "LAN A (client)" }
    eth2 = { addresses = ["198.18.2.1/24"], mtu = 1500, description = "LAN B (server)" }
  }
  ip_forwarding       = true
  connection_tracking = false
}

data "routerlab_device" "a" { device = "a" }
data "routerlab_device" "b" { device = "b" }

data "routerlab_running_config" "r" {
  device     = "r"
  depends_on = [routerlab_router.r]
}

output "router" {
  value = {
    hostname      = routerlab_router.r.hostname
    model         = routerlab_router.r.model
    firmware      = routerlab_router.r.firmware
    cpu_count     = routerlab_router.r.cpu_count
    config_sha256 = routerlab_router.r.config_sha256
  }
}

output "hosts" {
  value = { for d in [data.routerlab_device.a, data.routerlab_device.b] : d.device => "${d.hostname}: ${d.model}, kernel ${d.firmware}" }
}

output "router_running_config" {
  value = data.routerlab_running_config.r.text
}
