# GRO, GSO and TSO off on both router interfaces: the "offload off" run of
# an on/off comparison. Destroy turns them back to what they were.
resource "routerlab_offload" "r" {
  device = "r"
  settings = {
    eth1 = { gro = false, gso = false, tso = false }
    eth2 = { gro = false, gso = false, tso = false }
  }
}

# Seed 002's EdgeRouter: IPv4 forwarding and PPPoE offload.
resource "routerlab_offload" "er6p" {
  device   = "er6p"
  settings = { ipv4 = { forwarding = true, pppoe = true } }
}

# A MikroTik router: fasttrack on, and on RouterOS 7 routing in the switch
# chip where it has it.
resource "routerlab_offload" "hex" {
  device = "hex"
  settings = {
    ip     = { fasttrack = true }
    switch = { l3hw = true }
  }
}
