# jan/02/2024 10:00:00 by RouterOS 6.49.10
# software id = RL6C-RLF0
#
# model = RB750Gr3
# serial number = RL00000750C1
/interface bridge
add admin-mac=02:52:4C:00:07:50 auto-mac=no comment="rl lab LAN" name=rl-lan
/interface ethernet
set [ find default-name=ether1 ] comment="uplink to rl-core" mtu=1480
set [ find default-name=ether5 ] disabled=yes
/ip pool
add name=rl-dhcp ranges=198.18.10.100-198.18.10.199
add name=rl-pppoe ranges=198.18.200.10-198.18.200.20
/ip dhcp-server
add address-pool=rl-dhcp disabled=no interface=rl-lan name=rl-dhcp
/ppp profile
add change-tcp-mss=yes local-address=198.18.200.1 name=rl-pppoe \
    remote-address=rl-pppoe
/interface bridge port
add bridge=rl-lan interface=ether2
/ip firewall connection tracking
set enabled=yes
/ip settings
set allow-fast-path=no
/interface pppoe-server server
add default-profile=rl-pppoe disabled=no interface=ether3 max-mru=1454 \
    max-mtu=1454 one-session-per-host=yes service-name=rl-pppoe
/ip address
add address=198.18.10.1/24 interface=rl-lan network=198.18.10.0
add address=198.19.0.2/30 comment=uplink interface=ether1 network=198.19.0.0
/ip dhcp-server network
add address=198.18.10.0/24 dns-server=198.18.10.1 gateway=198.18.10.1
/ip dns
set allow-remote-requests=yes servers=198.18.0.53
/ip firewall filter
add chain=input comment=routerlab:fw connection-state=established,related \
    in-interface=ether1
add action=drop chain=input comment=routerlab:fw connection-state=invalid \
    in-interface=ether1
add action=drop chain=input comment=routerlab:fw in-interface=ether1
add chain=forward comment=routerlab:fw connection-state=established,related \
    in-interface=ether1
add action=drop chain=forward comment=routerlab:fw connection-state=invalid \
    in-interface=ether1
add action=drop chain=forward comment=routerlab:fw in-interface=ether1
add action=fasttrack-connection chain=forward comment=routerlab:fasttrack \
    connection-state=established,related
/ip firewall mangle
add action=change-mss chain=forward comment=routerlab:fw new-mss=1414 \
    protocol=tcp tcp-flags=syn
/ip firewall nat
add action=masquerade chain=srcnat comment=routerlab:fw out-interface=ether1
/ip route
add comment=routerlab distance=1 dst-address=198.18.64.0/24 gateway=\
    198.19.0.1
/ppp secret
add comment=routerlab:pppoe name=rl-ppp1 password=dummy-sentinel-v6-ppp \
    profile=rl-pppoe service=pppoe
/system identity
set name=rl-edge-v6
/system scheduler
add interval=1d name=rl-nightly on-event="/system script run rl-nightly" \
    policy=ftp,reboot,read,write,policy,test,password,sniff,sensitive \
    start-date=jan/02/2024 start-time=03:00:00
add name=rl-boot on-event=":log info \"rl boot\"" policy=read,write \
    start-time=startup
add disabled=yes interval=1h name=rl-hourly on-event=":log info rl-hourly" \
    policy=read start-date=jan/02/2024 start-time=00:00:00
