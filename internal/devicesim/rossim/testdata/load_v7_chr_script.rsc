# 2024-01-02 10:11:12 by RouterOS 7.13.4
# software id = 
#
/interface list
add name=WAN
/interface list member
add interface=ether1 list=WAN
/ip address
add address=198.18.0.1/24 interface=ether1 network=198.18.0.0
/ip dns
set servers=198.18.0.53,198.18.0.54
/ip firewall filter
add action=drop chain=input comment="lab: drop the WAN" in-interface-list=WAN
/system identity
set name=lab-script
/system scheduler
add interval=5m name=lab-dns-check on-event=lab-dns-check policy=\
    read,write,policy,test start-date=2024-01-02 start-time=10:00:00
/system script
add dont-require-permissions=no name=lab-dns-check owner=admin policy=\
    read,write,policy,test source=":local primary \"198.18.0.53\"\
    \n:local backup \"198.18.0.54\"\
    \n:do {\
    \n    :resolve lab.example server \$primary\
    \n} on-error={\
    \n    :log warning \"lab: primary DNS \$primary does not answer, switching\
    \_to \$backup\"\
    \n    /ip dns set servers=\$backup\
    \n}\
    \n"
