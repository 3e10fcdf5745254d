# jan/02/2024 10:00:00 by RouterOS 6.48.6
# software id = 
#
/interface bridge
add admin-mac="" ageing-time=5m arp=enabled auto-mac=yes comment="" \
    dhcp-snooping=no disabled=no fast-forward=yes frame-types=admit-all \
    igmp-snooping=no ingress-filtering=no mtu=auto name=rl-lan priority=\
    0x8000 protocol-mode=rstp pvid=1 vlan-filtering=no
/interface ethernet
set [ find default-name=ether1 ] arp=enabled arp-timeout=auto \
    auto-negotiation=yes comment="uplink to rl-core" disabled=no l2mtu=1598 \
    loop-protect=default mac-address=02:52:4C:00:30:01 mtu=1500 name=ether1 \
    rx-flow-control=off speed=1Gbps tx-flow-control=off
set [ find default-name=ether2 ] arp=enabled arp-timeout=auto \
    auto-negotiation=yes comment="" disabled=no l2mtu=1598 loop-protect=\
    default mac-address=02:52:4C:00:30:02 mtu=1500 name=ether2 \
    rx-flow-control=off speed=1Gbps tx-flow-control=off
set [ find default-name=ether3 ] arp=enabled arp-timeout=auto \
    auto-negotiation=yes comment="" disabled=no l2mtu=1598 loop-protect=\
    default mac-address=02:52:4C:00:30:03 mtu=1500 name=ether3 \
    rx-flow-control=off speed=1Gbps tx-flow-control=off
set [ find default-name=ether4 ] arp=enabled arp-timeout=auto \
    auto-negotiation=yes comment="" disabled=no l2mtu=1598 loop-protect=\
    default mac-address=02:52:4C:00:30:04 mtu=1500 name=ether4 \
    rx-flow-control=off speed=1Gbps tx-flow-control=off
set [ find default-name=ether5 ] arp=enabled arp-timeout=auto \
    auto-negotiation=yes comment="" disabled=no l2mtu=1598 loop-protect=\
    default mac-address=02:52:4C:00:30:05 mtu=1500 name=ether5 \
    rx-flow-control=off speed=1Gbps tx-flow-control=off
/ip ipsec profile
set [ find default=yes ] comment="" dh-group=modp2048,modp1024 disabled=no \
    dpd-interval=2m dpd-maximum-failures=5 enc-algorithm=aes-128,3des \
    hash-algorithm=sha1 lifebytes=0 lifetime=1d name=default nat-traversal=\
    yes proposal-check=obey
/ip ipsec proposal
set [ find default=yes ] auth-algorithms=sha1 comment="" disabled=no \
    enc-algorithms=aes-256-cbc,aes-192-cbc,aes-128-cbc lifetime=30m name=\
    default pfs-group=modp1024
/ppp profile
set *0 address-list="" bridge="" change-tcp-mss=yes comment="" disabled=no \
    dns-server="" idle-timeout="" incoming-filter="" interface-list="" \
    local-address="" name=default on-down="" on-up="" only-one=default \
    outgoing-filter="" queue-type="" rate-limit="" remote-address="" \
    session-timeout="" use-compression=default use-encryption=default \
    use-ipv6=yes use-mpls=default use-upnp=default wins-server=""
set *FFFFFFFE address-list="" bridge="" change-tcp-mss=yes comment="" \
    disabled=no dns-server="" idle-timeout="" incoming-filter="" \
    interface-list="" local-address="" name=default-encryption on-down="" \
    on-up="" only-one=default outgoing-filter="" queue-type="" rate-limit="" \
    remote-address="" session-timeout="" use-compression=default \
    use-encryption=yes use-ipv6=yes use-mpls=default use-upnp=default \
    wins-server=""
