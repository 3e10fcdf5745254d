# GRO, GSO and TSO off on both router interfaces: the "offload off" run of
# an on/off comparison. Destroy turns them back to what they were.
resource "routerlab_offload" "r" {
  device = "r"
  settings = {
    eth1 = { gro = false, gso = false, tso = false }
    eth2 = { gro = false, gso = false, tso = false }
  }
}
