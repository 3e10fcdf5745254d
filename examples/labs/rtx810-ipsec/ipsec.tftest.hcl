# Seed 001's four ESP suites, one run each: the RTX810 and the Debian peer
# (when `debian` is given) both report the run's suite on the seed's IKEv2
# tunnel (MTU 1438, MSS clamped to it) behind the RTX810's stateful filters
# and masquerade; with benchmark = true each run is also measured (download
# and upload, as the seed's receiver and sender columns) and archived.

variables {
  psk = "routerlab-test-psk"
}

run "aes128_sha1" {
  variables {
    esp = "aes128-sha1"
  }
  assert {
    condition     = routerlab_tunnel.rtx810.ipsec.esp_proposals[0] == "aes128-sha1" && alltrue([for d in routerlab_tunnel.debian : d.ipsec.esp_proposals[0] == "aes128-sha1"])
    error_message = "the RTX810 and the Debian peer do not both report aes128-sha1"
  }
  assert {
    condition     = routerlab_tunnel.rtx810.ipsec.ike_version == 2 && routerlab_tunnel.rtx810.mtu == 1438 && routerlab_tunnel.rtx810.mss_clamp == "pmtu"
    error_message = "the RTX810 does not report seed 001's IKEv2 tunnel with MTU 1438 and ip tunnel tcp mss limit auto"
  }
  assert {
    condition     = routerlab_tunnel.rtx810.interface == "tunnel1" && routerlab_tunnel.rtx810.ipsec.remote_id == "debian.lab.test"
    error_message = "the RTX810's tunnel is not tunnel1 towards debian.lab.test"
  }
  assert {
    condition     = routerlab_firewall.rtx810.preset == "stateful" && contains(routerlab_firewall.rtx810.masquerade, "lan2")
    error_message = "the RTX810 does not report seed 001's filters and masquerade on lan2"
  }
  assert {
    condition     = routerlab_router.rtx810.model == "RTX810" && contains(routerlab_router.rtx810.interfaces["lan1"].addresses, "198.18.100.1/24")
    error_message = "the router is not an RTX810 with lan1 198.18.100.1/24"
  }
}

run "aes256_sha1" {
  variables {
    esp = "aes256-sha1"
  }
  assert {
    condition     = routerlab_tunnel.rtx810.ipsec.esp_proposals[0] == "aes256-sha1" && alltrue([for d in routerlab_tunnel.debian : d.ipsec.esp_proposals[0] == "aes256-sha1"])
    error_message = "the RTX810 and the Debian peer do not both report aes256-sha1"
  }
}

run "aes128_sha256" {
  variables {
    esp = "aes128-sha256"
  }
  assert {
    condition     = routerlab_tunnel.rtx810.ipsec.esp_proposals[0] == "aes128-sha256" && alltrue([for d in routerlab_tunnel.debian : d.ipsec.esp_proposals[0] == "aes128-sha256"])
    error_message = "the RTX810 and the Debian peer do not both report aes128-sha256"
  }
}

run "aes256_sha256" {
  variables {
    esp = "aes256-sha256"
  }
  assert {
    condition     = routerlab_tunnel.rtx810.ipsec.esp_proposals[0] == "aes256-sha256" && alltrue([for d in routerlab_tunnel.debian : d.ipsec.esp_proposals[0] == "aes256-sha256"])
    error_message = "the RTX810 and the Debian peer do not both report aes256-sha256"
  }
  assert {
    condition     = routerlab_tunnel.rtx810.mtu == 1438 && routerlab_firewall.rtx810.preset == "stateful"
    error_message = "changing the suite changed the rest of the RTX810's configuration"
  }
}
