# jan/02/2024 10:11:12 by RouterOS 6.48.6
# software id = RL6B-1100
#
# model = RB1100AHx2
# serial number = RL0000001100
/interface bridge
add name=rl-lan protocol-mode=none
/interface ethernet
set [ find default-name=ether1 ] comment="to iperf client (198.18.1.0/24)"
set [ find default-name=ether2 ] comment="to iperf server (198.18.2.0/24)"
set [ find default-name=ether13 ] disabled=yes
/queue interface
set rl-lan queue=no-queue
/interface vlan
add interface=ether3 name=rl-vlan20 vlan-id=20
/queue interface
set rl-vlan20 queue=no-queue
/interface ethernet switch
set 0 mirror-source=ether6 mirror-target=ether10
/interface ethernet switch port
set 0 vlan-mode=secure
set ether7 default-vlan-id=20 vlan-header=always-strip vlan-mode=secure
/interface wireless security-profiles
set [ find default=yes ] supplicant-identity=MikroTik
/ip pool
add name=rl-ovpn-pool ranges=198.18.50.10-198.18.50.99
/ppp profile
add local-address=198.18.50.1 name=rl-ovpn remote-address=rl-ovpn-pool \
    use-encryption=required
/snmp community
set [ find default=yes ] addresses=198.18.0.0/15 name=dummy-community
#error exporting /interface bridge calea
/interface bridge port
add bridge=rl-lan interface=ether4
add bridge=rl-lan interface=ether5
/interface ovpn-server server
set auth=sha1,md5 certificate=rl-ovpn-server cipher=\
    blowfish128,aes128,aes192,aes256 default-profile=rl-ovpn enabled=yes \
    keepalive-timeout=disabled mac-address=FE:52:4C:00:11:00 max-mtu=1500 \
    mode=ip netmask=24 port=1194 require-client-certificate=no
/ip address
add address=198.18.1.1/24 interface=ether1 network=198.18.1.0
add address=198.18.2.1/24 interface=ether2 network=198.18.2.0
add address=198.18.3.1/24 interface=rl-vlan20 network=198.18.3.0
/ip firewall connection tracking
set enabled=no
/ip firewall filter
add action=accept chain=input comment="routerlab: OpenVPN server" dst-port=\
    1194 protocol=tcp
add action=accept chain=forward comment="routerlab: bench pair" dst-address=\
    198.18.2.0/24 src-address=198.18.1.0/24
add action=accept chain=forward dst-address=198.18.1.0/24 src-address=\
    198.18.2.0/24
add action=drop chain=forward comment="routerlab: everything else" disabled=yes
/ip service
set telnet disabled=yes
set api disabled=yes
/ppp secret
add name=rl-ovpn-user password=dummy-ovpn-password profile=rl-ovpn service=ovpn
/snmp
set contact=lab@example.net enabled=yes location="rack 3" trap-community=\
    dummy-trap-community
/system identity
set name=rl-rb1100
/system routerboard settings
set boot-device=flash-boot cpu-frequency=1066MHz
