# Adopt the tunnel named "s2s" on device "r1". Secrets are never read back:
# set psk (or psk_wo) in the configuration, then apply writes it again.
import {
  to = routerlab_tunnel.r1
  id = "r1/s2s"
}
