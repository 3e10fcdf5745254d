# What routerlab would read from a router's configuration, before it ever
# connects: the text you saved from the router, read by the same code the
# driver runs on the device. The files beside this one are lab examples.

# A RouterOS /export (here v6, CRLF, with its dated header).
output "hex" {
  value = provider::routerlab::parse_config("routeros", file("${path.module}/hex.rsc"))
}

# An export without its header: give the version it came from.
output "chr_router" {
  value = provider::routerlab::parse_config("routeros", file("${path.module}/chr-no-header.rsc"), "7.13.4").router
}

# EdgeOS or VyOS: the output of `show configuration commands`; what
# routerlab does not manage is listed in warnings.
output "er4_warnings" {
  value = provider::routerlab::parse_config("edgeos", file("${path.module}/er4.commands")).warnings
}

# YAMAHA RTX: the output of `show config`; the digest is the one
# routerlab_running_config reports for the router.
output "rtx810_sha256" {
  value = provider::routerlab::parse_config("rtx", file("${path.module}/rtx810.conf")).sha256
}
