# Adopt the router of the provider's device block "r": every interface but
# the loopback and the one carrying routerlab's SSH session, the host name,
# forwarding, connection tracking and the routes routerlab tagged.
terraform import routerlab_router.r r

# Adopt only some interfaces.
terraform import routerlab_router.r r:eth1,eth2
