# 2024-01-02 10:11:12 by RouterOS 7.20.4
# software id = RL72-5009
#
# model = RB5009UG+S+
# serial number = RL0000072050
/interface bridge
add admin-mac=02:52:4C:72:50:09 auto-mac=no comment=defconf name=bridge
add name=loopback
/interface ethernet
set [ find default-name=ether1 ] comment="WAN to lab core"
set [ find default-name=ether8 ] name="ether8 mgmt port"
/interface wireguard
add listen-port=13231 mtu=1420 name=rl-wg0
/interface list
add comment=defconf name=WAN
add comment=defconf name=LAN
/ip pool
add name=default-dhcp ranges=198.18.88.10-198.18.88.254
/ip dhcp-server
add address-pool=default-dhcp interface=bridge name=defconf
/disk settings
set auto-media-interface=bridge auto-media-sharing=yes auto-smb-sharing=yes
/interface bridge port
add bridge=bridge comment=defconf interface=ether2
add bridge=bridge comment=defconf interface=ether3
add bridge=bridge comment=defconf interface=ether4
add bridge=bridge comment=defconf interface=ether5
add bridge=bridge comment=defconf interface=ether6
add bridge=bridge comment=defconf interface=ether7
add bridge=bridge comment=defconf interface=sfp-sfpplus1
/ip neighbor discovery-settings
set discover-interface-list=LAN
/interface list member
add comment=defconf interface=bridge list=LAN
add comment=defconf interface=ether1 list=WAN
add interface=*3D list=LAN
/interface wireguard peers
add allowed-address=198.18.200.2/32 interface=rl-wg0 name="laptop of bench" \
    public-key="cmwtbGFwdG9wLXB1YmxpYy1kdW1teS1ub3QtYS1rZXk="
/ip address
add address=198.18.88.1/24 comment=defconf interface=bridge network=\
    198.18.88.0
add address=198.18.0.5/24 interface=ether1 network=198.18.0.0
add address=198.18.255.5 interface=loopback network=198.18.255.5
add address=198.18.200.1/24 interface=rl-wg0 network=198.18.200.0
add address=198.18.32.1/24 interface="ether8 mgmt port" network=198.18.32.0
/ip dhcp-client
add comment=defconf interface=ether1
/ip dhcp-server network
add address=198.18.88.0/24 comment=defconf dns-server=198.18.88.1 gateway=\
    198.18.88.1
/ip dns
set allow-remote-requests=yes
/ip dns static
add address=198.18.88.1 comment=defconf name=router.lan type=A
/ip firewall filter
add action=accept chain=input comment=\
    "defconf: accept established,related,untracked" connection-state=\
    established,related,untracked
add action=drop chain=input comment="defconf: drop invalid" connection-state=\
    invalid
add action=accept chain=input comment="defconf: accept ICMP" protocol=icmp
add action=accept chain=input comment=\
    "defconf: accept to local loopback (for CAPsMAN)" dst-address=127.0.0.1
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
/ipv6 firewall address-list
add address=::/128 comment="defconf: unspecified address" list=bad_ipv6
add address=::1/128 comment="defconf: lo" list=bad_ipv6
add address=fec0::/10 comment="defconf: site-local" list=bad_ipv6
add address=::ffff:0.0.0.0/96 comment="defconf: ipv4-mapped" list=bad_ipv6
/ipv6 firewall filter
add action=accept chain=input comment=\
    "defconf: accept established,related,untracked" connection-state=\
    established,related,untracked
add action=drop chain=input comment="defconf: drop invalid" connection-state=\
    invalid
add action=accept chain=input comment="defconf: accept ICMPv6" protocol=\
    icmpv6
add action=drop chain=input comment=\
    "defconf: drop everything else not coming from LAN" in-interface-list=\
    !LAN
add action=accept chain=forward comment=\
    "defconf: accept established,related,untracked" connection-state=\
    established,related,untracked
add action=drop chain=forward comment="defconf: drop invalid" \
    connection-state=invalid
add action=drop chain=forward comment=\
    "defconf: drop packets with bad src ipv6" src-address-list=bad_ipv6
add action=drop chain=forward comment=\
    "defconf: drop everything else not coming from LAN" in-interface-list=\
    !LAN
/ip route
add dst-address=198.19.20.0/24 gateway=rl-wg0
/system clock
set time-zone-name=Asia/Tokyo
/system identity
set name="RB5009 bench core"
/system note
set show-at-login=no
/system scheduler
add interval=1h name=ddns on-event=ddns policy=read,write,policy,test \
    start-time=startup
/system script
add dont-require-permissions=no name=ddns owner=admin policy=\
    read,write,policy,test source=":local tToken \"rl-token-dummy-sentinel-720\
    \"\r\
    \n/tool fetch url=(\"https://198.18.0.80/nic/update\?token=\" . \$tToken) \
    keep-result=no"
/tool mac-server
set allowed-interface-list=LAN
/tool mac-server mac-winbox
set allowed-interface-list=LAN
