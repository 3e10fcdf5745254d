# jan/02/2024 10:11:12 by RouterOS 6.44.3
# software id = 
#
/interface ethernet
set [ find default-name=ether1 ] comment="lab uplink"
set [ find default-name=ether2 ] comment="PPPoE access (flets-like, MTU 1454)"
/ip pool
add name=rl-pppoe-pool ranges=198.18.100.10-198.18.100.200
/ppp profile
add change-tcp-mss=yes dns-server=198.18.0.53 local-address=198.18.100.1 name=\
    rl-pppoe remote-address=rl-pppoe-pool use-encryption=no
/interface pppoe-server server
add authentication=pap,chap,mschap1,mschap2 default-profile=rl-pppoe disabled=\
    no interface=ether2 keepalive-timeout=60 max-mru=1454 max-mtu=1454 \
    one-session-per-host=yes service-name=rl-flets
/ip address
add address=198.18.0.3/24 interface=ether1 network=198.18.0.0
add address=198.18.100.1/24 interface=ether2 network=198.18.100.0
/ip dhcp-client
add disabled=yes interface=ether1
/ip firewall mangle
add action=change-mss chain=forward comment="routerlab: clamp MSS for PPPoE" \
    new-mss=1414 out-interface=all-ppp passthrough=yes protocol=tcp tcp-flags=\
    syn tcp-mss=1415-65535
add action=change-mss chain=forward in-interface=all-ppp new-mss=1414 \
    passthrough=yes protocol=tcp tcp-flags=syn tcp-mss=1415-65535
/ip firewall nat
add action=masquerade chain=srcnat out-interface=ether1 src-address=\
    198.18.100.0/24
/ip route
add distance=1 gateway=198.18.0.1
/ip service
set telnet disabled=yes
set ftp disabled=yes
set www disabled=yes
set api disabled=yes
set api-ssl disabled=yes
/ppp secret
add name=rl-ppp1 password=dummy-pppoe-password profile=rl-pppoe service=pppoe
add disabled=yes name=rl-ppp2 password="dummy password with spaces" profile=\
    rl-pppoe remote-address=198.18.100.250 service=pppoe
/system identity
set name=rl-chr-pppoe
/system logging
set 0 topics=info,!pppoe
add topics=pppoe,debug
/system logging action
set 0 memory-lines=10000
/system ntp client
set enabled=yes primary-ntp=198.18.0.123
