# 2024-01-02 10:11:12 by RouterOS 7.13.4
# software id = ABCD-1234
#
# model = RB750Gr3
# serial number = HE0C8A1B2C3D
/ip firewall connection tracking
set enabled=yes udp-timeout=30s
/ip firewall filter
add chain=input comment=routerlab:fw connection-state=established,related
add chain=input comment=routerlab:fw dst-port=500,1701,4500 protocol=udp
add chain=input comment=routerlab:fw protocol=ipsec-esp
add action=drop chain=input comment=\
    "routerlab:fw drop everything else arriving on the WAN list" \
    in-interface-list=WAN
/ip firewall mangle
add action=change-mss chain=forward comment=routerlab:l2tp new-mss=1310 \
    protocol=tcp tcp-flags=syn
/ip firewall nat
add action=masquerade chain=srcnat comment=routerlab:nat out-interface=ether1
