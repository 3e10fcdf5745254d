# Seed 002's WAN_IN/WAN_LOCAL on the PPPoE client, with NAT and MSS clamping.
resource "routerlab_firewall" "edge" {
  device         = "r1"
  preset         = "stateful"
  wan_interfaces = ["eth2"]
  masquerade     = ["eth2"]
  mss_clamp      = "1414"
}

# Seed 003's "firewall set to allow all", with connection tracking bypassed
# for traffic arriving from both LANs.
resource "routerlab_firewall" "allow_all" {
  device             = "r2"
  preset             = "allow_all"
  notrack_interfaces = ["eth1", "eth2"]
}
