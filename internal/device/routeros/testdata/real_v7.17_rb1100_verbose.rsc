# 2024-01-02 10:11:12 by RouterOS 7.17.2
# software id = RL71-7VRB
#
# model = RB1100x4
# serial number = RL0000071711
/interface bridge
add admin-mac=02:52:4C:71:17:00 ageing-time=5m arp=enabled arp-timeout=auto auto-mac=no comment="lab loopback" dhcp-snooping=no disabled=no fast-forward=yes forward-delay=15s frame-types=admit-all \
    igmp-snooping=no ingress-filtering=yes max-learned-entries=auto max-message-age=20s mtu=auto mvrp=no name=loopback port-cost-mode=long priority=0x8000 protocol-mode=rstp pvid=1 \
    transmit-hold-count=6 vlan-filtering=no
/interface ethernet
set [ find default-name=ether1 ] advertise=10M-baseT-half,10M-baseT-full,100M-baseT-half,100M-baseT-full,1G-baseT-half,1G-baseT-full arp=enabled arp-timeout=auto auto-negotiation=yes cable-settings=\
    default comment="uplink to lab core" disable-running-check=yes disabled=no l2mtu=1592 loop-protect=default loop-protect-disable-time=5m loop-protect-send-interval=5s mac-address=02:52:4C:71:17:01 \
    mtu=1500 name=ether1 orig-mac-address=02:52:4C:71:17:01 rx-flow-control=off tx-flow-control=off
set [ find default-name=ether2 ] advertise=10M-baseT-half,10M-baseT-full,100M-baseT-half,100M-baseT-full,1G-baseT-half,1G-baseT-full arp=enabled arp-timeout=auto auto-negotiation=yes cable-settings=\
    default disable-running-check=yes disabled=no l2mtu=1592 loop-protect=default loop-protect-disable-time=5m loop-protect-send-interval=5s mac-address=02:52:4C:71:17:02 mtu=1500 name=\
    "ether2 bench a" orig-mac-address=02:52:4C:71:17:02 rx-flow-control=off tx-flow-control=off
/interface list
set [ find name=all ] comment="contains all interfaces" exclude="" include="" name=all
set [ find name=none ] comment="contains no interfaces" exclude="" include="" name=none
set [ find name=dynamic ] comment="contains dynamic interfaces" exclude="" include="" name=dynamic
set [ find name=static ] comment="contains static interfaces" exclude="" include="" name=static
add exclude="" include="" name=VPN
/ip ipsec mode-config
set [ find default=yes ] name=request-only responder=no use-responder-dns=exclusively
/ip ipsec policy group
set [ find default=yes ] name=default
/ip ipsec profile
set [ find default=yes ] dh-group=modp2048,modp1024 dpd-interval=8s dpd-maximum-failures=4 enc-algorithm=aes-128,3des hash-algorithm=sha1 lifetime=1d name=default nat-traversal=yes proposal-check=\
    obey
/ip ipsec proposal
set [ find default=yes ] auth-algorithms=sha1 disabled=no enc-algorithms=aes-256-cbc,aes-192-cbc,aes-128-cbc lifetime=30m name=default pfs-group=modp1024
/ip pool
add name=rl-ovpn-pool ranges=198.18.70.10-198.18.70.99
/ppp profile
set *0 address-list="" !bridge !bridge-horizon bridge-learning=default !bridge-path-cost !bridge-port-priority !bridge-port-trusted !bridge-port-vid change-tcp-mss=yes !dns-server !idle-timeout \
    !incoming-filter !insert-queue-before !interface-list !local-address name=default on-down="" on-up="" only-one=default !outgoing-filter !parent-queue !queue-type !rate-limit !remote-address \
    !session-timeout use-compression=default use-encryption=default use-ipv6=yes use-mpls=default use-upnp=default !wins-server
add address-list="" !bridge !bridge-horizon bridge-learning=default !bridge-path-cost !bridge-port-priority !bridge-port-trusted !bridge-port-vid change-tcp-mss=yes comment=routerlab:ovpn !dns-server \
    !idle-timeout !incoming-filter !insert-queue-before !interface-list local-address=198.18.70.1 name=rl-ovpn on-down="" on-up="" only-one=default !outgoing-filter !parent-queue !queue-type \
    !rate-limit remote-address=rl-ovpn-pool !session-timeout use-compression=default use-encryption=default use-ipv6=yes use-mpls=default use-upnp=default !wins-server
