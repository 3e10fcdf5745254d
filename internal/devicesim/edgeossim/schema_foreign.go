package edgeossim

// foreignSchemaLines are paths of sections routerlab does not manage,
// added so that whole-router configurations (the testdata of
// internal/device/edgeos, read by its equivalence test of
// ParseConfig against the driver's Snapshot) load into the simulator
// as a router holding them. Same format as schemaLines.
//
// Sources: the EdgeOS lines are the paths EdgeOS 1.10/2.0 users publish
// in `show configuration commands` output (the formats named in
// internal/device/edgeos/testdata/README.md: the setup wizard's WANv6_IN,
// switch0, dns forwarding, dhcp-server static-arp, traffic-analysis,
// port-forward, dhcpv6-pd, dns dynamic, snmp, login public-keys); the
// VyOS lines name their release and source in the "#" comment above
// each group (vyos-1x interface-definitions on equuleus, sagitta, tag
// 1.4.0 and circinus; vyatta-cfg-firewall's templates for 1.3's
// firewall). A line without a release is the same on 1.3, 1.4 and 1.5
// in those files.
//
// Assumption: the values of the sections routerlab neither writes nor
// reads (snmp, ospf, console, ntp...) are checked as text (or the
// nearest kind this simulator has), not by each node's own validator:
// only the path, the value/tag shape (which decides VyOS's quoting) and
// multi-value nodes (which keep their order) matter to what `show
// configuration commands` prints back. The firewall, NAT and DHCP names
// and numbers are checked as the release's XML does (kinds.go).
var foreignSchemaLines = `
edgeos: firewall ipv6-name <rulesetname> default-action =drop|reject|accept
edgeos: firewall ipv6-name <rulesetname> description =text
edgeos: firewall ipv6-name <rulesetname> enable-default-log
edgeos: firewall ipv6-name <rulesetname> rule <rulenum> action =drop|reject|accept
edgeos: firewall ipv6-name <rulesetname> rule <rulenum> description =text
edgeos: firewall ipv6-name <rulesetname> rule <rulenum> protocol =text
edgeos: firewall ipv6-name <rulesetname> rule <rulenum> state established =enable|disable
edgeos: firewall ipv6-name <rulesetname> rule <rulenum> state related =enable|disable
edgeos: firewall ipv6-name <rulesetname> rule <rulenum> state invalid =enable|disable
edgeos: firewall group address-group <rulesetname> address +=text
edgeos: firewall group address-group <rulesetname> description =text
edgeos: firewall group network-group <rulesetname> network +=text
edgeos: interfaces ethernet <ethif> dhcpv6-pd pd <u32> interface <text> host-address =text
edgeos: interfaces ethernet <ethif> dhcpv6-pd pd <u32> interface <text> prefix-id =text
edgeos: interfaces ethernet <ethif> dhcpv6-pd pd <u32> interface <text> service =text
edgeos: interfaces ethernet <ethif> dhcpv6-pd pd <u32> prefix-length =text
edgeos: interfaces ethernet <ethif> dhcpv6-pd rapid-commit =enable|disable
edgeos: interfaces switch <text> address +=ifaddr
edgeos: interfaces switch <text> description =text
edgeos: interfaces switch <text> mtu =mtu
edgeos: interfaces switch <text> switch-port interface <text>
edgeos: interfaces switch <text> switch-port vlan-aware =enable|disable
edgeos: interfaces switch <text> vif <vlan> address +=ifaddr
edgeos: interfaces switch <text> vif <vlan> description =text
edgeos: port-forward auto-firewall =enable|disable
edgeos: port-forward hairpin-nat =enable|disable
edgeos: port-forward lan-interface +=text
edgeos: port-forward wan-interface =text
edgeos: port-forward rule <rulenum> description =text
edgeos: port-forward rule <rulenum> forward-to address =text
edgeos: port-forward rule <rulenum> forward-to port =text
edgeos: port-forward rule <rulenum> original-port =text
edgeos: port-forward rule <rulenum> protocol =text
edgeos: protocols static route6 <ipv6net> next-hop <ip> interface =text
edgeos: protocols static route6 <ipv6net> next-hop <ip> description =text
edgeos: service dhcp-server static-arp =enable|disable
edgeos: service dns forwarding cache-size =u32
edgeos: service dns forwarding listen-on +=text
edgeos: service dns forwarding name-server +=text
edgeos: service dns dynamic interface <text> service <text> host-name +=text
edgeos: service dns dynamic interface <text> service <text> login =text
edgeos: service dns dynamic interface <text> service <text> password =text
edgeos: service dns dynamic interface <text> service <text> server =text
edgeos: service dns dynamic interface <text> service <text> protocol =text
edgeos: service snmp community <text> authorization =ro|rw
edgeos: service snmp community <text> client +=text
edgeos: service snmp contact =text
edgeos: service snmp listen-address <text>
edgeos: service snmp location =text
edgeos: service ssh disable-password-authentication
edgeos: system ipv6 disable-forwarding
edgeos: system traffic-analysis dpi =enable|disable
edgeos: system traffic-analysis export =enable|disable
system login user <username> authentication public-keys <text> key =text
system login user <username> authentication public-keys <text> type =text

# VyOS 1.4 and 1.5's firewall: sagitta (tag 1.4.0 alike) and circinus
# firewall.xml.in and its includes under include/firewall/:
# global-options.xml.i; ipv4-custom-name.xml.i ("ipv4 name", the name
# [a-zA-Z0-9][\w\-\.]*, default-action.xml.i's
# drop|jump|reject|return|accept|continue); ipv4-hook-forward.xml.i and
# ipv4-hook-input.xml.i ("ipv4 forward filter", "ipv4 input filter",
# default-action-base-chains.xml.i's drop|accept); rules 1-999999;
# action.xml.i / action-forward.xml.i; default-log.xml.i and log.xml.i
# valueless and state.xml.i one multi-value leaf of
# established|invalid|new|related (sagitta migration firewall/12-to-13,
# T5729, backported before tag 1.4.0: 1.4.0 has them as the branch head
# has). 1.3 has none of these (schema.go).
vyos@1.4+: firewall global-options all-ping =enable|disable
vyos@1.4+: firewall global-options broadcast-ping =enable|disable
vyos@1.4+: firewall global-options ip-src-route =enable|disable
vyos@1.4+: firewall global-options ipv6-receive-redirects =enable|disable
vyos@1.4+: firewall global-options ipv6-src-route =enable|disable
vyos@1.4+: firewall global-options log-martians =enable|disable
vyos@1.4+: firewall global-options receive-redirects =enable|disable
vyos@1.4+: firewall global-options send-redirects =enable|disable
vyos@1.4+: firewall global-options source-validation =strict|loose|disable
vyos@1.4+: firewall global-options syn-cookies =enable|disable
vyos@1.4+: firewall ipv4 name <fwname14> default-action =drop|jump|reject|return|accept|continue
vyos@1.4+: firewall ipv4 name <fwname14> default-log
vyos@1.4+: firewall ipv4 name <fwname14> description =text
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> action =accept|continue|jump|reject|return|drop|queue|offload|synproxy
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> description =text
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> log
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> state +=established|invalid|new|related
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> protocol =text
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> destination port =text
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> destination address =text
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> source address =text
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> source port =text
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> inbound-interface name =vyosifmatch
vyos@1.4+: firewall ipv4 name <fwname14> rule <vyosrule> jump-target =fwname14
vyos@1.4+: firewall ipv4 forward filter default-action =drop|accept
vyos@1.4+: firewall ipv4 forward filter default-log
vyos@1.4+: firewall ipv4 forward filter description =text
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> action =accept|continue|jump|reject|return|drop|queue|offload|synproxy
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> description =text
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> log
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> state +=established|invalid|new|related
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> protocol =text
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> destination port =text
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> destination address =text
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> source address =text
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> inbound-interface name =vyosifmatch
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> outbound-interface name =vyosifmatch
vyos@1.4+: firewall ipv4 forward filter rule <vyosrule> jump-target =fwname14
vyos@1.4+: firewall ipv4 input filter default-action =drop|accept
vyos@1.4+: firewall ipv4 input filter default-log
vyos@1.4+: firewall ipv4 input filter description =text
vyos@1.4+: firewall ipv4 input filter rule <vyosrule> action =accept|continue|jump|reject|return|drop|queue|offload|synproxy
vyos@1.4+: firewall ipv4 input filter rule <vyosrule> description =text
vyos@1.4+: firewall ipv4 input filter rule <vyosrule> log
vyos@1.4+: firewall ipv4 input filter rule <vyosrule> state +=established|invalid|new|related
vyos@1.4+: firewall ipv4 input filter rule <vyosrule> protocol =text
vyos@1.4+: firewall ipv4 input filter rule <vyosrule> destination port =text
vyos@1.4+: firewall ipv4 input filter rule <vyosrule> destination address =text
vyos@1.4+: firewall ipv4 input filter rule <vyosrule> source address =text
vyos@1.4+: firewall ipv4 input filter rule <vyosrule> inbound-interface name =vyosifmatch
vyos@1.4+: firewall ipv4 input filter rule <vyosrule> jump-target =fwname14
vyos: protocols ospf area <u32> network +=text
vyos: protocols ospf interface <text> authentication md5 key-id <u32> md5-key =text
vyos: protocols ospf interface <text> passive
vyos: protocols ospf parameters router-id =ipv4
# VyOS DHCP server: equuleus dhcp-server.xml.in, sagitta (tag 1.4.0
# alike) and circinus service_dhcp-server.xml.in. All three have a
# valueless "authoritative", "range <name> start|stop" and "lease".
# The range is a tag of a NAME, not a number: 1.3 allows
# [-_a-zA-Z0-9.]+, 1.4 and 1.5
# include/constraint/alpha-numeric-hyphen-underscore-dot.xml.i's
# [-_a-zA-Z0-9][\w\-\.\+]* (so "range guests" is a 1.4 range), the
# shared network likewise. 1.3 and 1.4 put default-router, name-server
# (multi) and domain-name right under the subnet and name a static
# mapping's MAC "mac-address"; 1.5 (Kea) moves them under "option", names
# it "mac", makes the static mapping's name a host name (fqdn validator)
# and adds "subnet-id" (its conf script refuses a subnet without one: a
# commit check, not modelled here). sagitta's smoketest/config-tests
# files print 1.5's "option" lines, but no sagitta test reads them (they
# came with backports); the XML is what 1.4 takes.
vyos: service dhcp-server shared-network-name <dhcpnet> authoritative
vyos: service dhcp-server shared-network-name <dhcpnet> description =text
vyos: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> lease =u32
vyos: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> range <dhcpname> start =ipv4
vyos: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> range <dhcpname> stop =ipv4
vyos: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> static-mapping <dhcpmapping> ip-address =ipv4
vyos@1.3-1.4: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> default-router =ipv4
vyos@1.3-1.4: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> name-server +=ipv4
vyos@1.3-1.4: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> domain-name =text
vyos@1.3-1.4: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> static-mapping <dhcpmapping> mac-address =text
vyos@1.5: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> option default-router =ipv4
vyos@1.5: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> option name-server +=ipv4
vyos@1.5: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> option domain-name =text
vyos@1.5: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> static-mapping <dhcpmapping> mac =text
vyos@1.5: service dhcp-server shared-network-name <dhcpnet> subnet <ipv4net> subnet-id =u32
vyos: service dns forwarding allow-from +=text
vyos: service dns forwarding listen-address +=ip
vyos@1.4+: service ntp allow-client address +=text
vyos@1.4+: service ntp server <text>
vyos: service snmp community <text> authorization =ro|rw
vyos: service snmp community <text> network +=text
vyos: service snmp contact =text
vyos: service snmp location =text
vyos: system config-management commit-revisions =u32
vyos: system console device <text> speed =u32
vyos: system syslog local facility <text> level =text
`
