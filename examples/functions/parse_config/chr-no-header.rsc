/interface bridge add comment="rl lab LAN" name=rl-lan
/interface wireguard add comment=routerlab:wg0 listen-port=51820 mtu=1420 name=wg0 private-key="cmwtdjctZHVtbXktc2VudGluZWwtbm90LWEta2V5MDA="
/ip pool add name=rl-pppoe ranges=198.18.200.10-198.18.200.20
/ppp profile add change-tcp-mss=yes local-address=198.18.200.1 name=rl-pppoe remote-address=rl-pppoe
/interface bridge port add bridge=rl-lan interface=ether2
/ip settings set allow-fast-path=no
/interface pppoe-server server add default-profile=rl-pppoe disabled=no interface=ether3 max-mru=1454 max-mtu=1454 one-session-per-host=yes service-name=rl-pppoe
/interface wireguard peers add allowed-address=198.18.51.0/24 comment=routerlab:wg0 endpoint-address=198.19.5.2 endpoint-port=51820 interface=wg0 public-key="cmwtd2cwLXBlZXItZHVtbXktbm90LWEta2V5LTAwMDA="
/ip address add address=198.18.10.1/24 interface=rl-lan network=198.18.10.0
/ip address add address=198.18.50.1/30 comment=routerlab:wg0 interface=wg0 network=198.18.50.0
/ip firewall filter add chain=input comment=routerlab:fw connection-state=established,related in-interface=ether1
/ip firewall filter add action=drop chain=input comment=routerlab:fw connection-state=invalid in-interface=ether1
/ip firewall filter add action=drop chain=input comment=routerlab:fw in-interface=ether1
/ip firewall filter add action=fasttrack-connection chain=forward comment=routerlab:fasttrack connection-state=established,related
/ip firewall nat add action=masquerade chain=srcnat comment=routerlab:fw out-interface=ether1
/ip route add comment=routerlab:wg0 dst-address=198.18.51.0/24 gateway=wg0
/ppp secret add comment=routerlab:pppoe name=rl-ppp1 password=dummy-sentinel-v7-ppp profile=rl-pppoe service=pppoe
/system identity set name=rl-edge-v7
/system note set show-at-login=no
/system scheduler add interval=1d name=rl-nightly on-event="/system/script/run rl-nightly" policy=read,write start-date=2024-01-02 start-time=03:00:00
#error exporting "/system/routerboard/mode-button" (timeout)
