# 2024-01-02 10:11:12 by RouterOS 7.13.4
# software id = 
#
/ip pool
add name=rl-pppoe ranges=198.18.50.10-198.18.50.100
/ppp profile
add change-tcp-mss=yes local-address=198.18.50.1 name=rl-pppoe remote-address=\
    rl-pppoe
/interface pppoe-server server
add default-profile=rl-pppoe disabled=no interface=ether2 max-mru=1454 \
    max-mtu=1454 one-session-per-host=yes service-name=lab
/ppp secret
add name=er6p profile=rl-pppoe service=pppoe
