# 2024-01-02 10:11:12 by RouterOS 7.13.4
# software id = ABCD-1234
#
# model = RB750Gr3
# serial number = HE0C8A1B2C3D
