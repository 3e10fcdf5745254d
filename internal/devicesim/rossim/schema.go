package rossim

// schemaText is the configuration the simulator knows: the menus routerlab
// manages plus the defaults a reset router carries. It is data, one menu
// and one attribute per line, so that adding an attribute is one line.
//
// Menus are listed in the order `/export` prints them. That order is
// RouterOS's own menu order (not alphabetical, not by dependency), read off
// published full exports of v6.44 (CCR1009), v7.14 (CCR1009) and v7.20
// (CCR1036): interfaces (bridge, ethernet, static server bindings, PPPoE
// clients, WireGuard), interface lists, IPsec profiles/peers/proposals,
// pools, DHCP servers, PPP profiles, the PPP client interfaces that use
// them, bridge ports, the settings menus, the L2TP server, list members,
// the OVPN and PPPoE servers, WireGuard peers, addresses, firewall tables
// (filter, mangle, nat, raw), IPsec identities and policies, routes, PPP
// secrets, then /system. (v7 also splits a menu in two when an item
// refers to one printed later; the simulator does not.)
//
//	menu <path> [single|list] [options]
//	  v6 | v7            the menu exists in that major version only
//	  since=7.17         ... from that version on
//	  before=7.17        ... in versions older than that (both may be
//	                     given, comma-separated: since=7.15,before=7.17)
//	  iface              items are interfaces: names unique across every
//	                     iface menu, and usable where an interface is named
//	  autoname=P         `add` without name= names the item P1, P2, ...
//	  unique=a+b "msg"   `add`/`set` refuse a second item with equal a and b
//	  needs=switch       only on boards with a switch chip
//	  place              `add place-before=` is accepted (ordered rules)
//	  <attr> [=default] <type> [flags]     (indented)
//	  item "<export selector>" [last] k=v ...   a default item (indented)
//	  @rule              the firewall match attributes (ruleAttrs)
//
// An attribute line may start with a version condition and ": " to exist
// in those versions only: "v6: ", "v7: ", "since=7.16: ", "before=7.16: "
// (two lines give the versions different defaults; see versionCond). A
// menu may be listed twice with conditions that do not overlap (a
// singleton until one version, a list from it on). Each condition below a
// major version names its source beside it. Types:
// text, yesno, int:LO..HI, enum:a|b, set:a|b (comma-separated subset),
// ip, cidr (address[/prefix]), ifaddr (an interface address: address[/prefix],
// a bare address is the host prefix, exports print a host prefix bare),
// iface (an interface name), ref:/menu/path (an
// item name of that menu), time, proto (a protocol name or 0..255). Flags:
// required, secret (left out of v7's export unless show-sensitive, of v6's
// with hide-sensitive), ro (not settable), needs=l3hw (only on boards with
// L3 hardware offloading), fill=V (`add` writes V when the attribute is not
// given, so the export shows it: v6 routes print distance=1, v7 WireGuard
// interfaces mtu=1420 and listen-port). Every list menu also has comment
// (text) and disabled (yesno, =no unless declared).
const schemaText = `
menu /interface bridge [list] iface autoname=bridge unique=name "failure: already have interface with such name"
  name text
  mtu =auto text
  arp =enabled enum:enabled|disabled|proxy-arp|reply-only|local-proxy-arp
  admin-mac text
  auto-mac =yes yesno
  ageing-time =5m time
  fast-forward =yes yesno
  igmp-snooping =no yesno
  dhcp-snooping =no yesno
  protocol-mode =rstp enum:none|rstp|stp|mstp
  priority =0x8000 text
  vlan-filtering =no yesno
  pvid =1 int:1..4094
  frame-types =admit-all enum:admit-all|admit-only-untagged-and-priority-tagged|admit-only-vlan-tagged
  v6: ingress-filtering =no yesno
  v7: ingress-filtering =yes yesno
  v7: port-cost-mode =long enum:long|short

menu /interface ethernet [list] iface unique=name "failure: already have interface with such name"
  name text
  default-name text ro
  mtu =1500 int:0..65535
  l2mtu =1598 int:0..65535
  arp =enabled enum:enabled|disabled|proxy-arp|reply-only|local-proxy-arp
  arp-timeout =auto text
  auto-negotiation =yes yesno
  v6: speed =1Gbps enum:10Mbps|100Mbps|1Gbps|2.5Gbps|5Gbps|10Gbps
  v7: speed =1G-baseT-full text
  loop-protect =default enum:default|on|off
  rx-flow-control =off enum:off|on|auto
  tx-flow-control =off enum:off|on|auto
  mac-address text

menu /interface l2tp-server [list] iface autoname=l2tp-in unique=name "failure: already have interface with such name"
  name text
  user text

menu /interface pppoe-client [list] iface autoname=pppoe-out unique=name "failure: already have interface with such name"
  name text
  interface iface required
  user text
  password text secret
  service-name text
  ac-name text
  profile =default ref:/ppp/profile
  max-mtu =auto text
  max-mru =auto text
  mrru =disabled text
  add-default-route =no yesno
  default-route-distance =1 int:0..255
  use-peer-dns =no yesno
  dial-on-demand =no yesno
  keepalive-timeout =10 text
  allow =pap,chap,mschap1,mschap2 set:pap|chap|mschap1|mschap2
  disabled =yes yesno

menu /interface wireguard [list] v7 iface autoname=wireguard unique=name "failure: already have interface with such name"
  name text
  listen-port int:1..65535 fill=13231
  mtu int:68..65535 fill=1420
  private-key text secret

menu /interface ethernet switch [list] needs=switch
  name text
  cpu-flow-control =yes yesno
  mirror-source =none text
  mirror-target =none text
  v7: l3-hw-offloading =no yesno needs=l3hw

# The built-in lists all, none, dynamic and static: v7 verbose exports
# print them as "set [ find name=all ] comment=\"contains all interfaces\"
# exclude=\"\" include=\"\" name=all" (a published 7.17.2 verbose export,
# OE-NIK-projects/DevEnv-WebService router/full.rsc, and other v7 verbose
# exports found by searching for "contains static interfaces"). v6 has
# all, none and dynamic (interface lists came with 6.41; assumption: no
# static list before v7, none of the v6 exports found shows one).
menu /interface list [list] unique=name "failure: already have such name"
  name text required
  include text
  exclude text
  item "[ find name=all ]" name=all "comment=contains all interfaces"
  item "[ find name=none ]" name=none "comment=contains no interfaces"
  item "[ find name=dynamic ]" name=dynamic "comment=contains dynamic interfaces"
  v7: item "[ find name=static ]" name=static "comment=contains static interfaces"

menu /ip ipsec profile [list] unique=name "failure: already have such name"
  name text required
  hash-algorithm =sha1 enum:md5|sha1|sha256|sha384|sha512
  v6: enc-algorithm =aes-128,3des set:des|3des|aes-128|aes-192|aes-256|blowfish|camellia-128|camellia-192|camellia-256
  v7: enc-algorithm =aes-128,3des set:des|3des|aes-128|aes-192|aes-256|blowfish|camellia-128|camellia-192|camellia-256|aes-128-gcm|aes-256-gcm
  dh-group =modp2048,modp1024 set:modp768|modp1024|modp1536|modp2048|modp3072|modp4096|modp6144|modp8192|ecp256|ecp384|ecp521
  lifetime =1d time
  lifebytes =0 text
  proposal-check =obey enum:claim|exact|obey|strict
  nat-traversal =yes yesno
  # The default DPD changed inside v7: a compact export of 7.14.3 (a
  # CCR2116-12G-4S+ in a public repository) prints "dpd-interval=8s
  # dpd-maximum-failures=4" as a change, so 2m/5 was still the default
  # there; compact exports of 7.16beta7, 7.18.2, 7.19.3, 7.19.4 and
  # 7.20beta4 (hAP ax2, CCR2004, RB4011, CRS354 files) print
  # "dpd-interval=2m dpd-maximum-failures=5" as a change (routers upgraded
  # from older versions keep their old values), and a 7.17.2 CHR's verbose
  # export shows 8s/4. The first version with 8s/4 is between 7.14.3 and
  # 7.16beta7; 7.16 is the first one the sources show (assumption for 7.15).
  before=7.16: dpd-interval =2m text
  since=7.16: dpd-interval =8s text
  before=7.16: dpd-maximum-failures =5 int:1..100
  since=7.16: dpd-maximum-failures =4 int:1..100
  v7: prf-algorithm =auto enum:auto|sha1|sha256|sha384|sha512
  item "[ find default=yes ]" name=default

menu /ip ipsec peer [list] autoname=peer unique=name "failure: already have such name"
  name text
  address text
  local-address text
  port =500 int:1..65535
  profile =default ref:/ip/ipsec/profile
  exchange-mode =main enum:main|aggressive|base|ike2
  passive =no yesno
  send-initial-contact =yes yesno

menu /ip ipsec proposal [list] unique=name "failure: already have such name"
  name text required
  auth-algorithms =sha1 set:md5|sha1|sha256|sha512|null
  enc-algorithms =aes-256-cbc,aes-192-cbc,aes-128-cbc set:null|des|3des|aes-128-cbc|aes-192-cbc|aes-256-cbc|aes-128-ctr|aes-192-ctr|aes-256-ctr|aes-128-gcm|aes-192-gcm|aes-256-gcm|blowfish|camellia-128|camellia-192|camellia-256|twofish
  lifetime =30m time
  pfs-group =modp1024 enum:none|modp768|modp1024|modp1536|modp2048|modp3072|modp4096|modp6144|modp8192|ecp256|ecp384|ecp521
  item "[ find default=yes ]" name=default

menu /ip pool [list] unique=name "failure: pool with such name already exists"
  name text required
  ranges text required
  next-pool =none text

menu /ip dhcp-server [list] autoname=dhcp unique=name "failure: already have such name"
  name text
  interface iface required
  address-pool =static-only text
  v6: lease-time =10m time
  v7: lease-time =30m time
  authoritative =yes enum:yes|no|after-2sec-delay|after-10sec-delay
  add-arp =no yesno
  v6: disabled =yes yesno

menu /ppp profile [list] unique=name "failure: already have such name"
  name text required
  local-address text
  remote-address text
  bridge text
  change-tcp-mss =default enum:default|yes|no
  use-encryption =default enum:default|yes|no|required
  use-compression =default enum:default|yes|no
  use-mpls =default enum:default|yes|no|required
  use-upnp =default enum:default|yes|no
  use-ipv6 =yes enum:default|yes|no|required
  only-one =default enum:default|yes|no
  dns-server text
  wins-server text
  rate-limit text
  idle-timeout text
  session-timeout text
  address-list text
  interface-list text
  on-up text
  on-down text
  incoming-filter text
  outgoing-filter text
  queue-type text
  item "*0" name=default change-tcp-mss=yes
  item "*FFFFFFFE" last name=default-encryption change-tcp-mss=yes use-encryption=yes

menu /interface l2tp-client [list] iface autoname=l2tp-out unique=name "failure: already have interface with such name"
  name text
  connect-to text required
  user text
  password text secret
  profile =default-encryption ref:/ppp/profile
  use-ipsec =no yesno
  ipsec-secret text secret
  allow =pap,chap,mschap1,mschap2 set:pap|chap|mschap1|mschap2
  max-mtu =1450 int:32..65535
  max-mru =1450 int:32..65535
  mrru =disabled text
  keepalive-timeout =60 text
  add-default-route =no yesno
  default-route-distance =1 int:0..255
  dial-on-demand =no yesno
  use-peer-dns =no yesno
  allow-fast-path =no yesno
  disabled =yes yesno

menu /interface ovpn-client [list] iface autoname=ovpn-out unique=name "failure: already have interface with such name"
  name text
  connect-to text required
  port =1194 int:1..65535
  mode =ip enum:ip|ethernet
  v7: protocol =tcp enum:tcp|udp
  user text
  password text secret
  profile =default ref:/ppp/profile
  certificate =none text
  v6: auth =sha1 enum:md5|sha1|null
  v7: auth =sha1 enum:md5|sha1|null|sha256|sha512
  v6: cipher =blowfish128 enum:null|blowfish128|aes128|aes192|aes256
  v7: cipher =blowfish128 enum:null|blowfish128|aes128-cbc|aes192-cbc|aes256-cbc|aes128-gcm|aes192-gcm|aes256-gcm
  add-default-route =no yesno
  verify-server-certificate =no yesno
  disabled =yes yesno

menu /interface bridge port [list] unique=interface "failure: device already added as bridge port"
  bridge iface required
  interface iface required
  pvid =1 int:1..4094
  hw =yes yesno
  horizon =none text
  edge =auto enum:auto|yes|no|no-discover|yes-discover
  path-cost =10 int:1..200000000
  internal-path-cost =10 int:1..200000000
  priority =0x80 text
  frame-types =admit-all enum:admit-all|admit-only-untagged-and-priority-tagged|admit-only-vlan-tagged
  v6: ingress-filtering =no yesno
  v7: ingress-filtering =yes yesno
  trusted =no yesno

menu /ip firewall connection tracking [single]
  enabled =auto enum:auto|yes|no
  tcp-established-timeout =1d time
  tcp-syn-sent-timeout =5s time
  tcp-syn-received-timeout =5s time
  tcp-fin-wait-timeout =10s time
  tcp-close-wait-timeout =10s time
  tcp-last-ack-timeout =10s time
  tcp-time-wait-timeout =10s time
  tcp-close-timeout =10s time
  tcp-max-retrans-timeout =5m time
  tcp-unacked-timeout =5m time
  loose-tcp-tracking =yes yesno
  udp-timeout =10s time
  udp-stream-timeout =3m time
  icmp-timeout =10s time
  generic-timeout =10m time

menu /ip settings [single]
  ip-forward =yes yesno
  send-redirects =yes yesno
  accept-source-route =no yesno
  accept-redirects =no yesno
  secure-redirects =yes yesno
  rp-filter =no enum:no|strict|loose
  tcp-syncookies =no yesno
  arp-timeout =30s time
  icmp-rate-limit =10 int:0..4294967295
  icmp-rate-mask =0x1818 text
  allow-fast-path =yes yesno
  v6: max-neighbor-entries =8192 int:0..4294967295
  v6: route-cache =yes yesno
  v7: max-neighbor-entries =16384 int:0..4294967295
  v7: ipv4-multipath-hash-policy =l3 enum:l3|l3-inner|l4

menu /ipv6 settings [single]
  forward =yes yesno
  accept-redirects =yes-if-forwarding-disabled enum:no|yes-if-forwarding-disabled
  accept-router-advertisements =yes-if-forwarding-disabled enum:no|yes|yes-if-forwarding-disabled
  disable-ipv6 =no yesno
  v6: max-neighbor-entries =8192 int:0..4294967295
  v7: max-neighbor-entries =16384 int:0..4294967295

menu /interface l2tp-server server [single]
  enabled =no yesno
  max-mtu =1450 int:32..65535
  max-mru =1450 int:32..65535
  mrru =disabled text
  authentication =pap,chap,mschap1,mschap2 set:pap|chap|mschap1|mschap2
  default-profile =default-encryption ref:/ppp/profile
  keepalive-timeout =30 text
  max-sessions =unlimited text
  one-session-per-host =no yesno
  use-ipsec =no enum:no|yes|required
  ipsec-secret text secret
  caller-id-type =ip-address enum:ip-address|number
  allow-fast-path =no yesno

menu /interface list member [list] unique=list+interface "failure: already have such entry"
  list ref:/interface/list required
  interface iface required

# Until 7.17 the OpenVPN server is one setting (exports print
# "/interface ovpn-server server" then "set ... enabled=yes"; a 7.12.1
# hEX export, 6.33 and 7.4 pastebin exports).
menu /interface ovpn-server server [single] before=7.17
  enabled =no yesno
  port =1194 int:1..65535
  mode =ip enum:ip|ethernet
  v7: protocol =tcp enum:tcp|udp
  netmask =24 int:0..32
  mac-address text
  max-mtu =1500 int:64..65535
  keepalive-timeout =60 text
  default-profile =default ref:/ppp/profile
  certificate =none text
  require-client-certificate =no yesno
  v6: auth =sha1,md5 set:md5|sha1|null
  v7: auth =sha1,md5,sha256,sha512 set:md5|sha1|null|sha256|sha512
  v6: cipher =blowfish128,aes128 set:null|blowfish128|aes128|aes192|aes256
  v7: cipher =aes128-cbc,blowfish128 set:null|blowfish128|aes128-cbc|aes192-cbc|aes256-cbc|aes128-gcm|aes192-gcm|aes256-gcm

# From 7.17 the OpenVPN server is a list of servers: community.routeros's
# API data (plugins/module_utils/_api_data.py, "7.17 >=": no enabled,
# disabled, name, vrf=main; its pull request 383: "Since RouterOS 7.17 ...
# It now supports multiple entries"). Exports print "add mac-address=...
# name=ovpn-server1" (7.18.2 CCR2004, 7.19.3 RB4011, 7.20beta4 CRS354):
# an upgrade turns the old setting into the item ovpn-server1, and a
# verbose export of such an item (7.19rc1 RB5009) shows the defaults
# below (disabled=yes auth=sha1,md5,sha256,sha512
# cipher=blowfish128,aes128-cbc ... reneg-sec=3600 tls-version=any
# user-auth-method=pap vrf=main). A fresh
# 7.17.2 CHR's verbose export has no /interface ovpn-server server at all:
# a reset router has no server. autoname=ovpn-server follows the upgraded
# item's name (assumption for an add without name=); the duplicate-name
# message is the generic one (assumption). A router picks a random
# locally administered MAC for each server; rossim writes one fixed one
# (assumption: only its presence in the export matters). With no enabled
# attribute, "set enabled=yes" is the console's syntax error for an
# unknown argument, "expected end of command", and "set disabled=no"
# without a selector is "no such item" (assumption for both).
menu /interface ovpn-server server [list] since=7.17 autoname=ovpn-server unique=name "failure: already have such name"
  name text
  disabled =yes yesno
  port =1194 int:1..65535
  mode =ip enum:ip|ethernet
  protocol =tcp enum:tcp|udp
  netmask =24 int:0..32
  mac-address text fill=FE:52:4F:53:00:01
  max-mtu =1500 int:64..65535
  keepalive-timeout =60 text
  default-profile =default ref:/ppp/profile
  certificate =none text
  require-client-certificate =no yesno
  auth =sha1,md5,sha256,sha512 set:md5|sha1|null|sha256|sha512
  cipher =blowfish128,aes128-cbc set:null|blowfish128|aes128-cbc|aes192-cbc|aes256-cbc|aes128-gcm|aes192-gcm|aes256-gcm
  enable-tun-ipv6 =no yesno
  ipv6-prefix-len =64 int:0..128
  tun-server-ipv6 =:: text
  push-routes text
  redirect-gateway =disabled text
  reneg-sec =3600 text
  tls-version =any enum:any|only-1.2
  user-auth-method =pap text
  vrf =main text

menu /interface pppoe-server server [list]
  service-name text
  interface iface required
  max-mtu =1480 text
  max-mru =1480 text
  mrru =disabled text
  authentication =pap,chap,mschap1,mschap2 set:pap|chap|mschap1|mschap2
  keepalive-timeout =10 text
  one-session-per-host =no yesno
  max-sessions =unlimited text
  default-profile =default ref:/ppp/profile
  pado-delay =0 int:0..100000
  disabled =yes yesno

menu /interface wireguard peers [list] v7
  interface ref:/interface/wireguard required
  public-key text required
  preshared-key text secret
  endpoint-address text
  endpoint-port =0 int:0..65535
  allowed-address text
  persistent-keepalive text

# Exports print a host address bare with network= itself ("add
# address=160.22.181.186 interface=lo network=160.22.181.186", 7.20beta4
# CRS354; 7.16, 7.11.2 and 6.43.4 files likewise), scripts add it with or
# without /32; a point-to-point address keeps the network= given, the
# peer ("address=x.x.x.61/32 network=x.x.x.60", gist
# lcuevastodoit/f61cc1bdd24a1f55c776ee261bf4bad5).
menu /ip address [list] unique=address+interface "failure: already have such address"
  address ifaddr required
  network ip
  interface iface required

menu /ip dhcp-server network [list]
  address cidr required
  gateway text
  dns-server text
  netmask int:0..32

menu /ip firewall filter [list] place
  chain text required
  action =accept enum:accept|add-dst-to-address-list|add-src-to-address-list|drop|fasttrack-connection|jump|log|passthrough|reject|return|tarpit
  @rule

menu /ip firewall mangle [list] place
  chain text required
  action =mark-connection enum:accept|add-dst-to-address-list|add-src-to-address-list|change-dscp|change-mss|change-ttl|clear-df|fasttrack-connection|jump|log|mark-connection|mark-packet|mark-routing|passthrough|return|route|set-priority|sniff-pc|sniff-tzsp|strip-ipv4-options
  new-mss text
  new-connection-mark text
  new-packet-mark text
  new-routing-mark text
  passthrough =yes yesno
  @rule

menu /ip firewall nat [list] place
  chain text required
  action =accept enum:accept|add-dst-to-address-list|add-src-to-address-list|dst-nat|endpoint-independent-nat|jump|log|masquerade|netmap|passthrough|redirect|return|same|src-nat
  to-addresses text
  to-ports text
  @rule

menu /ip firewall raw [list] place
  chain text required
  action =accept enum:accept|add-dst-to-address-list|add-src-to-address-list|drop|jump|log|notrack|passthrough|return
  @rule

menu /ip ipsec identity [list]
  peer ref:/ip/ipsec/peer required
  auth-method =pre-shared-key enum:pre-shared-key|pre-shared-key-xauth|rsa-key|rsa-signature|digital-signature|eap|eap-radius
  secret text secret
  generate-policy =no enum:no|port-override|port-strict
  policy-template-group =default text
  my-id =auto text
  remote-id =auto text
  match-by =remote-id enum:remote-id|certificate
  notrack-chain text
  username text
  password text secret

menu /ip ipsec policy [list]
  src-address text
  dst-address text
  src-port =any text
  dst-port =any text
  protocol =all text
  action =encrypt enum:discard|encrypt|none
  level =require enum:require|unique|use
  ipsec-protocols =esp enum:ah|esp
  tunnel =no yesno
  peer text
  proposal =default ref:/ip/ipsec/proposal
  sa-src-address text
  sa-dst-address text
  template =no yesno
  group =default text
  item "0" template=yes src-address=0.0.0.0/0 dst-address=0.0.0.0/0

menu /ip ipsec settings [single]
  accounting =yes yesno
  interim-update =0s time
  xauth-use-radius =no yesno

menu /ip route [list]
  dst-address =0.0.0.0/0 cidr
  gateway text
  v6: distance int:0..255 fill=1
  v7: distance =1 int:0..255
  check-gateway text
  scope =30 int:0..255
  target-scope =10 int:0..255
  pref-src text
  v6: routing-mark text
  v6: type =unicast enum:unicast|blackhole|prohibit|unreachable
  v7: routing-table =main text
  v7: blackhole =no yesno
  v7: suppress-hw-offload =no yesno

menu /ppp secret [list] unique=name "failure: secret with the same name already exists"
  name text required
  password text secret
  profile =default ref:/ppp/profile
  service =any enum:any|async|l2tp|ovpn|pppoe|pptp|sstp
  local-address text
  remote-address text
  routes text
  caller-id text
  limit-bytes-in =0 int:0..4294967295
  limit-bytes-out =0 int:0..4294967295

menu /system identity [single]
  name =MikroTik text
`

