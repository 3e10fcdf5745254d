# Adopt routerlab's firewall on device "r1".
import {
  to = routerlab_firewall.edge
  id = "r1"
}
