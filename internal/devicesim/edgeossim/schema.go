package edgeossim

// schemaLines is the configuration schema the simulator accepts: the paths
// routerlab manages plus the ones a factory-default EdgeRouter carries.
// It is data, one path per line, so that adding a path is one line:
//
//	word        a fixed node name
//	<kind>      a tag value of that kind (an interface, a rule number...)
//	=kind       the leaf's value (single-value node)
//	+=kind      the leaf's values (multi-value node: each set adds one)
//	(nothing)   a valueless leaf ("disable", "interfaces loopback lo")
//
// A line may start with "edgeos:" or "vyos:" to exist in one flavour only,
// or with "edgeos+wireguard:" to exist on an EdgeRouter with the WireGuard
// package installed (Options.WireGuard); several, comma-separated
// ("edgeos,vyos@1.3:"), put it in each. A line starting with "#" is a
// comment: the source of the group of lines below it.
// The DHCP server paths here are EdgeOS's only: VyOS writes a scope's
// range as `subnet <net> range <n> start|stop <ip>` and its authoritative
// flag valueless, not EdgeOS's `start <ip> stop <ip>`, so a VyOS router
// refuses EdgeOS's lines; VyOS's DHCP paths, per release, are in
// schema_foreign.go.
//
// Releases ("vyos@1.3", "vyos@1.4+": see schemaLineFor). Sources are
// vyos/vyos-1x's interface-definitions on the release branches equuleus
// (1.3, tag 1.3.8), sagitta (1.4, tag 1.4.0) and circinus (1.5):
//   - WireGuard: 1.3's interfaces-wireguard.xml.in has `private-key` as
//     the NAME of a key pair (default "default", completion from
//     `wireguard.py --listkdir`; the conf script reads
//     /config/auth/wireguard/<name>/private.key, made by `generate
//     wireguard default-keypair|named-keypairs`), `peer <name> pubkey`
//     and no peer description; 1.4's and 1.5's interfaces_wireguard.xml.in
//     have `private-key` as the base64 key itself, `peer <name>
//     public-key` and `peer <name> description`.
//   - Login: VyOS 1.3 to 1.5 have no `system login user <name> level`
//     (equuleus system-login.xml.in, sagitta system_login.xml.in).
//   - NTP: 1.3's ntp.xml.in is `system ntp server <name>`; 1.4 and 1.5
//     have service_ntp.xml.in's `service ntp` (sagitta migration
//     ntp/1-to-2 moves it) with `allow-client address`.
//   - Interface routes: 1.3 has no protocols static in vyos-1x (still
//     vyatta-cfg-quagga's templates): `protocols static interface-route
//     <net> next-hop-interface <if>` as 1.3.8's smoketest/configs print
//     it (bgp-azure-ipsec-gateway); 1.4 and 1.5 have protocols_static.xml.in's
//     `route <net> interface <if>` (sagitta's migration quagga/8-to-9
//     turns interface-route into it).
//
// Value kinds are defined in kinds.go. Paths not listed fail at `set` time,
// as on the device ("Configuration path: [...] is not valid").
var schemaLines = `
system host-name =hostname
system domain-name =text
system time-zone =text
system name-server +=ip
edgeos: system ntp server <text>
vyos@1.3: system ntp server <text>
edgeos: system login user <username> level =admin|operator
system login user <username> authentication encrypted-password =text
system login user <username> authentication plaintext-password =text
system syslog global facility <text> level =text
edgeos: system analytics-handler send-analytics-report =true|false
edgeos: system crash-handler send-crash-report =true|false
edgeos: system offload ipv4 forwarding =enable|disable
edgeos: system offload ipv4 pppoe =enable|disable
edgeos: system offload ipv4 vlan =enable|disable
edgeos: system offload ipv4 gre =enable|disable
edgeos: system offload ipv4 bonding =enable|disable
edgeos: system offload ipv6 forwarding =enable|disable
edgeos: system offload ipv6 pppoe =enable|disable
edgeos: system offload ipv6 vlan =enable|disable
edgeos: system offload ipv6 bonding =enable|disable
edgeos: system offload ipsec =enable|disable
edgeos: system offload hwnat =enable|disable

interfaces loopback <lo>
interfaces loopback <lo> address +=cidr
interfaces ethernet <ethif> address +=ifaddr
interfaces ethernet <ethif> description =text
interfaces ethernet <ethif> mtu =mtu
interfaces ethernet <ethif> duplex =auto|half|full
interfaces ethernet <ethif> speed =auto|10|100|1000|10000
interfaces ethernet <ethif> disable
vyos: interfaces ethernet <ethif> hw-id =text
edgeos: interfaces ethernet <ethif> poe output =off|24v|48v|54v|pthru
edgeos: interfaces ethernet <ethif> firewall in name =rulesetname
edgeos: interfaces ethernet <ethif> firewall out name =rulesetname
edgeos: interfaces ethernet <ethif> firewall local name =rulesetname
# Per-interface rule sets on VyOS 1.3 only: vyatta-cfg-firewall
# equuleus:gen-interface-templates.pl (ethernet, vif, pppoe, wireguard
# node.tag). 1.4 and 1.5 have none: sagitta and circinus
# interfaces_ethernet.xml.in have no firewall node; rules bind through
# "firewall ipv4 forward|input filter" (sagitta migrations firewall/7-to-8
# and 10-to-11 move them there).
vyos@1.3: interfaces ethernet <ethif> firewall in name =fwname13
vyos@1.3: interfaces ethernet <ethif> firewall out name =fwname13
vyos@1.3: interfaces ethernet <ethif> firewall local name =fwname13
edgeos: interfaces ethernet <ethif> firewall in modify =rulesetname
edgeos: interfaces ethernet <ethif> firewall out modify =rulesetname
interfaces ethernet <ethif> vif <vlan> address +=ifaddr
interfaces ethernet <ethif> vif <vlan> description =text
interfaces ethernet <ethif> vif <vlan> mtu =mtu
vyos@1.3: interfaces ethernet <ethif> vif <vlan> firewall in name =fwname13
vyos@1.3: interfaces ethernet <ethif> vif <vlan> firewall out name =fwname13
vyos@1.3: interfaces ethernet <ethif> vif <vlan> firewall local name =fwname13
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> user-id =text
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> password =text
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> mtu =pppoemtu
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> default-route =auto|none|force
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> name-server =auto|none
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> description =text
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> firewall in name =rulesetname
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> firewall out name =rulesetname
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> firewall local name =rulesetname
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> firewall in modify =rulesetname
edgeos: interfaces ethernet <ethif> pppoe <pppoeunit> firewall out modify =rulesetname
# VyOS PPPoE is its own interface, not a child of the Ethernet port:
# equuleus interfaces-pppoe.xml.in, sagitta (tag 1.4.0 alike) and
# circinus interfaces_pppoe.xml.in (tag pppoe[0-9]+, source-interface,
# mtu 68-1500). 1.3's include/interface/authentication.xml.i names the
# login "user" and has "default-route auto|none|force"; 1.4 and 1.5 take
# include/generic-username.xml.i's "username" and a valueless
# "no-default-route" (include/interface/no-default-route.xml.i).
# 1.3's per-interface firewall: vyatta-cfg-firewall
# gen-interface-templates.pl's pppoe/node.tag.
vyos: interfaces pppoe <vyospppoe> source-interface =text
vyos: interfaces pppoe <vyospppoe> authentication password =text
vyos: interfaces pppoe <vyospppoe> mtu =pppoemtu
vyos: interfaces pppoe <vyospppoe> description =text
vyos@1.3: interfaces pppoe <vyospppoe> authentication user =text
vyos@1.3: interfaces pppoe <vyospppoe> default-route =auto|none|force
vyos@1.3: interfaces pppoe <vyospppoe> firewall in name =fwname13
vyos@1.3: interfaces pppoe <vyospppoe> firewall out name =fwname13
vyos@1.3: interfaces pppoe <vyospppoe> firewall local name =fwname13
vyos@1.4+: interfaces pppoe <vyospppoe> authentication username =text
vyos@1.4+: interfaces pppoe <vyospppoe> no-default-route

protocols static route <ipv4net> next-hop <ipv4>
protocols static route <ipv4net> next-hop <ipv4> distance =distance
protocols static route <ipv4net> next-hop <ipv4> description =text
protocols static route <ipv4net> blackhole
protocols static route <ipv4net> blackhole distance =distance
protocols static route <ipv4net> description =text

# Global options: EdgeOS, and VyOS 1.3's vyatta-cfg-firewall
# (equuleus:templates/firewall/{all-ping,broadcast-ping,...}/node.def;
# 1.3's vyos-1x has no firewall.xml.in). 1.4 and 1.5 moved them under
# "firewall global-options" (schema_foreign.go).
edgeos,vyos@1.3: firewall all-ping =enable|disable
edgeos,vyos@1.3: firewall broadcast-ping =enable|disable
edgeos,vyos@1.3: firewall ipv6-receive-redirects =enable|disable
edgeos,vyos@1.3: firewall ipv6-src-route =enable|disable
edgeos,vyos@1.3: firewall ip-src-route =enable|disable
edgeos,vyos@1.3: firewall log-martians =enable|disable
edgeos,vyos@1.3: firewall receive-redirects =enable|disable
edgeos,vyos@1.3: firewall send-redirects =enable|disable
edgeos,vyos@1.3: firewall source-validation =strict|loose|disable
edgeos,vyos@1.3: firewall syn-cookies =enable|disable
edgeos: firewall options mss-clamp interface-type +=all|pppoe|pptp|tun
edgeos: firewall options mss-clamp mss =mss
edgeos: firewall name <rulesetname> default-action =drop|reject|accept
edgeos: firewall name <rulesetname> description =text
edgeos: firewall name <rulesetname> rule <rulenum> action =drop|reject|accept
edgeos: firewall name <rulesetname> rule <rulenum> description =text
edgeos: firewall name <rulesetname> rule <rulenum> log =enable|disable
edgeos: firewall name <rulesetname> rule <rulenum> protocol =protocol
edgeos: firewall name <rulesetname> rule <rulenum> state established =enable|disable
edgeos: firewall name <rulesetname> rule <rulenum> state related =enable|disable
edgeos: firewall name <rulesetname> rule <rulenum> state invalid =enable|disable
edgeos: firewall name <rulesetname> rule <rulenum> state new =enable|disable
edgeos: firewall name <rulesetname> rule <rulenum> destination port =text
edgeos: firewall name <rulesetname> rule <rulenum> destination address =text
edgeos: firewall name <rulesetname> rule <rulenum> source address =text
edgeos: firewall name <rulesetname> rule <rulenum> source port =text
# VyOS 1.3's rule sets: vyatta-cfg-firewall
# equuleus:templates/firewall/name/node.def (the name: [[:graph:]]{1,28},
# not starting with "-"), name/node.tag/rule/node.def (1-999999),
# rule/node.tag/{action,log,state/*}/node.def (log and each state are
# enable|disable leaves). 1.4 has no "firewall name" (sagitta
# firewall.xml.in: "firewall ipv4 name", schema_foreign.go; sagitta's
# migration firewall/10-to-11 moves it).
vyos@1.3: firewall name <fwname13> default-action =drop|reject|accept
vyos@1.3: firewall name <fwname13> description =text
vyos@1.3: firewall name <fwname13> enable-default-log
vyos@1.3: firewall name <fwname13> rule <vyosrule> action =drop|reject|accept
vyos@1.3: firewall name <fwname13> rule <vyosrule> description =text
vyos@1.3: firewall name <fwname13> rule <vyosrule> log =enable|disable
vyos@1.3: firewall name <fwname13> rule <vyosrule> protocol =protocol
vyos@1.3: firewall name <fwname13> rule <vyosrule> state established =enable|disable
vyos@1.3: firewall name <fwname13> rule <vyosrule> state related =enable|disable
vyos@1.3: firewall name <fwname13> rule <vyosrule> state invalid =enable|disable
vyos@1.3: firewall name <fwname13> rule <vyosrule> state new =enable|disable
vyos@1.3: firewall name <fwname13> rule <vyosrule> destination port =text
vyos@1.3: firewall name <fwname13> rule <vyosrule> destination address =text
vyos@1.3: firewall name <fwname13> rule <vyosrule> source address =text
vyos@1.3: firewall name <fwname13> rule <vyosrule> source port =text
edgeos: firewall modify <rulesetname> description =text
edgeos: firewall modify <rulesetname> rule <rulenum> action =modify|accept|drop
edgeos: firewall modify <rulesetname> rule <rulenum> description =text
edgeos: firewall modify <rulesetname> rule <rulenum> modify tcp-mss =mssmod
edgeos: firewall modify <rulesetname> rule <rulenum> protocol =protocol
edgeos: firewall modify <rulesetname> rule <rulenum> tcp flags =text

edgeos: service nat rule <natrule> description =text
edgeos: service nat rule <natrule> outbound-interface =text
edgeos: service nat rule <natrule> inbound-interface =text
edgeos: service nat rule <natrule> type =masquerade|source|destination
edgeos: service nat rule <natrule> protocol =protocol
edgeos: service nat rule <natrule> log =enable|disable
edgeos: service nat rule <natrule> source address =text
edgeos: service nat rule <natrule> destination address =text
edgeos: service nat rule <natrule> outside-address address =text
edgeos: service nat rule <natrule> inside-address address =text
# VyOS NAT: equuleus, sagitta (tag 1.4.0 too) and circinus nat.xml.in.
# Rules 1-999999 on all three. 1.3's outbound-interface is a leaf
# (equuleus include/nat-interface.xml.i); 1.4 made it a node whose
# "name" leaf holds the interface (include/firewall/outbound-interface.xml.i
# and match-interface.xml.i; sagitta migrations nat/5-to-6 and 6-to-7,
# both in tag 1.4.0). translation address: an address, prefix, range or
# "masquerade" (ipv4-address|ipv4-prefix|ipv4-range validators and the
# masquerade regex, all three releases).
vyos: nat source rule <vyosnatrule> description =text
vyos@1.3: nat source rule <vyosnatrule> outbound-interface =text
vyos@1.4+: nat source rule <vyosnatrule> outbound-interface name =vyosifmatch
vyos: nat source rule <vyosnatrule> source address =text
vyos: nat source rule <vyosnatrule> translation address =nataddress

edgeos: service dhcp-server disabled =true|false
edgeos: service dhcp-server hostfile-update =enable|disable
edgeos: service dhcp-server use-dnsmasq =enable|disable
edgeos: service dhcp-server shared-network-name <netname> authoritative =enable|disable
edgeos: service dhcp-server shared-network-name <netname> description =text
edgeos: service dhcp-server shared-network-name <netname> subnet <ipv4net> default-router =ipv4
edgeos: service dhcp-server shared-network-name <netname> subnet <ipv4net> dns-server +=ipv4
edgeos: service dhcp-server shared-network-name <netname> subnet <ipv4net> lease =u32
edgeos: service dhcp-server shared-network-name <netname> subnet <ipv4net> start <ipv4> stop =ipv4
edgeos: service dhcp-server shared-network-name <netname> subnet <ipv4net> static-mapping <netname> ip-address =ipv4
edgeos: service dhcp-server shared-network-name <netname> subnet <ipv4net> static-mapping <netname> mac-address =text
service ssh port =port
service ssh protocol-version =v1|v2|all
edgeos: service gui http-port =port
edgeos: service gui https-port =port
edgeos: service gui older-ciphers =enable|disable
edgeos: service unms disable

edgeos: vpn ipsec auto-firewall-nat-exclude =enable|disable
edgeos: vpn ipsec ipsec-interfaces interface +=text
edgeos: vpn ipsec ike-group <rulesetname> key-exchange =ikev1|ikev2
edgeos: vpn ipsec ike-group <rulesetname> lifetime =u32
edgeos: vpn ipsec ike-group <rulesetname> dead-peer-detection action =hold|clear|restart
edgeos: vpn ipsec ike-group <rulesetname> dead-peer-detection interval =u32
edgeos: vpn ipsec ike-group <rulesetname> dead-peer-detection timeout =u32
edgeos: vpn ipsec ike-group <rulesetname> proposal <rulenum> encryption =aes128|aes256|3des|aes128gcm128|aes256gcm128
edgeos: vpn ipsec ike-group <rulesetname> proposal <rulenum> hash =md5|sha1|sha256|sha384|sha512
edgeos: vpn ipsec ike-group <rulesetname> proposal <rulenum> dh-group =2|5|14|15|16|17|18|19|20|21|22|23|24|25|26
edgeos: vpn ipsec esp-group <rulesetname> compression =enable|disable
edgeos: vpn ipsec esp-group <rulesetname> lifetime =u32
edgeos: vpn ipsec esp-group <rulesetname> mode =tunnel|transport
edgeos: vpn ipsec esp-group <rulesetname> pfs =enable|disable|dh-group2|dh-group5|dh-group14|dh-group15|dh-group16|dh-group17|dh-group18|dh-group19|dh-group20|dh-group21|dh-group22|dh-group23|dh-group24|dh-group25|dh-group26
edgeos: vpn ipsec esp-group <rulesetname> proposal <rulenum> encryption =aes128|aes256|3des|aes128gcm128|aes256gcm128
edgeos: vpn ipsec esp-group <rulesetname> proposal <rulenum> hash =md5|sha1|sha256|sha384|sha512
edgeos: vpn ipsec site-to-site peer <ipv4> description =text
edgeos: vpn ipsec site-to-site peer <ipv4> authentication mode =pre-shared-secret|rsa|x509
edgeos: vpn ipsec site-to-site peer <ipv4> authentication pre-shared-secret =text
edgeos: vpn ipsec site-to-site peer <ipv4> authentication id =text
edgeos: vpn ipsec site-to-site peer <ipv4> authentication remote-id =text
edgeos: vpn ipsec site-to-site peer <ipv4> connection-type =initiate|respond
edgeos: vpn ipsec site-to-site peer <ipv4> ike-group =rulesetname
edgeos: vpn ipsec site-to-site peer <ipv4> local-address =text
edgeos: vpn ipsec site-to-site peer <ipv4> tunnel <rulenum> esp-group =rulesetname
edgeos: vpn ipsec site-to-site peer <ipv4> tunnel <rulenum> local prefix =ipv4net
edgeos: vpn ipsec site-to-site peer <ipv4> tunnel <rulenum> remote prefix =ipv4net
edgeos: vpn ipsec site-to-site peer <ipv4> tunnel <rulenum> allow-nat-networks =enable|disable
edgeos: vpn ipsec site-to-site peer <ipv4> tunnel <rulenum> allow-public-networks =enable|disable

edgeos: vpn l2tp remote-access description =text
edgeos: vpn l2tp remote-access authentication mode =local|radius
edgeos: vpn l2tp remote-access authentication local-users username <l2tpuser> password =text
edgeos: vpn l2tp remote-access authentication local-users username <l2tpuser> disable
edgeos: vpn l2tp remote-access authentication local-users username <l2tpuser> static-ip =ipv4
edgeos: vpn l2tp remote-access client-ip-pool start =ipv4
edgeos: vpn l2tp remote-access client-ip-pool stop =ipv4
edgeos: vpn l2tp remote-access dns-servers server-1 =ipv4
edgeos: vpn l2tp remote-access dns-servers server-2 =ipv4
edgeos: vpn l2tp remote-access wins-servers server-1 =ipv4
edgeos: vpn l2tp remote-access wins-servers server-2 =ipv4
edgeos: vpn l2tp remote-access ipsec-settings authentication mode =pre-shared-secret|x509
edgeos: vpn l2tp remote-access ipsec-settings authentication pre-shared-secret =text
edgeos: vpn l2tp remote-access ipsec-settings ike-lifetime =ikelifetime
edgeos: vpn l2tp remote-access ipsec-settings lifetime =ikelifetime
edgeos: vpn l2tp remote-access outside-address =ipv4
edgeos: vpn l2tp remote-access outside-nexthop =ipv4
edgeos: vpn l2tp remote-access dhcp-interface =text
edgeos: vpn l2tp remote-access mtu =pppmtu
edgeos: vpn l2tp remote-access idle =u32

edgeos: interfaces openvpn <vtunif> description =text
edgeos: interfaces openvpn <vtunif> disable
edgeos: interfaces openvpn <vtunif> mode =site-to-site|client|server
edgeos: interfaces openvpn <vtunif> local-address <ipv4>
edgeos: interfaces openvpn <vtunif> remote-address =ipv4
edgeos: interfaces openvpn <vtunif> local-host =ipv4
edgeos: interfaces openvpn <vtunif> remote-host +=text
edgeos: interfaces openvpn <vtunif> local-port =port
edgeos: interfaces openvpn <vtunif> remote-port =port
edgeos: interfaces openvpn <vtunif> protocol =udp|tcp-passive|tcp-active
edgeos: interfaces openvpn <vtunif> shared-secret-key-file =text
edgeos: interfaces openvpn <vtunif> encryption =des|3des|bf128|bf256|aes128|aes192|aes256
edgeos: interfaces openvpn <vtunif> hash =md5|sha1|sha256|sha512
edgeos: interfaces openvpn <vtunif> openvpn-option +=text
edgeos: interfaces openvpn <vtunif> firewall in name =rulesetname
edgeos: interfaces openvpn <vtunif> firewall local name =rulesetname

edgeos+wireguard: interfaces wireguard <wgif> description =text
edgeos+wireguard: interfaces wireguard <wgif> address +=cidr
edgeos+wireguard: interfaces wireguard <wgif> listen-port =port
edgeos+wireguard: interfaces wireguard <wgif> mtu =wgmtu
edgeos+wireguard: interfaces wireguard <wgif> private-key =wgkeyorfile
edgeos+wireguard: interfaces wireguard <wgif> route-allowed-ips =true|false
edgeos+wireguard: interfaces wireguard <wgif> peer <wgkey> allowed-ips +=anynet
edgeos+wireguard: interfaces wireguard <wgif> peer <wgkey> endpoint =endpoint
edgeos+wireguard: interfaces wireguard <wgif> peer <wgkey> persistent-keepalive =keepalive
edgeos+wireguard: interfaces wireguard <wgif> peer <wgkey> preshared-key =wgkeyorfile
edgeos+wireguard: interfaces wireguard <wgif> peer <wgkey> description =text
# VyOS WireGuard: equuleus interfaces-wireguard.xml.in, sagitta (tag
# 1.4.0 alike) and circinus interfaces_wireguard.xml.in (wg[0-9]+, mtu
# include/interface/mtu-68-16000.xml.i, port, peer address/port); the
# key leaves per release as above.
vyos: interfaces wireguard <wgif> description =text
vyos: interfaces wireguard <wgif> address +=cidr
vyos: interfaces wireguard <wgif> port =port
vyos: interfaces wireguard <wgif> mtu =vyoswgmtu
vyos@1.3: interfaces wireguard <wgif> private-key =text
vyos@1.4+: interfaces wireguard <wgif> private-key =wgkey
vyos@1.3: interfaces wireguard <wgif> peer <peername> pubkey =wgkey
vyos@1.4+: interfaces wireguard <wgif> peer <peername> public-key =wgkey
vyos: interfaces wireguard <wgif> peer <peername> allowed-ips +=anynet
vyos: interfaces wireguard <wgif> peer <peername> address =ip
vyos: interfaces wireguard <wgif> peer <peername> port =port
vyos: interfaces wireguard <wgif> peer <peername> persistent-keepalive =keepalive
vyos: interfaces wireguard <wgif> peer <peername> preshared-key =wgkey
vyos@1.4+: interfaces wireguard <wgif> peer <peername> description =text

edgeos: protocols static interface-route <ipv4net> next-hop-interface <text>
edgeos: protocols static interface-route <ipv4net> next-hop-interface <text> distance =distance
edgeos: protocols static interface-route6 <ipv6net> next-hop-interface <text>
edgeos: protocols static interface-route6 <ipv6net> next-hop-interface <text> distance =distance
vyos@1.3: protocols static interface-route <ipv4net> next-hop-interface <text>
vyos@1.3: protocols static interface-route <ipv4net> next-hop-interface <text> distance =distance
vyos@1.3: protocols static interface-route6 <ipv6net> next-hop-interface <text>
vyos@1.3: protocols static interface-route6 <ipv6net> next-hop-interface <text> distance =distance
vyos@1.4+: protocols static route <ipv4net> interface <text>
vyos@1.4+: protocols static route <ipv4net> interface <text> distance =distance
vyos@1.4+: protocols static route6 <ipv6net> interface <text>
vyos@1.4+: protocols static route6 <ipv6net> interface <text> distance =distance
`
