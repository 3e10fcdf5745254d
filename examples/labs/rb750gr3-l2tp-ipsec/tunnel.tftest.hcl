# Seed 000's configuration, applied and read back from both devices: the
# RB750Gr3 reports its L2TP server as written (seed 000's MTU, profile
# clamp, account) and the Debian client (when `debian` is given) reports
# its tunnel. With benchmark = true the run is measured (MSS
# 1310/1200/800/400 × both directions) and archived.

variables {
  psk          = "routerlab-test-psk"
  ppp_password = "routerlab-test-ppp"
}

run "l2tp_ipsec" {
  assert {
    condition     = routerlab_tunnel.server.l2tp_ipsec.mtu == 1350 && routerlab_tunnel.server.l2tp_ipsec.mru == 1350
    error_message = "the RB750Gr3 does not report seed 000's max-mtu/max-mru 1350"
  }
  assert {
    condition     = routerlab_tunnel.server.mss_clamp == "pmtu" && routerlab_tunnel.server.l2tp_ipsec.user == "ppp1"
    error_message = "the RB750Gr3 does not report the profile's change-tcp-mss or the account"
  }
  assert {
    condition     = alltrue([for c in routerlab_tunnel.client : c.l2tp_ipsec.server == "198.18.10.1"])
    error_message = "the Debian client does not report its server"
  }
  assert {
    condition     = contains(routerlab_router.rb750gr3.interfaces["ether2"].addresses, "198.18.100.1/24")
    error_message = "the RB750Gr3 does not report its LAN address"
  }
}
