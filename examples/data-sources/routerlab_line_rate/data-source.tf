# The ceilings of seed 004 (plain GbE) and seed 000 (L2TP/IPsec, tunnel MTU 1350).
data "routerlab_line_rate" "gbe" {
  link_speed = "1gbit"
  mss        = [1460, 1200, 800, 400]
}

data "routerlab_line_rate" "l2tp_ipsec" {
  link_speed = "1gbit"
  mss        = [1310, 1200, 800, 400]
  encapsulation {
    tunnel     = "l2tp_ipsec"
    esp_cipher = "aes128-sha1"
  }
}

output "gbe_ceiling_mbps" {
  value = { for r in data.routerlab_line_rate.gbe.rates : r.mss => r.goodput_mbps }
}
