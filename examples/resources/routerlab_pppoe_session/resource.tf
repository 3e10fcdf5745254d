# Seed 002: a PPPoE client with MTU 1454 and MSS clamp 1414 ...
variable "pppoe_password" {
  type      = string
  sensitive = true
}

resource "routerlab_pppoe_session" "client" {
  device              = "edge"
  name                = "wan"
  role                = "client"
  interface           = "eth1"
  user                = "bench"
  password_wo         = var.pppoe_password
  password_wo_version = 1
  mtu                 = 1454
  mru                 = 1454
  mss_clamp           = "1414"
  default_route       = true
}

# ... and the server it dials.
resource "routerlab_pppoe_session" "server" {
  device        = "bras"
  name          = "bras"
  role          = "server"
  interface     = "eth1"
  local_address = "198.18.50.1"
  remote_pool   = "198.18.50.10-198.18.50.99"
  mtu           = 1454
  users         = [{ name = "bench", password = var.pppoe_password }]
}
