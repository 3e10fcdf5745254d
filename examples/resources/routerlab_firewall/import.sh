# Adopt routerlab's firewall on device "r1".
terraform import routerlab_firewall.edge r1
