# Adopt the router of the provider's device block "r": the host name,
# forwarding, connection tracking, the routes routerlab tagged and every
# interface but the loopback and the one carrying routerlab's own SSH
# session (a warning names it; an ID "r:eth1,mgmt0" adopts it explicitly).
# `terraform plan -generate-config-out=router.tf` writes the resource's
# configuration, and the plan after it is empty.
import {
  to = routerlab_router.r
  id = "r"
}

# Adopt only some interfaces of device "edge".
import {
  to = routerlab_router.edge
  id = "edge:eth1,eth2"
}
