# jan/02/2014 10:00:00 by RouterOS 5.26
# software id = RL5A-0450
#
/interface bridge
add admin-mac=02:52:4C:00:04:50 ageing-time=5m arp=enabled auto-mac=no \
    disabled=no forward-delay=15s l2mtu=1524 max-message-age=20s mtu=1500 \
    name=rl-lan priority=0x8000 protocol-mode=rstp transmit-hold-count=6
/interface ethernet
set 0 arp=enabled auto-negotiation=yes bandwidth=unlimited/unlimited \
    comment="uplink to rl-core" disabled=no full-duplex=yes l2mtu=1524 \
    mac-address=02:52:4C:00:04:51 master-port=none mtu=1500 name=ether1 \
    speed=100Mbps
set 1 arp=enabled auto-negotiation=yes bandwidth=unlimited/unlimited \
    disabled=no full-duplex=yes l2mtu=1524 mac-address=02:52:4C:00:04:52 \
    master-port=none mtu=1500 name=ether2 speed=100Mbps
set 2 arp=enabled auto-negotiation=yes bandwidth=unlimited/unlimited \
    disabled=no full-duplex=yes l2mtu=1524 mac-address=02:52:4C:00:04:53 \
    master-port=ether2 mtu=1500 name=ether3 speed=100Mbps
/ip neighbor discovery
set ether1 discover=no
set ether2 discover=yes
set ether3 discover=yes
/ppp profile
set 0 change-tcp-mss=yes name=default only-one=default use-compression=\
    default use-encryption=default use-ipv6=yes use-mpls=default \
    use-vj-compression=default
/interface bridge port
add bridge=rl-lan disabled=no edge=auto external-fdb=auto horizon=none \
    interface=ether2 path-cost=10 point-to-point=auto priority=0x80
/ip address
add address=198.18.20.1/24 disabled=no interface=rl-lan network=198.18.20.0
add address=198.19.0.6/30 disabled=no interface=ether1 network=198.19.0.4
/ip firewall filter
add action=accept chain=input comment=routerlab:fw connection-state=\
    established disabled=no in-interface=ether1
add action=drop chain=input comment=routerlab:fw disabled=no in-interface=\
    ether1
/ip firewall nat
add action=masquerade chain=srcnat comment=routerlab:fw disabled=no \
    out-interface=ether1
/ip route
add comment=routerlab disabled=no distance=1 dst-address=198.18.64.0/24 \
    gateway=198.19.0.5 scope=30 target-scope=10
/ppp secret
add caller-id="" comment=rl-legacy disabled=no limit-bytes-in=0 \
    limit-bytes-out=0 name=rl-legacy password=dummy-sentinel-v5-ppp profile=\
    default routes="" service=pptp
/system identity
set name=rl-edge-v5
/system ntp client
set enabled=yes mode=unicast primary-ntp=198.18.0.123 secondary-ntp=0.0.0.0
