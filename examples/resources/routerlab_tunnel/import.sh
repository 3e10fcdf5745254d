# Adopt the tunnel named "s2s" on device "r1". Secrets are never read back:
# set psk (or psk_wo) in the configuration, then apply writes it again.
terraform import routerlab_tunnel.r1 r1/s2s