// ruleAttrs are the match and logging attributes every firewall menu has;
// "@rule" in a menu of schemaText expands to them.
const ruleAttrs = `
  protocol proto
  src-address text
  dst-address text
  src-port text
  dst-port text
  port text
  in-interface text
  out-interface text
  in-interface-list text
  out-interface-list text
  src-address-list text
  dst-address-list text
  src-address-type text
  dst-address-type text
  connection-state text
  connection-nat-state text
  connection-mark text
  packet-mark text
  routing-mark text
  connection-type text
  ipsec-policy text
  tcp-flags text
  tcp-mss text
  icmp-options text
  packet-size text
  limit text
  jump-target text
  address-list text
  address-list-timeout text
  reject-with text
  hw-offload =no yesno
  log =no yesno
  log-prefix text
`

// protocols are the names `protocol=` accepts besides a number 0..255.
var protocols = []string{
	"dccp", "ddp", "egp", "encap", "etherip", "ggp", "gre", "hmp", "icmp", "icmpv6", "idpr-cmtp",
	"igmp", "ipencap", "ipip", "ipsec-ah", "ipsec-esp", "ipv6", "ipv6-frag", "ipv6-nonxt", "ipv6-opts",
	"ipv6-route", "iso-tp4", "l2tp", "ospf", "pim", "pup", "rdp", "rspf", "rsvp", "sctp", "st", "tcp",
	"udp", "udp-lite", "vmtp", "vrrp", "xns-idp", "xtp",
}
