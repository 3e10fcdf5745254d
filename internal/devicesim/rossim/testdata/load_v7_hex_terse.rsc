# 2024-01-02 10:11:12 by RouterOS 7.13.4
# software id = ABCD-1234
#
# model = RB750Gr3
# serial number = HE0C8A1B2C3D
/interface bridge add admin-mac=48:8F:5A:C0:18:02 auto-mac=no comment=defconf name=bridge port-cost-mode=short
/interface wireguard add listen-port=51820 mtu=1420 name=wg-lab
/interface list add comment=defconf name=WAN
/interface list add comment=defconf name=LAN
/ip pool add name=default-dhcp ranges=198.18.88.10-198.18.88.254
/ip dhcp-server add address-pool=default-dhcp interface=bridge lease-time=10m name=defconf
/port set 0 name=serial0
/interface bridge port add bridge=bridge comment=defconf interface=ether2
/interface bridge port add bridge=bridge comment=defconf interface=ether3
/ip neighbor discovery-settings set discover-interface-list=LAN
/ip settings set max-neighbor-entries=8192
/interface list member add comment=defconf interface=bridge list=LAN
/interface list member add comment=defconf interface=ether1 list=WAN
/interface wireguard peers add allowed-address=198.19.200.0/24 endpoint-address=198.19.0.2 endpoint-port=51820 interface=wg-lab name=peer1 public-key="cm91dGVybGFiIGxhYiB3aXJlZ3VhcmQgcGVlciBrZXk="
/ip address add address=198.18.88.1/24 comment=defconf interface=bridge network=198.18.88.0
/ip address add address=198.18.250.1/30 interface=wg-lab network=198.18.250.0
/ip dhcp-client add comment=defconf interface=ether1
/ip dhcp-server network add address=198.18.88.0/24 comment=defconf dns-server=198.18.88.1 gateway=198.18.88.1
/ip dns set allow-remote-requests=yes
/ip dns static add address=198.18.88.1 comment=defconf name=router.lan
/ip firewall filter add action=accept chain=input comment="defconf: accept established,related,untracked" connection-state=established,related,untracked
/ip firewall filter add action=accept chain=input comment="lab: wireguard" dst-port=51820 protocol=udp
/ip firewall filter add action=drop chain=input comment="defconf: drop all not coming from LAN" in-interface-list=!LAN
/ip firewall nat add action=masquerade chain=srcnat comment="defconf: masquerade" ipsec-policy=out,none out-interface-list=WAN
/ip route add disabled=no distance=1 dst-address=198.18.200.0/24 gateway=198.18.250.2 routing-table=main suppress-hw-offload=no
/ipv6 firewall filter add action=drop chain=input comment="defconf: drop everything else not coming from LAN" in-interface-list=!LAN
/system clock set time-zone-name=Europe/Riga
/system identity set name=lab-v7
/system note set show-at-login=no
/tool mac-server set allowed-interface-list=LAN
