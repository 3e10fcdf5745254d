# Adopt the offload switches of interfaces eth1 and eth2 on device "r".
import {
  to = routerlab_offload.r
  id = "r:eth1,eth2"
}