set *FFFFFFFE address-list="" !bridge !bridge-horizon bridge-learning=default !bridge-path-cost !bridge-port-priority !bridge-port-trusted !bridge-port-vid change-tcp-mss=yes !dns-server \
    !idle-timeout !incoming-filter !insert-queue-before !interface-list !local-address name=default-encryption on-down="" on-up="" only-one=default !outgoing-filter !parent-queue !queue-type \
    !rate-limit !remote-address !session-timeout use-compression=default use-encryption=yes use-ipv6=yes use-mpls=default use-upnp=default !wins-server
/interface ovpn-server server
add auth=sha1,md5 certificate=none cipher=blowfish128,aes128-cbc default-profile=default disabled=yes enable-tun-ipv6=no ipv6-prefix-len=64 keepalive-timeout=60 mac-address=FE:52:4C:71:17:10 max-mtu=\
    1500 mode=ip name=ovpn-server1 netmask=24 port=1194 protocol=tcp push-routes="" redirect-gateway=disabled reneg-sec=3600 require-client-certificate=no tls-version=any tun-server-ipv6=:: \
    user-auth-method=pap vrf=main
add auth=sha1 certificate=cert1 cipher=aes128-cbc comment=routerlab:ovpn default-profile=rl-ovpn disabled=no enable-tun-ipv6=no ipv6-prefix-len=64 keepalive-timeout=60 mac-address=FE:52:4C:71:17:11 \
    max-mtu=1500 mode=ip name=rl-ovpn netmask=24 port=1195 protocol=tcp push-routes="" redirect-gateway=disabled reneg-sec=3600 require-client-certificate=no tls-version=any tun-server-ipv6=:: \
    user-auth-method=pap vrf=main
/ip firewall connection tracking
set enabled=no generic-timeout=10m icmp-timeout=10s loose-tcp-tracking=yes tcp-close-timeout=10s tcp-close-wait-timeout=10s tcp-established-timeout=1d tcp-fin-wait-timeout=10s tcp-last-ack-timeout=\
    10s tcp-max-retrans-timeout=5m tcp-syn-received-timeout=5s tcp-syn-sent-timeout=5s tcp-time-wait-timeout=10s tcp-unacked-timeout=5m udp-stream-timeout=3m udp-timeout=30s
/ip settings
set accept-redirects=no accept-source-route=no allow-fast-path=yes arp-timeout=30s icmp-errors-use-inbound-interface-address=no icmp-rate-limit=10 icmp-rate-mask=0x1818 ip-forward=yes \
    ipv4-multipath-hash-policy=l3 max-neighbor-entries=16384 rp-filter=no secure-redirects=yes send-redirects=yes tcp-syncookies=no tcp-timestamps=random-offset
/interface list member
add disabled=no interface=*3D list=VPN
/ip address
add address=198.18.0.7/24 comment="" disabled=no interface=ether1 network=198.18.0.0
add address=198.18.255.7 comment="" disabled=no interface=loopback network=198.18.255.7
add address=198.18.71.1/24 comment="" disabled=no interface="ether2 bench a" network=198.18.71.0
/ip firewall filter
add action=accept chain=input comment="routerlab: OpenVPN" !connection-bytes !connection-limit !connection-mark !connection-nat-state !connection-rate !connection-state !connection-type !content \
    disabled=no !dscp !dst-address !dst-address-list !dst-address-type !dst-limit dst-port=1195 !fragment !hotspot !icmp-options !in-bridge-port !in-bridge-port-list !in-interface !in-interface-list \
    !ingress-priority !ipsec-policy !ipv4-options !layer7-protocol !limit log=no log-prefix="" !nth !out-bridge-port !out-bridge-port-list !out-interface !out-interface-list !packet-mark !packet-size \
    !per-connection-classifier !port !priority protocol=tcp !psd !random !routing-mark !src-address !src-address-list !src-address-type !src-mac-address !src-port !tcp-flags !tcp-mss !time !tls-host \
    !ttl
/ip route
add comment="" disabled=no distance=1 dst-address=0.0.0.0/0 gateway=198.18.0.1 !pref-src routing-table=main scope=30 suppress-hw-offload=no target-scope=10
/ppp secret
add caller-id="" comment=routerlab:ovpn disabled=no ipv6-routes="" limit-bytes-in=0 limit-bytes-out=0 !local-address name=pc1 profile=rl-ovpn remote-address=198.18.70.2 routes="" service=ovpn
/system identity
set name="RB1100 ovpn bench"
/system scheduler
add comment="" disabled=no interval=1d name=cert-renew on-event="/tool fetch url=\"https://198.18.0.80/cert\?token=rl-token-dummy-sentinel-717\" dst-path=cert1.pem" policy=\
    ftp,reboot,read,write,policy,test,password,sniff,sensitive,romon start-date=2025-01-01 start-time=02:00:00
