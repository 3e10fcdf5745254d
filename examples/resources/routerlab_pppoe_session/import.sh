# Adopt the PPPoE session named "wan" on device "edge". The password is never
# read back: set it in the configuration.
terraform import routerlab_pppoe_session.client edge/wan
