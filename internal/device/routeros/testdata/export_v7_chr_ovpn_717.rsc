# 2025-03-04 10:11:12 by RouterOS 7.17.2
# software id = RL77-1717
#
# model = RB1100Dx4
# serial number = RL0000001717
/ppp profile
add change-tcp-mss=yes local-address=198.18.70.1 name=rl-ovpn
/interface ovpn-server server
add auth=sha1,md5 mac-address=FE:52:4C:00:17:01 name=ovpn-server1
add auth=sha1 certificate=cert1 cipher=aes128-cbc comment=routerlab:ovpn \
    default-profile=rl-ovpn disabled=no mac-address=FE:52:4C:00:17:02 \
    name=rl-ovpn
add certificate=rl-office-cert default-profile=default disabled=no \
    mac-address=FE:52:4C:00:17:03 name=rl-office port=1195 protocol=udp
add default-profile=rl-old mac-address=FE:52:4C:00:17:04 name=rl-old-disabled
/ip address
add address=198.18.70.254/24 interface=ether1 network=198.18.70.0
/ppp secret
add comment=routerlab:ovpn name=pc1 profile=rl-ovpn \
    remote-address=198.18.70.2 service=ovpn
/system identity
set name=rl-rb1100-717
