# A Linux router between two benchmark LANs (the netns lab's router "r").
resource "routerlab_router" "r" {
  device   = "r"
  hostname = "bench-r"

  interfaces = {
    eth1 = { addresses = ["198.18.1.1/24"], mtu = 1500, description = "to client A" }
    eth2 = { addresses = ["198.18.2.1/24"], mtu = 1500, description = "to server B" }
  }

  static_routes = {
    "198.18.100.0/24" = { gateway = "198.18.2.10" }
  }

  ip_forwarding       = true
  connection_tracking = false # seed 003: conntrack off for the fast path
}

output "router_firmware" {
  value = routerlab_router.r.firmware
}
