# Seed 003's four variants (and a fifth with fasttrack), applied in turn to the RB1100. Each run checks
# what the router reports back: the connection-tracking switch and the
# firewall preset of that variant. With benchmark = true each is measured
# and archived.

run "no_ct_no_fw" {
  variables {
    connection_tracking = false
    firewall            = "allow_all"
  }
  assert {
    condition     = routerlab_router.rb1100.connection_tracking == false && routerlab_firewall.rb1100.preset == "allow_all"
    error_message = "the RB1100 does not report connection tracking off and the allow-all filter"
  }
}

run "no_ct_fw" {
  variables {
    connection_tracking = false
    firewall            = "stateful"
  }
  assert {
    condition     = routerlab_router.rb1100.connection_tracking == false && routerlab_firewall.rb1100.preset == "stateful"
    error_message = "the RB1100 does not report connection tracking off and the stateful filter"
  }
}

run "ct_no_fw" {
  variables {
    connection_tracking = true
    firewall            = "allow_all"
  }
  assert {
    condition     = routerlab_router.rb1100.connection_tracking == true && routerlab_firewall.rb1100.preset == "allow_all"
    error_message = "the RB1100 does not report connection tracking on and the allow-all filter"
  }
}

run "ct_fw" {
  variables {
    connection_tracking = true
    firewall            = "stateful"
  }
  assert {
    condition     = routerlab_router.rb1100.connection_tracking == true && routerlab_firewall.rb1100.preset == "stateful"
    error_message = "the RB1100 does not report connection tracking on and the stateful filter"
  }
}

# Beyond the seed: the same router with RouterOS's fasttrack.
run "ct_fw_fasttrack" {
  variables {
    connection_tracking = true
    firewall            = "stateful"
    fasttrack           = true
  }
  assert {
    condition     = routerlab_firewall.rb1100.preset == "stateful" && routerlab_offload.rb1100.settings["ip"]["fasttrack"] == true
    error_message = "the RB1100 does not report the stateful filter with fasttrack"
  }
}
