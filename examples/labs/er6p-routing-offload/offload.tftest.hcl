# Seed 004's three tables and a third concurrent pair, one run each: every run checks what the
# EdgeRouter reports; with benchmark = true each is measured (MSS
# 1460/1200/800/400, upload; two pairs at once in the last) and archived.

run "ab_no_offload" {
  variables {
    forwarding_offload = false
    pairs              = 1
  }
  assert {
    condition     = routerlab_offload.er6p.settings["ipv4"]["forwarding"] == false
    error_message = "the router does not report forwarding offload off"
  }
  assert {
    condition     = routerlab_router.er6p.interfaces["eth4"].addresses == toset(["198.18.4.1/24"])
    error_message = "LAN D's address is not what the router reports"
  }
  assert {
    condition     = routerlab_router.er6p.dhcp_servers["LAN4"].range_stop == "198.18.4.199"
    error_message = "the router does not report LAN D's DHCP scope"
  }
}

run "ab_offload" {
  variables {
    forwarding_offload = true
    pairs              = 1
  }
  assert {
    condition     = routerlab_offload.er6p.settings["ipv4"]["forwarding"] == true
    error_message = "the router does not report forwarding offload on"
  }
}

run "ab_cd_offload" {
  variables {
    forwarding_offload = true
    pairs              = 2
  }
  assert {
    condition     = routerlab_offload.er6p.settings["ipv4"]["forwarding"] == true
    error_message = "the router does not report forwarding offload on"
  }
  assert {
    condition     = length(routerlab_router.er6p.config_sha256) == 64
    error_message = "no configuration digest"
  }
}

run "three_pairs_offload" {
  variables {
    forwarding_offload = true
    pairs              = 3
  }
  assert {
    condition     = routerlab_offload.er6p.settings["ipv4"]["forwarding"] == true
    error_message = "the router does not report forwarding offload on"
  }
}
