# 2025-03-04 10:11:12 by RouterOS 7.17.2
# software id = RL7S-CR1P
#
# model = RB750Gr3
# serial number = RL0000000751
/interface bridge
add name=rl-lan
/ppp profile
add name=rl-hook on-up=":local k \"dummy-ppp-hook-key\"; /log info \"rl-hook u\
    p\""
/tool netwatch
add down-script=":global pass \"dummy-netwatch-1234\"\r\
    \n/log warning \"rl-gw down\"" host=198.18.0.1 interval=30s up-script=\
    rl-ddns
/ip address
add address=198.18.75.1/24 interface=rl-lan network=198.18.75.0
/system identity
set name=rl-hex-scripts
/system scheduler
add interval=10m name=rl-ddns-tick on-event="/tool fetch url=\"https://ddns.ex\
    ample/nic/update\?hostname=rl-lab&token=dummy-sched-token-42\" keep-result\
    =no" policy=read,write,test start-time=startup
add interval=1d name=rl-nightly on-event=rl-ddns policy=read,write,test \
    start-time=03:00:00
/system script
add dont-require-permissions=no name=rl-ddns owner=admin policy=\
    read,write,policy,test source=":local tToken \"dummy-tok\
    en-7f3a9c\"\r\
    \n:local tHost \"rl-lab.example\"\r\
    \n/tool fetch url=(\"https://ddns.example/update\?host=\" . \$tHost . \"&t\
    oken=\" . \$tToken) keep-result=no"
