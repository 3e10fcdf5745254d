terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

# Name every device of the lab once; resources refer to them by name.
provider "routerlab" {
  ssh {
    username         = "root"
    private_key      = file("~/.ssh/id_ed25519")
    known_hosts_file = "~/.ssh/known_hosts"
  }
  # A Linux router, host key checked against known_hosts.
  device {
    name     = "r1"
    platform = "linux"
    host     = "198.18.0.1"
  }
  # A MikroTik with password login and a pinned host key.
  device {
    name     = "hex"
    platform = "routeros"
    host     = "198.18.0.2"
    username = "admin"
    password = var.hex_password
    host_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBSq3CqBHgG0YmAiNJ0a7ASTjqoJ2PQ6pq33dzX3Y4yW"
  }
  # Reached through r1 as a jump host.
  device {
    name       = "client"
    platform   = "linux"
    host       = "198.18.1.10"
    jump_hosts = ["r1"]
  }
}

variable "hex_password" {
  type      = string
  sensitive = true
}
