# Seed 002's three offload configurations, one run each. Every run checks
# that the EdgeRouter reports the switches of that run and kept the rest of
# seed 002's configuration; with benchmark = true each run is also measured
# (MSS 1414/1200/800/400 × both directions over PPPoE) and archived.

run "no_offload" {
  variables {
    offload = { forwarding = false, pppoe = false }
  }
  assert {
    condition     = routerlab_offload.er6p.settings["ipv4"]["pppoe"] == false && routerlab_offload.er6p.settings["ipv4"]["forwarding"] == false
    error_message = "the router does not report offload off"
  }
  assert {
    condition     = routerlab_pppoe_session.wan.mtu == 1454 && routerlab_firewall.er6p.mss_clamp == "1414"
    error_message = "seed 002's PPPoE MTU and MSS clamp are not what the router reports"
  }
  assert {
    condition     = routerlab_pppoe_session.server.mtu == 1454 && length(routerlab_pppoe_session.server.users) == 1
    error_message = "the CHR does not report seed 002's PPPoE server (MTU 1454, one account)"
  }
}

run "pppoe_offload" {
  variables {
    offload = { forwarding = false, pppoe = true }
  }
  assert {
    condition     = routerlab_offload.er6p.settings["ipv4"]["pppoe"] == true && routerlab_offload.er6p.settings["ipv4"]["forwarding"] == false
    error_message = "the router does not report pppoe offload alone"
  }
}

run "forwarding_and_pppoe_offload" {
  variables {
    offload = { forwarding = true, pppoe = true }
  }
  assert {
    condition     = routerlab_offload.er6p.settings["ipv4"]["pppoe"] == true && routerlab_offload.er6p.settings["ipv4"]["forwarding"] == true
    error_message = "the router does not report both switches on"
  }
  assert {
    condition     = routerlab_firewall.er6p.preset == "stateful"
    error_message = "the firewall changed with the offload"
  }
}
