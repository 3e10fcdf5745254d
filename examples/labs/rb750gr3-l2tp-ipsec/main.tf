# Seed 000: a MikroTik RB750Gr3 (hEX, RouterOS 6.44) as L2TP/IPsec server,
# a Debian host dialling in through the Linux driver (strongSwan IKEv1
# transport SA + xl2tpd), and iperf3 between a host on the RB750Gr3's LAN
# and the Debian client, through the tunnel: MSS 1310 (the tunnel's own,
# MTU 1350), 1200, 800 and 400, both directions. The seed read power off a
# TAP-TST10 meter by eye (2.4 W idle, 2.9 W under load): `manual` figures.
#
#   a (LAN 198.18.100.0/24) ── bridge/ether2  RB750Gr3  ether1 ── debian
#                                          198.18.10.1      198.18.10.2
#
# On real hardware set `benchmark = true` and give hosts a and debian;
# against a simulated RB750Gr3 (CI, make sim-up) only the configuration is
# applied and checked. The Debian client is a real Linux host whose kernel
# has PPP (ppp_generic, l2tp_ppp); leaving `debian` null configures the
# RB750Gr3 alone. tunnel.tftest.hcl applies it and checks what the devices
# report.
terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

variable "rb750gr3" {
  description = "How to reach the RB750Gr3: host, port, username, password, host_key."
  type = object({
    host     = string
    port     = optional(number, 22)
    username = optional(string, "admin")
    password = string
    host_key = string
  })
  sensitive = true
}

variable "debian" {
  description = "How to reach the Debian L2TP client: host, port, username, password or private_key (the key itself, e.g. file(\"~/.ssh/id_ed25519\"); optional: agent or keys otherwise), host_key. null (the default): no Debian client, the RB750Gr3 alone."
  type = object({
    host        = string
    port        = optional(number, 22)
    username    = optional(string, "root")
    password    = optional(string)
    private_key = optional(string)
    host_key    = string
  })
  default   = null
  sensitive = true
}

variable "psk" {
  description = "IPsec pre-shared key of the L2TP server."
  type        = string
  sensitive   = true
}

variable "ppp_password" {
  description = "Password of the PPP account ppp1."
  type        = string
  sensitive   = true
}

variable "benchmark" {
  description = "Run the benchmark (real hardware with host a); false applies the configuration only."
  type        = bool
  default     = false
}

variable "hosts" {
  description = "Host a on the RB750Gr3's LAN, when benchmark is true."
  type        = map(object({ host = string }))
  default     = {}
}

variable "archive_dir" {
  type    = string
  default = "results"
}

provider "routerlab" {
  ssh { connect_timeout = "10s" }
  device {
    name     = "rb750gr3"
    platform = "routeros"
    host     = var.rb750gr3.host
    port     = var.rb750gr3.port
    username = var.rb750gr3.username
    password = var.rb750gr3.password
    host_key = var.rb750gr3.host_key
  }
  dynamic "device" {
    # Whether there is a Debian client is no secret; how to reach it is.
    for_each = nonsensitive(var.debian != null) ? ["debian"] : []
    content {
      name        = "debian"
      platform    = "linux"
      host        = var.debian.host
      port        = var.debian.port
      username    = var.debian.username
      password    = var.debian.password
      private_key = var.debian.private_key
      host_key    = var.debian.host_key
    }
  }
  dynamic "device" {
    for_each = var.hosts
    content {
      name     = device.key
      platform = "linux"
      host     = device.value.host
      username = "root"
    }
  }
}

resource "routerlab_router" "rb750gr3" {
  device   = "rb750gr3"
  hostname = "rb750gr3-lab"
  interfaces = {
    ether1 = { addresses = ["198.18.10.1/24"], description = "to debian" }
    ether2 = { addresses = ["198.18.100.1/24"], description = "LAN" }
  }
}

# The seed's server: /interface l2tp-server server with use-ipsec, a PPP
# profile with change-tcp-mss (mss_clamp = "pmtu"), max-mtu/max-mru 1350,
# one account, and the input rules for IKE, NAT-T, L2TP and ESP.
resource "routerlab_tunnel" "server" {
  device = "rb750gr3"
  name   = "l2tp"
  type   = "l2tp_ipsec"
  l2tp_ipsec = {
    role          = "server"
    local_address = "198.18.100.1"
    remote_pool   = "198.18.100.200-198.18.100.209"
    mtu           = 1350
    mru           = 1350
    user          = "ppp1"
    password_wo   = var.ppp_password
    psk_wo        = var.psk
    # RouterOS's L2TP server negotiates with the router's default IPsec
    # profile and proposal; these are what a reset router's offer. The
    # client below picks the seed's aes128-sha1-modp1024 from them.
    ike_proposals = ["aes128-sha1-modp2048", "aes128-sha1-modp1024", "3des-sha1-modp2048", "3des-sha1-modp1024"]
    esp_proposals = ["aes256-sha1-modp1024", "aes192-sha1-modp1024", "aes128-sha1-modp1024"]
  }
  mss_clamp  = "pmtu"
  depends_on = [routerlab_router.rb750gr3]
}

# The seed's Debian 9: strongSwan (IKEv1, aes128-sha1-modp1024, transport
# mode for UDP 1701) and xl2tpd, MTU/MRU 1350.
resource "routerlab_tunnel" "client" {
  count  = nonsensitive(var.debian != null) ? 1 : 0
  device = "debian"
  name   = "mikrotik"
  type   = "l2tp_ipsec"
  l2tp_ipsec = {
    role          = "client"
    server        = "198.18.10.1"
    mtu           = 1350
    mru           = 1350
    user          = "ppp1"
    password_wo   = var.ppp_password
    psk_wo        = var.psk
    ike_proposals = ["aes128-sha1-modp1024"]
    esp_proposals = ["aes128-sha1"]
  }
  depends_on = [routerlab_tunnel.server]
}

resource "routerlab_benchmark_run" "l2tp" {
  count = var.benchmark ? 1 : 0
  name  = "RB750Gr3 L2TP/IPsec, MTU 1350"
  # The Debian client is the iperf3 server; its PPP address is the first of
  # the pool.
  pair {
    name   = "a-debian"
    client = "a"
    server = "debian"
    target = "198.18.100.200"
  }
  dut              = ["rb750gr3"]
  mss              = [1310, 1200, 800, 400]
  directions       = ["download", "upload"]
  duration_seconds = 60
  link_speed       = "1gbit"
  power_meter {
    type       = "manual"
    idle_watts = 2.4
    load_watts = 2.9
  }
  archive_dir = var.archive_dir
  depends_on  = [routerlab_tunnel.client]
}

output "server_config_sha256" {
  value = routerlab_router.rb750gr3.config_sha256
}
