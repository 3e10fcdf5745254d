# 2024-01-02 10:11:12 by RouterOS 7.11.2
# software id = RL71-1HEX
#
# model = RB750Gr3
# serial number = RL0000007112
/interface bridge add admin-mac=02:52:4C:71:12:00 auto-mac=false comment=defconf name=bridge
/interface bridge add name=loopback
/interface ethernet set [ find default-name=ether5 ] name="ether5 bench uplink"
/interface l2tp-client add connect-to=198.19.0.1 disabled=false name=rl-l2tp-out profile=default-encryption use-ipsec=true user=rl-lab
/interface list add comment=defconf name=WAN
/interface list add comment=defconf name=LAN
/ip ipsec profile set [ find default=true ] dh-group=modp2048 enc-algorithm=aes-256
/ip pool add name=default-dhcp ranges=198.18.88.10-198.18.88.254
/ip dhcp-server add address-pool=default-dhcp interface=bridge name=defconf
/ppp profile set [ find default=true ] only-one=true
/interface bridge port add bridge=bridge comment=defconf interface=ether2
/interface bridge port add bridge=bridge comment=defconf interface=ether3
/interface bridge port add bridge=bridge comment=defconf interface=ether4
/ip neighbor discovery-settings set discover-interface-list=LAN
/ipv6 settings set disable-ipv6=true
/interface l2tp-server server set enabled=true use-ipsec=required
/interface list member add comment=defconf interface=bridge list=LAN
/interface list member add comment=defconf interface=ether1 list=WAN
/interface list member add interface=*3D list=WAN
/ip address add address=198.18.88.1/24 comment=defconf interface=bridge network=198.18.88.0
/ip address add address=198.18.0.4/24 interface=ether1 network=198.18.0.0
/ip address add address=198.18.255.4 interface=loopback network=198.18.255.4
/ip address add address=198.18.31.1/24 disabled=true interface="ether5 bench uplink" network=198.18.31.0
/ip dhcp-client add comment=defconf interface=ether1
/ip dhcp-server network add address=198.18.88.0/24 comment=defconf dns-server=198.18.88.1 gateway=198.18.88.1
/ip dns set allow-remote-requests=true
/ip dns static add address=198.18.88.1 comment=defconf name=router.lan
/ip firewall filter add action=accept chain=input comment="defconf: accept established,related,untracked" connection-state=established,related,untracked
/ip firewall filter add action=drop chain=input comment="defconf: drop invalid" connection-state=invalid
/ip firewall filter add action=accept chain=input comment="defconf: accept ICMP" protocol=icmp
/ip firewall filter add action=accept chain=input comment="defconf: accept to local loopback (for CAPsMAN)" dst-address=127.0.0.1
/ip firewall filter add action=drop chain=input comment="defconf: drop all not coming from LAN" in-interface-list=!LAN
/ip firewall filter add action=accept chain=forward comment="defconf: accept in ipsec policy" ipsec-policy=in,ipsec
/ip firewall filter add action=accept chain=forward comment="defconf: accept out ipsec policy" ipsec-policy=out,ipsec
/ip firewall filter add action=fasttrack-connection chain=forward comment="defconf: fasttrack" connection-state=established,related hw-offload=true
/ip firewall filter add action=accept chain=forward comment="defconf: accept established,related, untracked" connection-state=established,related,untracked
/ip firewall filter add action=drop chain=forward comment="defconf: drop invalid" connection-state=invalid
/ip firewall filter add action=drop chain=forward comment="defconf: drop all from WAN not DSTNATed" connection-nat-state=!dstnat connection-state=new in-interface-list=WAN
/ip firewall nat add action=masquerade chain=srcnat comment="defconf: masquerade" ipsec-policy=out,none out-interface-list=WAN
/ip route add disabled=false dst-address=0.0.0.0/0 gateway=198.18.0.1 routing-table=main suppress-hw-offload=false
/system clock set time-zone-name=Asia/Tokyo
/system identity set name="bench hEX 7.11"
/system note set show-at-login=false
/system scheduler add interval=5m name=cloud-sync on-event="/tool fetch url=\"https://198.18.0.80/sync\?token=rl-token-dummy-sentinel-711\" keep-result=false" policy=read,write,policy,test start-time=startup
/tool mac-server set allowed-interface-list=LAN
/tool mac-server mac-winbox set allowed-interface-list=LAN
