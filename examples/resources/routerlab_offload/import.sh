# Adopt the offload switches of interfaces eth1 and eth2 on device "r".
terraform import routerlab_offload.r r:eth1,eth2
