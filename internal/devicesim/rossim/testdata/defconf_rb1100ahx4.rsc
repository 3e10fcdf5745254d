# 2024-01-02 10:11:12 by RouterOS 7.13.4
# software id = ABCD-1234
#
# model = RB1100AHx4
# serial number = HE0C8A1B2C3D
/ip address
add address=198.18.88.1/24 comment=defconf interface=ether1 network=\
    198.18.88.0
