# 2024-01-02 10:11:12 by RouterOS 7.13.4
# software id = RL7R-5009
#
# model = RB5009UG+S+
# serial number = RL0000005009
/interface bridge
add admin-mac=02:52:4C:00:50:09 auto-mac=no comment=defconf name=bridge \
    port-cost-mode=short
/interface ethernet
set [ find default-name=ether1 ] comment="lab uplink"
set [ find default-name=sfp-sfpplus1 ] disabled=yes
/interface wireguard
add listen-port=13231 mtu=1420 name=rl-wg0 private-key=\
    "cmwtd2cwLXByaXZhdGUtZHVtbXktbm90LWEta2V5MDA="
/interface list
add comment=defconf name=WAN
add comment=defconf name=LAN
/ip ipsec profile
set [ find default=yes ] dh-group=modp2048 enc-algorithm=aes-256 \
    hash-algorithm=sha256
add dh-group=ecp256 enc-algorithm=aes-256 hash-algorithm=sha256 name=rl-site-b
/ip ipsec peer
add address=198.19.0.2/32 exchange-mode=ike2 local-address=198.18.0.2 name=\
    rl-site-b profile=rl-site-b
/ip ipsec proposal
set [ find default=yes ] enc-algorithms=aes-256-cbc,aes-128-cbc
add auth-algorithms=sha256 enc-algorithms=aes-256-gcm name=rl-site-b \
    pfs-group=ecp256
/ip pool
add name=default-dhcp ranges=198.18.88.10-198.18.88.254
/ip dhcp-server
add address-pool=default-dhcp interface=bridge name=defconf
/port
set 0 name=serial0
/routing table
add disabled=no fib name=rl-via-wg
/interface bridge port
add bridge=bridge comment=defconf ingress-filtering=no interface=ether2 \
    internal-path-cost=10 path-cost=10
add bridge=bridge comment=defconf ingress-filtering=no interface=ether3 \
    internal-path-cost=10 path-cost=10
add bridge=bridge comment=defconf ingress-filtering=no interface=ether8 \
    internal-path-cost=10 path-cost=10
/ip firewall connection tracking
set udp-timeout=10s
/ip neighbor discovery-settings
set discover-interface-list=LAN
/interface list member
add comment=defconf interface=bridge list=LAN
add comment=defconf interface=ether1 list=WAN
add interface=rl-wg0 list=LAN
/interface pptp-server server
# PPTP connections are considered unsafe, it is suggested to use a more modern VPN protocol instead
set authentication=mschap2 enabled=no
/interface wireguard peers
add allowed-address=198.18.200.2/32 comment="rl-laptop \E2\86\92 lab" \
    interface=rl-wg0 preshared-key=\
    "cmwtbGFwdG9wLXBzay1kdW1teS1ub3QtYS1rZXkwMDA=" public-key=\
    "cmwtbGFwdG9wLXB1YmxpYy1kdW1teS1ub3QtYS1rZXk="
add allowed-address=198.19.20.0/24,198.18.200.3/32 endpoint-address=\
    198.19.0.3 endpoint-port=13231 interface=rl-wg0 persistent-keepalive=25s \
    public-key="cmwtc2l0ZS1iLXB1YmxpYy1kdW1teS1ub3QtYS1rZXk="
/ip address
add address=198.18.88.1/24 comment=defconf interface=bridge network=198.18.88.0
add address=198.18.0.2/24 interface=ether1 network=198.18.0.0
add address=198.18.200.1/24 interface=rl-wg0 network=198.18.200.0
/ip dhcp-client
# DHCP client can not run on slave or passthrough interface!
add comment=defconf interface=ether8
/ip dhcp-server network
add address=198.18.88.0/24 comment=defconf dns-server=198.18.88.1 gateway=\
    198.18.88.1
/ip dns
set allow-remote-requests=yes servers=198.18.0.53
/ip firewall filter
add action=accept chain=input comment=\
    "defconf: accept established,related,untracked" connection-state=\
    established,related,untracked
add action=drop chain=input comment="defconf: drop invalid" connection-state=\
    invalid
add action=accept chain=input comment="defconf: accept ICMP" protocol=icmp
add action=accept chain=input comment=\
    "defconf: accept to local loopback (for CAPsMAN)" dst-address=127.0.0.1
add action=accept chain=input comment="routerlab: wireguard" dst-port=13231 \
    protocol=udp
add action=accept chain=input comment="routerlab: IKEv2" dst-port=500,4500 \
    protocol=udp
add action=drop chain=input comment="defconf: drop all not coming from LAN" \
    in-interface-list=!LAN
add action=accept chain=forward comment="defconf: accept in ipsec policy" \
    ipsec-policy=in,ipsec
add action=accept chain=forward comment="defconf: accept out ipsec policy" \
    ipsec-policy=out,ipsec
add action=fasttrack-connection chain=forward comment="defconf: fasttrack" \
    connection-state=established,related hw-offload=yes
add action=accept chain=forward comment=\
    "defconf: accept established,related, untracked" connection-state=\
    established,related,untracked
add action=drop chain=forward comment="defconf: drop invalid" \
    connection-state=invalid
add action=drop chain=forward comment=\
    "defconf: drop all from WAN not DSTNATed" connection-nat-state=!dstnat \
    connection-state=new in-interface-list=WAN
/ip firewall nat
add action=masquerade chain=srcnat comment="defconf: masquerade" ipsec-policy=\
    out,none out-interface-list=WAN
/ip ipsec identity
add peer=rl-site-b secret=dummy-ipsec-psk
/ip ipsec policy
add dst-address=198.19.10.0/24 peer=rl-site-b proposal=rl-site-b src-address=\
    198.18.10.0/24 tunnel=yes
/ip route
add disabled=no distance=1 dst-address=0.0.0.0/0 gateway=198.18.0.1 \
    routing-table=main suppress-hw-offload=no
add disabled=no dst-address=198.19.20.0/24 gateway=rl-wg0 routing-table=\
    rl-via-wg suppress-hw-offload=no
/system clock
set time-zone-name=Asia/Tokyo
/system identity
set name=rl-r5009
/system note
set show-at-login=no
/system script
add dont-require-permissions=no name=rl-wg-report owner=admin policy=\
    ftp,reboot,read,write,policy,test,password,sniff,sensitive,romon source=":\
    local port [/interface/wireguard get rl-wg0 listen-port]\r\
    \n:log info (\"rl-wg0 listens on \" . \$port)\r\
    \n:foreach p in=[/interface/wireguard/peers find] do={ :log info [/interfa\
    ce/wireguard/peers get \$p allowed-address] }"
/tool mac-server
set allowed-interface-list=LAN
/tool mac-server mac-winbox
set allowed-interface-list=LAN
#error exporting "/system/routerboard/mode-button"
