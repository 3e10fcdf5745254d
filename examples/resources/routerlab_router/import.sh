# Adopt the router named "r" in the provider's devices map: every interface
# but the loopback, the host name, forwarding, connection tracking and the
# routes routerlab tagged.
terraform import routerlab_router.r r

# Adopt only some interfaces.
terraform import routerlab_router.r r:eth1,eth2
