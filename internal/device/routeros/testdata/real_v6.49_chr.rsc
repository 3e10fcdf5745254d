# jan/02/2024 10:11:12 by RouterOS 6.49.10
# software id = 
#
#
#
/interface bridge
add name=loopback
/interface ethernet
set [ find default-name=ether1 ] comment="lab uplink"
set [ find default-name=ether2 ] name="ether2 access"
/ip pool
add name=rl-pppoe-pool ranges=198.18.100.10-198.18.100.200
/ppp profile
add change-tcp-mss=yes dns-server=198.18.0.53 local-address=198.18.100.1 name=\
    rl-pppoe remote-address=rl-pppoe-pool use-encryption=no
/interface pppoe-server server
add authentication=pap,chap,mschap1,mschap2 default-profile=rl-pppoe disabled=\
    no interface="ether2 access" keepalive-timeout=60 max-mru=1454 max-mtu=\
    1454 one-session-per-host=yes service-name=rl-flets
/ip address
add address=198.18.0.3/24 interface=ether1 network=198.18.0.0
add address=198.18.100.1/24 interface="ether2 access" network=198.18.100.0
add address=198.18.255.3 interface=loopback network=198.18.255.3
add address=198.18.254.1 interface=ether3 network=198.18.254.2
/ip dhcp-client
add disabled=no interface=ether1
/ip firewall filter
add action=accept chain=input in-interface=*3D protocol=gre
/ip firewall mangle
add action=change-mss chain=forward new-mss=1414 out-interface=all-ppp \
    passthrough=yes protocol=tcp tcp-flags=syn tcp-mss=1415-65535
/ip firewall nat
add action=masquerade chain=srcnat out-interface=ether1 src-address=\
    198.18.100.0/24
/ip route
add distance=1 gateway=198.18.0.1
add distance=1 dst-address=198.19.0.0/16 gateway=198.18.254.2
/ip service
set telnet disabled=yes
set ftp disabled=yes
set www disabled=yes
set api disabled=yes
set api-ssl disabled=yes
/ppp secret
add name=rl-ppp1 password=dummy-sentinel-ppp1 profile=rl-pppoe service=pppoe
add disabled=yes name="rl ppp 2" password="dummy-sentinel ppp2" profile=\
    rl-pppoe remote-address=198.18.100.250 service=pppoe
/system identity
set name="bench chr 1"
/system logging
set 0 topics=info,!pppoe
add topics=pppoe,debug
/system ntp client
set enabled=yes primary-ntp=198.18.0.123
/system script
add dont-require-permissions=no name=notify owner=admin policy=\
    read,write,test source=":global pass \"dummy-sentinel-smtp\"\r\
    \n/tool e-mail send server=198.18.0.25 user=rl password=\$pass to=\"lab@ex\
    ample.invalid\" subject=\"chr down\""
/tool netwatch
add down-script="/tool e-mail send server=198.18.0.25 user=rl password=dummy-s\
    entinel-netwatch to=lab@example.invalid subject=\"core down\"" host=\
    198.18.0.1 interval=30s