/interface bridge port
add bridge=rl-lan comment="" disabled=no edge=auto frame-types=admit-all \
    horizon=none hw=yes ingress-filtering=no interface=ether2 \
    internal-path-cost=10 path-cost=10 priority=0x80 pvid=1 trusted=no
/ip firewall connection tracking
set enabled=auto generic-timeout=10m icmp-timeout=10s loose-tcp-tracking=yes \
    tcp-close-timeout=10s tcp-close-wait-timeout=10s tcp-established-timeout=\
    1d tcp-fin-wait-timeout=10s tcp-last-ack-timeout=10s \
    tcp-max-retrans-timeout=5m tcp-syn-received-timeout=5s \
    tcp-syn-sent-timeout=5s tcp-time-wait-timeout=10s tcp-unacked-timeout=5m \
    udp-stream-timeout=3m udp-timeout=10s
/ip settings
set accept-redirects=no accept-source-route=no allow-fast-path=yes \
    arp-timeout=30s icmp-rate-limit=10 icmp-rate-mask=0x1818 ip-forward=yes \
    max-neighbor-entries=8192 route-cache=yes rp-filter=no secure-redirects=\
    yes send-redirects=yes tcp-syncookies=no
/ipv6 settings
set accept-redirects=yes-if-forwarding-disabled accept-router-advertisements=\
    yes-if-forwarding-disabled disable-ipv6=no forward=yes \
    max-neighbor-entries=8192
/interface l2tp-server server
set allow-fast-path=no authentication=pap,chap,mschap1,mschap2 \
    caller-id-type=ip-address default-profile=default-encryption enabled=no \
    ipsec-secret="" keepalive-timeout=30 max-mru=1450 max-mtu=1450 \
    max-sessions=unlimited mrru=disabled one-session-per-host=no use-ipsec=no
/interface ovpn-server server
set auth=sha1,md5 certificate=none cipher=blowfish128,aes128 default-profile=\
    default enabled=no keepalive-timeout=60 mac-address="" max-mtu=1500 mode=\
    ip netmask=24 port=1194 require-client-certificate=no
/ip address
add address=198.18.30.1/24 comment="" disabled=no interface=rl-lan network=\
    198.18.30.0
add address=198.19.0.10/30 comment="" disabled=no interface=ether1 network=\
    198.19.0.8
/ip firewall filter
add action=drop address-list="" address-list-timeout="" chain=input comment=\
    routerlab:fw connection-mark="" connection-nat-state="" connection-state=\
    "" connection-type="" disabled=no dst-address="" dst-address-list="" \
    dst-address-type="" dst-port="" hw-offload=no icmp-options="" \
    in-interface=ether1 in-interface-list="" ipsec-policy="" jump-target="" \
    limit="" log=no log-prefix="" out-interface="" out-interface-list="" \
    packet-mark="" packet-size="" port="" protocol="" reject-with="" \
    routing-mark="" src-address="" src-address-list="" src-address-type="" \
    src-port="" tcp-flags="" tcp-mss=""
/ip ipsec policy
set 0 action=encrypt comment="" disabled=no dst-address=0.0.0.0/0 dst-port=\
    any group=default ipsec-protocols=esp level=require peer="" proposal=\
    default protocol=all sa-dst-address="" sa-src-address="" src-address=\
    0.0.0.0/0 src-port=any template=yes tunnel=no
/ip ipsec settings
set accounting=yes interim-update=0s xauth-use-radius=no
/ip route
add check-gateway="" comment=routerlab disabled=no distance=1 dst-address=\
    198.18.64.0/24 gateway=198.19.0.9 pref-src="" routing-mark="" scope=30 \
    target-scope=10 type=unicast
/ppp secret
add caller-id="" comment=routerlab:x disabled=no limit-bytes-in=0 \
    limit-bytes-out=0 local-address="" name=rl-ppp1 password=\
    dummy-sentinel-verbose-ppp profile=default remote-address="" routes="" \
    service=pppoe
/system identity
set name=rl-edge-verbose
