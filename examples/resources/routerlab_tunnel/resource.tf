# Seed 001's site-to-site tunnel, both ends on Linux routers r1 and r2:
# IKEv2 with a pre-shared key, one ESP suite per run.
variable "psk" {
  type      = string
  sensitive = true
}

resource "routerlab_tunnel" "r1" {
  device = "r1"
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = ["aes128-sha256"]
    psk_wo         = var.psk # write-only: never stored in the state
    psk_wo_version = 1
    local_address  = "198.18.3.1"
    remote_address = "198.18.3.2"
    local_subnets  = ["198.18.1.0/24"]
    remote_subnets = ["198.18.2.0/24"]
    initiate       = true
  }
  mss_clamp = "pmtu"
}

resource "routerlab_tunnel" "r2" {
  device = "r2"
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = ["aes128-sha256"]
    psk_wo         = var.psk
    psk_wo_version = 1
    local_address  = "198.18.3.2"
    remote_address = "198.18.3.1"
    local_subnets  = ["198.18.2.0/24"]
    remote_subnets = ["198.18.1.0/24"]
  }
}

# WireGuard between the same routers: each side reads the other's public key.
resource "routerlab_tunnel" "wg_r1" {
  device = "r1"
  name   = "wg0"
  type   = "wireguard"
  wireguard = {
    private_key_wo         = var.wg_r1_key
    private_key_wo_version = 1
    listen_port            = 51820
    addresses              = ["198.18.60.1/30"]
    peers = [{
      public_key  = routerlab_tunnel.wg_r2.wireguard.public_key
      endpoint    = "198.18.3.2:51820"
      allowed_ips = ["198.18.60.2/32", "198.18.2.0/24"]
    }]
  }
  routes = ["198.18.2.0/24"] # the far LAN goes into the tunnel
}

variable "wg_r1_key" {
  type      = string
  sensitive = true
}

variable "wg_r2_key" {
  type      = string
  sensitive = true
}

resource "routerlab_tunnel" "wg_r2" {
  device = "r2"
  name   = "wg0"
  type   = "wireguard"
  wireguard = {
    private_key_wo         = var.wg_r2_key
    private_key_wo_version = 1
    listen_port            = 51820
    addresses              = ["198.18.60.2/30"]
    peers = [{
      public_key  = "hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=" # r1's public key (wg pubkey < r1.key)
      endpoint    = "198.18.3.1:51820"
      allowed_ips = ["198.18.60.1/32", "198.18.1.0/24"]
    }]
  }
  routes = ["198.18.1.0/24"]
}

# Seed 003's OpenVPN server on a MikroTik RB1100: RouterOS's OpenVPN has no
# static key, so it runs TLS with a certificate already on the router and a
# PPP account for the client (RouterOS 6: TCP only).
variable "ovpn_password" {
  type      = string
  sensitive = true
}

resource "routerlab_tunnel" "rb1100_ovpn" {
  device = "rb1100"
  name   = "ovpn"
  type   = "openvpn"
  openvpn = {
    role           = "server"
    protocol       = "tcp"
    cipher         = "AES-128-CBC"
    auth           = "SHA1"
    certificate    = "cert1"
    user           = "pc1"
    password_wo    = var.ovpn_password
    local_address  = "198.18.70.1"
    remote_address = "198.18.70.2"
  }
  mss_clamp = "pmtu"
}
