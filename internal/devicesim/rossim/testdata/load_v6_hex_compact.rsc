# jan/02/2024 10:11:12 by RouterOS 6.49.10
# software id = ABCD-1234
#
# model = RB750Gr3
# serial number = HE0C8A1B2C3D
/interface bridge
add comment="lab LAN" name=bridge-lab
/interface ethernet
set [ find default-name=ether1 ] advertise=\
    10M-half,10M-full,100M-half,100M-full,1000M-half,1000M-full comment=\
    "uplink, rack 2"
set [ find default-name=ether5 ] disabled=yes poe-out=off
/interface vlan
add interface=bridge-lab name=vlan-lab vlan-id=18
/interface list
add name=WAN
add name=LAN
/ip pool
add name=lab-dhcp ranges=198.18.100.10-198.18.100.200
/ip dhcp-server
add address-pool=lab-dhcp disabled=no interface=bridge-lab name=lab
/interface bridge port
add bridge=bridge-lab interface=ether2
add bridge=bridge-lab interface=ether3
/ip neighbor discovery-settings
set discover-interface-list=LAN
/interface list member
add interface=ether1 list=WAN
add interface=bridge-lab list=LAN
/ip address
add address=198.18.0.1/24 interface=ether1 network=198.18.0.0
add address=198.18.100.1/24 interface=bridge-lab network=198.18.100.0
add address=198.18.18.1/24 interface=vlan-lab network=198.18.18.0
/ip cloud
set ddns-enabled=yes
/ip dhcp-client
add !dhcp-options disabled=no interface=ether4
/ip dhcp-server lease
add address=198.18.100.50 mac-address=02:00:5E:10:00:01 server=lab
/ip dhcp-server network
add address=198.18.100.0/24 dns-server=198.18.100.1 gateway=198.18.100.1
/ip dns
set allow-remote-requests=yes servers=198.18.0.53
/ip firewall address-list
add address=198.19.0.0/16 list=lab-peers
/ip firewall filter
add action=accept chain=input connection-state=established,related
add action=accept chain=input src-address-list=lab-peers
add action=drop chain=input in-interface-list=WAN
/ip firewall nat
add action=masquerade chain=srcnat out-interface-list=WAN
/ip route
add distance=1 gateway=198.18.0.254
/ip service
set telnet disabled=yes
set ftp disabled=yes
set www address=198.18.100.0/24
/snmp
set enabled=yes
/system clock
set time-zone-name=Europe/Riga
/system identity
set name=lab-v6
/system ntp client
set enabled=yes primary-ntp=198.18.0.123
/tool mac-server
set allowed-interface-list=LAN
/tool mac-server mac-winbox
set allowed-interface-list=LAN
