# jan/02/2024 10:11:12 by RouterOS 6.49.10
# software id = RL6H-EX00
#
# model = RB750Gr3
# serial number = RL0000000750
/interface bridge
add admin-mac=02:52:4C:00:07:50 arp=proxy-arp auto-mac=no comment=defconf \
    name=bridge protocol-mode=none
/interface ethernet
set [ find default-name=ether1 ] comment=rl-uplink
set [ find default-name=ether5 ] disabled=yes
/interface list
add comment=defconf name=WAN
add comment=defconf name=LAN
/interface wireless security-profiles
set [ find default=yes ] supplicant-identity=MikroTik
/ip pool
add name=default-dhcp ranges=198.18.88.10-198.18.88.254
/ip dhcp-server
add address-pool=default-dhcp disabled=no interface=bridge name=defconf
/ppp profile
add bridge=bridge change-tcp-mss=yes local-address=198.18.100.1 name=\
    rl-l2tp-profile remote-address=dhcp use-encryption=yes
/interface bridge port
add bridge=bridge comment=defconf interface=ether2
add bridge=bridge comment=defconf interface=ether3
add bridge=bridge comment=defconf interface=ether4
/ip neighbor discovery-settings
set discover-interface-list=LAN
/interface l2tp-server server
set default-profile=rl-l2tp-profile enabled=yes ipsec-secret=dummy-l2tp-psk \
    max-mru=1350 max-mtu=1350 use-ipsec=yes
/interface list member
add comment=defconf interface=bridge list=LAN
add comment=defconf interface=ether1 list=WAN
/ip address
add address=198.18.88.1/24 comment=defconf interface=bridge network=198.18.88.0
add address=198.18.0.2/24 interface=ether1 network=198.18.0.0
/ip dhcp-server network
add address=198.18.88.0/24 comment=defconf gateway=198.18.88.1
/ip dns
set allow-remote-requests=yes servers=198.18.0.53
/ip dns static
add address=198.18.88.1 comment=defconf name=router.lan
/ip firewall filter
add action=accept chain=input comment=\
    "defconf: accept established,related,untracked" connection-state=\
    established,related,untracked
add action=drop chain=input comment="defconf: drop invalid" connection-state=\
    invalid
add action=accept chain=input comment="defconf: accept ICMP" protocol=icmp
add action=accept chain=input comment=\
    "routerlab: L2TP/IPsec (IKE, L2TP, NAT-T)" dst-port=500,1701,4500 \
    protocol=udp
add action=accept chain=input comment="routerlab: ESP" protocol=ipsec-esp
add action=drop chain=input comment="defconf: drop all not coming from LAN" \
    in-interface-list=!LAN
add action=fasttrack-connection chain=forward comment="defconf: fasttrack" \
    connection-state=established,related disabled=yes
add action=drop chain=forward comment=\
    "defconf: drop all from WAN not DSTNATed" connection-nat-state=!dstnat \
    connection-state=new in-interface-list=WAN
/ip firewall nat
add action=masquerade chain=srcnat comment="defconf: masquerade" ipsec-policy=\
    out,none out-interface-list=WAN
/ip route
add distance=1 gateway=198.18.0.1
/ppp secret
add name=rl-ppp1 password=dummy-ppp-password profile=rl-l2tp-profile service=\
    l2tp
/system clock
set time-zone-name=Asia/Tokyo
/system identity
set name=rl-hex-l2tp
/system scheduler
add interval=1d name=rl-nightly on-event=rl-nightly policy=\
    ftp,reboot,read,write,policy,test,password,sniff,sensitive,romon \
    start-date=jan/01/2024 start-time=03:00:00
/system script
add comment="\E3\83\86\E3\82\B9\E3\83\88 (routerlab) why\? nightly" \
    dont-require-permissions=no name=rl-nightly owner=admin policy=\
    ftp,reboot,read,write,policy,test,password,sniff,sensitive,romon source="/\
    system backup save name=rl-nightly\r\
    \n/export file=rl-nightly\r\
    \n:log info \"routerlab backup done at \$[/system clock get time]\"\r\
    \n/tool fetch upload=yes mode=ftp user=rl password=dummy-ftp-password src-\
    path=rl-nightly.rsc address=198.18.0.20"
/tool mac-server
set allowed-interface-list=LAN
/tool mac-server mac-winbox
set allowed-interface-list=LAN
