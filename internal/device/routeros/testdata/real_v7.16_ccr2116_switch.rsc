# 2024-01-02 10:11:12 by RouterOS 7.16.2
# software id = RL71-6CCR
#
# model = CCR2116-12G-4S+
# serial number = RL0000071622
/interface bridge
add name=loopback
add name="core bridge" vlan-filtering=yes
/interface ethernet
set [ find default-name=ether1 ] comment="uplink A"
set [ find default-name=ether2 ] comment="uplink B"
set [ find default-name=sfp-sfpplus1 ] name="sfp1 to bench"
/interface ethernet switch
set 0 l3-hw-offloading=yes
/interface bridge port
add bridge="core bridge" interface=ether3
add bridge="core bridge" interface=ether4
add bridge="core bridge" interface=*3D
/ip address
add address=198.18.0.6/24 interface=ether1 network=198.18.0.0
add address=198.18.255.6 interface=loopback network=198.18.255.6
add address=198.18.253.1 interface=ether2 network=198.18.253.2
add address=198.18.40.1/24 interface="core bridge" network=198.18.40.0
add address=198.18.41.1/24 interface="sfp1 to bench" network=198.18.41.0
/ip firewall filter
add action=accept chain=input connection-state=established,related
add action=accept chain=input in-interface="core bridge"
add action=drop chain=input in-interface=ether1
/ip route
add dst-address=0.0.0.0/0 gateway=198.18.0.1
add dst-address=198.19.0.0/16 gateway=198.18.253.2
/ip service
set telnet disabled=yes
set ftp disabled=yes
/snmp
set enabled=yes trap-community=rl-lab
/system identity
set name="CCR2116 lab core"
/system scheduler
add interval=1d name=backup on-event=\
    "/system backup save name=nightly password=dummy-sentinel-backup" policy=\
    read,write,policy,test,sensitive start-time=03:00:00
/tool netwatch
add down-script=":log warning \"uplink B down\"" host=198.18.253.2 interval=\
    10s type=simple
