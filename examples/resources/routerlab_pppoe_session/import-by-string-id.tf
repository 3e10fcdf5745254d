# Adopt the PPPoE session named "wan" on device "edge". The password is
# never read back: set it (or password_wo) in the configuration.
import {
  to = routerlab_pppoe_session.client
  id = "edge/wan"
}
