# 2024-01-02 10:11:12 by RouterOS 7.13.4
# software id = ABCD-1234
#
# model = RB750Gr3
# serial number = HE0C8A1B2C3D
/interface bridge
add comment="lab LAN" name=bridge-lan
/interface ethernet
set [ find default-name=ether2 ] comment=\
    "uplink to the lab core switch, rack 2" mtu=1400
set [ find default-name=ether5 ] disabled=yes
/interface wireguard
add listen-port=51820 mtu=1420 name=wg-lab
/interface ethernet switch
set 0 l3-hw-offloading=yes
/interface list
add name=WAN
/ip ipsec profile
add dh-group=modp2048 enc-algorithm=aes-256 hash-algorithm=sha256 name=rl-s2s
/ip ipsec peer
add address=198.19.0.2/32 exchange-mode=ike2 name=rl-s2s profile=rl-s2s
/ip ipsec proposal
add auth-algorithms=sha256 enc-algorithms=aes-256-cbc name=rl-s2s pfs-group=\
    modp2048
/ip pool
add name=rl-l2tp ranges=198.18.9.10-198.18.9.20
/ppp profile
add bridge=bridge-lan change-tcp-mss=yes local-address=198.18.9.1 name=\
    rl-l2tp remote-address=rl-l2tp use-encryption=yes
set *FFFFFFFE dns-server=198.18.0.53
/interface bridge port
add bridge=bridge-lan interface=ether3
add bridge=bridge-lan interface=ether4
/ip firewall connection tracking
set enabled=yes udp-timeout=30s
/ip settings
set allow-fast-path=no
/interface l2tp-server server
set default-profile=rl-l2tp enabled=yes max-mru=1350 max-mtu=1350 use-ipsec=\
    yes
/interface list member
add interface=ether1 list=WAN
/interface wireguard peers
add allowed-address=198.19.200.0/24 comment=routerlab:wg endpoint-address=\
    198.19.0.2 endpoint-port=51820 interface=wg-lab public-key=\
    "cm91dGVybGFiIGxhYiB3aXJlZ3VhcmQgcGVlciBrZXk="
/ip address
add address=198.18.0.1/24 interface=ether1 network=198.18.0.0
add address=198.18.100.1/24 comment=LAN interface=bridge-lan network=\
    198.18.100.0
add address=198.18.250.1/30 comment=routerlab:wg interface=wg-lab network=\
    198.18.250.0
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
/ip ipsec identity
add peer=rl-s2s
/ip ipsec policy
add dst-address=198.19.100.0/24 peer=rl-s2s proposal=rl-s2s src-address=\
    198.18.100.0/24 tunnel=yes
/ip route
add comment=routerlab dst-address=198.18.200.0/24 gateway=198.18.0.254
/ppp secret
add comment=routerlab:l2tp name=lab-client profile=rl-l2tp service=l2tp
/system identity
set name=lab-hex
