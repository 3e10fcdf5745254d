# jan/02/2024 10:11:12 by RouterOS 6.44.6
# software id = RL64-4HEX
#
# model = RB750Gr3
# serial number = RL0000006446
/interface bridge
add admin-mac=02:52:4C:64:44:06 auto-mac=no comment=defconf name=bridge
add name=loopback
/interface ethernet
set [ find default-name=ether1 ] comment="uplink to lab core"
set [ find default-name=ether5 ] name="ether5 to bench"
/interface list
add comment=defconf name=WAN
add comment=defconf name=LAN
/interface wireless security-profiles
set [ find default=yes ] supplicant-identity=MikroTik
/ip ipsec profile
set [ find default=yes ] dh-group=modp2048 enc-algorithm=aes-256
/ip ipsec proposal
set [ find default=yes ] enc-algorithms=aes-256-cbc pfs-group=modp2048
/ip pool
add name=default-dhcp ranges=198.18.88.10-198.18.88.254
/ip dhcp-server
add address-pool=default-dhcp disabled=no interface=bridge name=defconf
/interface bridge port
add bridge=bridge comment=defconf interface=ether2
add bridge=bridge comment=defconf interface=ether3
add bridge=bridge comment=defconf interface=ether4
/ip neighbor discovery-settings
set discover-interface-list=LAN
/interface list member
add comment=defconf interface=bridge list=LAN
add comment=defconf interface=ether1 list=WAN
add interface=*3D list=LAN
/ip address
add address=198.18.88.1/24 comment=defconf interface=bridge network=\
    198.18.88.0
add address=198.18.0.2/24 interface=ether1 network=198.18.0.0
add address=198.18.255.1 interface=loopback network=198.18.255.1
add address=198.18.30.1/24 interface="ether5 to bench" network=198.18.30.0
/ip dhcp-client
add comment=defconf dhcp-options=hostname,clientid disabled=yes interface=\
    ether1
/ip dhcp-server network
add address=198.18.88.0/24 comment=defconf gateway=198.18.88.1
/ip dns
set allow-remote-requests=yes servers=198.18.0.53
/ip dns static
add address=198.18.88.1 name=router.lan
/ip firewall filter
add action=accept chain=input comment=\
    "defconf: accept established,related,untracked" connection-state=\
    established,related,untracked
add action=drop chain=input comment="defconf: drop invalid" connection-state=\
    invalid
add action=accept chain=input comment="defconf: accept ICMP" protocol=icmp
add action=drop chain=input comment="defconf: drop all not coming from LAN" \
    in-interface-list=!LAN
add action=accept chain=forward comment="defconf: accept in ipsec policy" \
    ipsec-policy=in,ipsec
add action=accept chain=forward comment="defconf: accept out ipsec policy" \
    ipsec-policy=out,ipsec
add action=fasttrack-connection chain=forward comment="defconf: fasttrack" \
    connection-state=established,related
add action=accept chain=forward comment=\
    "defconf: accept established,related, untracked" connection-state=\
    established,related,untracked
add action=drop chain=forward comment="defconf: drop invalid" \
    connection-state=invalid
add action=drop chain=forward comment=\
    "defconf:  drop all from WAN not DSTNATed" connection-nat-state=!dstnat \
    connection-state=new in-interface-list=WAN
/ip firewall nat
add action=masquerade chain=srcnat comment="defconf: masquerade" ipsec-policy=\
    out,none out-interface-list=WAN
/ip route
add distance=1 gateway=198.18.0.1
/system clock
set time-zone-name=Asia/Tokyo
/system identity
set name="lab edge hEX"
/system scheduler
add interval=10m name=ddns-update on-event=ddns-update policy=\
    read,write,policy,test start-date=jan/02/2024 start-time=00:00:00
add interval=1d name=report on-event="/tool fetch url=\"https://198.18.0.80/re\
    port\?token=rl-token-dummy-sentinel-sched\" keep-result=no" policy=\
    read,write,policy,test start-date=jan/02/2024 start-time=04:00:00
/system script
add dont-require-permissions=no name=ddns-update owner=admin policy=\
    read,write,policy,test source=":local tToken \"rl-token-dummy-sentinel-scr\
    ipt\"\r\
    \n:local ip [/ip address get [find interface=ether1] address]\r\
    \n/tool fetch url=(\"https://198.18.0.80/update\?token=\" . \$tToken . \"&\
    ip=\" . \$ip) keep-result=no"
/tool mac-server
set allowed-interface-list=LAN
/tool mac-server mac-winbox
set allowed-interface-list=LAN
