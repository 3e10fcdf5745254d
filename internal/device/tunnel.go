package device

import (
	"fmt"
	"regexp"
	"strings"
)

// Tunnels, firewall, offload and PPPoE: the platform-neutral vocabulary the
// routerlab_tunnel, routerlab_firewall, routerlab_offload and
// routerlab_pppoe_session resources share. A tunnel and a PPPoE session are
// owned objects (created and deleted by name, ErrNotFound when gone); the
// firewall and offload are settings of the whole device.

// TunnelType is the kind of a tunnel endpoint.
type TunnelType string

// The tunnel types routerlab models.
const (
	TunnelIPsec     TunnelType = "ipsec"
	TunnelL2TPIPsec TunnelType = "l2tp_ipsec"
	TunnelOpenVPN   TunnelType = "openvpn"
	TunnelWireGuard TunnelType = "wireguard"
)

// TunnelTypes lists the tunnel types, for validators and messages.
func TunnelTypes() []string {
	return []string{string(TunnelIPsec), string(TunnelL2TPIPsec), string(TunnelOpenVPN), string(TunnelWireGuard)}
}

// Roles of an endpoint that is either side of a client/server protocol.
const (
	RoleServer = "server"
	RoleClient = "client"
)

// TunnelConfig is one tunnel endpoint as a routerlab_tunnel resource
// describes it. Exactly the section of Type is set. Secrets are plain here:
// the provider fills them from the sensitive or write-only attributes, and
// no parser ever returns them.
type TunnelConfig struct {
	// Name identifies the tunnel on the device (file names, connection
	// and interface names): see ValidateObjectName.
	Name string
	Type TunnelType
	// MTU of the tunnel's interface; nil: the platform's default.
	MTU *int
	// MSSClamp clamps the MSS of TCP SYNs through the tunnel; nil: none.
	MSSClamp *MSSClamp
	// Routes are networks (CIDR) routed into the tunnel's interface, for
	// the types that have one (WireGuard, OpenVPN); IPsec routes by its
	// traffic selectors instead.
	Routes []string

	IPsec     *IPsecConfig
	L2TP      *L2TPConfig
	OpenVPN   *OpenVPNConfig
	WireGuard *WireGuardConfig
}

// MSSClamp is TCP MSS clamping: to the path MTU, or to a fixed value.
type MSSClamp struct {
	ToPMTU bool
	Value  int // bytes, when not ToPMTU
}

// String is the clamp as users write it: "pmtu" or the number.
func (m MSSClamp) String() string {
	if m.ToPMTU {
		return "pmtu"
	}
	return fmt.Sprint(m.Value)
}

// ParseMSSClamp reads "pmtu" or a number of bytes (MinMSS..MaxMSS).
func ParseMSSClamp(s string) (MSSClamp, error) {
	if s == "pmtu" {
		return MSSClamp{ToPMTU: true}, nil
	}
	var v int
	if _, err := fmt.Sscan(s, &v); err != nil || fmt.Sprint(v) != s {
		return MSSClamp{}, fmt.Errorf("mss clamp %q: want \"pmtu\" or a number of bytes from %d to %d", s, MinMSS, MaxMSS)
	}
	if v < MinMSS || v > MaxMSS {
		return MSSClamp{}, fmt.Errorf("mss clamp %d is out of range: allowed are %d to %d bytes, or \"pmtu\"", v, MinMSS, MaxMSS)
	}
	return MSSClamp{Value: v}, nil
}

// Limits shared by every platform; a platform may be narrower.
const (
	MinMSS       = 88    // IPv4 minimum MTU 68 - 40 would be 28; 88 is the Linux floor (TCP_MIN_MSS)
	MaxMSS       = 65495 // 65535 - 40
	MinTunnelMTU = 576   // IPv4 datagrams every host must accept (RFC 791); below it tunnels fragment everything
	MaxTunnelMTU = 9000
)

// ValidateMTU checks an MTU against [lo, hi], naming what it belongs to.
func ValidateMTU(what string, mtu, lo, hi int) error {
	if mtu < lo || mtu > hi {
		return fmt.Errorf("%s: mtu %d is out of range: allowed are %d to %d", what, mtu, lo, hi)
	}
	return nil
}

// IPsecConfig is an IKE/IPsec endpoint (seed 001: IKEv2 PSK site-to-site).
type IPsecConfig struct {
	IKEVersion int // 1 or 2; 0: either (IKEv2 initiates)
	// IKEProposals and ESPProposals are strongSwan-style suites,
	// "aes128-sha256-modp2048", in order of preference (see ParseProposal).
	IKEProposals []string
	ESPProposals []string
	PSK          string // secret
	Mode         string // "tunnel" (default) or "transport"
	// LocalAddress and RemoteAddress are the outer addresses; empty
	// local: any address of the device. RemoteAddress may be "%any" for a
	// responder that accepts any peer.
	LocalAddress  string
	RemoteAddress string
	// LocalID and RemoteID are IKE identities (an address, fqdn or
	// user@fqdn); empty: the outer address.
	LocalID, RemoteID string
	// LocalSubnets and RemoteSubnets are the traffic selectors (CIDR),
	// tunnel mode only; empty: the outer addresses.
	LocalSubnets, RemoteSubnets []string
	// DPDDelay is the dead-peer-detection interval in seconds; 0: off.
	DPDDelay int
	// IKELifetime and ChildLifetime in seconds; 0: the platform default.
	IKELifetime, ChildLifetime int
	// Initiate: start the tunnel at once (auto=start), else wait for the
	// peer (auto=add).
	Initiate bool
}

// IPsec modes.
const (
	ModeTunnel    = "tunnel"
	ModeTransport = "transport"
)

// L2TPConfig is an L2TP/IPsec endpoint (seed 000): L2TP in an IKEv1
// transport-mode IPsec SA, PPP inside.
type L2TPConfig struct {
	Role string // RoleServer or RoleClient
	// Server is the server's address (client only).
	Server string
	// LocalAddress is the server's PPP address; RemotePool the addresses
	// it hands out (CIDR or "first-last"), server only.
	LocalAddress string
	RemotePool   string
	MTU, MRU     *int
	User         string
	Password     string // secret
	// PSK and the proposals of the IPsec transport SA.
	PSK          string // secret
	IKEProposals []string
	ESPProposals []string
}

// OpenVPNConfig is an OpenVPN 2.x endpoint (seed 003) in routed (tun)
// mode with a static key: no PKI to manage in a lab, and what a benchmark
// measures (cipher and auth on the data channel) is the same.
type OpenVPNConfig struct {
	Role     string // RoleServer or RoleClient
	Remote   string // client: server address
	Port     int    // default 1194
	Protocol string // "udp" (default) or "tcp"
	Cipher   string // e.g. "AES-128-CBC", "AES-256-GCM"
	Auth     string // e.g. "SHA1", "SHA256"
	// LocalAddress and RemoteAddress are the tunnel's point-to-point
	// addresses (ifconfig).
	LocalAddress, RemoteAddress string
	StaticKey                   string // secret: an OpenVPN static key file's text
	// Certificate, instead of StaticKey, is TLS mode with a certificate
	// already on the device, by its name there (RouterOS: `/certificate`,
	// seed 003's cert1). RouterOS has no static-key mode; its clients log
	// in with a PPP account, User and Password (secret).
	Certificate string
	User        string
	Password    string
}

// WireGuardConfig is a WireGuard interface with its peers.
type WireGuardConfig struct {
	PrivateKey string // secret, base64
	ListenPort int    // 0: chosen by the kernel
	Addresses  []string
	Peers      []WireGuardPeer
}

// WireGuardPeer is one peer of a WireGuard interface.
type WireGuardPeer struct {
	PublicKey           string
	PresharedKey        string // secret, optional
	Endpoint            string // host:port, optional
	AllowedIPs          []string
	PersistentKeepalive int
}

// TunnelState is a tunnel as a device reports it: its configuration
// without secrets (parsers never return them). Status is separate
// (TunnelStatus, in Snapshot.Status).
type TunnelState struct {
	TunnelConfig
}

// TunnelStatus is a tunnel's operational state.
type TunnelStatus struct {
	Established bool
	// LocalAddress and RemoteAddress are the addresses inside the tunnel
	// (PPP, OpenVPN, WireGuard) or the outer ones (IPsec), as reported.
	LocalAddress, RemoteAddress string
	// Interface is the tunnel's interface, where it has one.
	Interface string
	// BytesIn and BytesOut count the traffic through the tunnel where
	// the platform reports it (EdgeOS: the IPsec SAs, rounded as `show
	// vpn ipsec sa` prints them); 0 where it does not.
	BytesIn, BytesOut uint64
}

var objectNameRE = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,14}$`)

// ValidateObjectName checks the name of an owned object (tunnel, PPPoE
// session): it becomes a file, connection and often an interface name, so
// it is short and plain on every platform.
func ValidateObjectName(name string) error {
	if !objectNameRE.MatchString(name) {
		return fmt.Errorf("name %q: want a lower-case letter, then up to 14 lower-case letters, digits, '_' or '-'", name)
	}
	return nil
}

// ValidateSecret rejects what no device CLI or config file can carry
// faithfully: empty values, newlines and other control characters, and
// (where a platform quotes with them) double quotes. The error never
// contains the secret.
func ValidateSecret(what, secret string) error {
	if secret == "" {
		return fmt.Errorf("%s is empty", what)
	}
	for i, r := range secret {
		switch {
		case r == '\n' || r == '\r':
			return fmt.Errorf("%s contains a line break (at byte %d): a secret must be one line", what, i)
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("%s contains a control character (at byte %d)", what, i)
		case r == '"':
			return fmt.Errorf("%s contains a double quote (at byte %d), which router configurations cannot quote", what, i)
		}
	}
	if len(secret) > 255 {
		return fmt.Errorf("%s is %d bytes long: at most 255 are allowed", what, len(secret))
	}
	return nil
}

// ValidateCIDRs checks that every entry is a network prefix in CIDR form.
func ValidateCIDRs(what string, list []string) error {
	for _, s := range list {
		if _, err := CanonicalPrefix(s); err != nil {
			return fmt.Errorf("%s: %q is not a network in CIDR form (e.g. 198.18.1.0/24)", what, s)
		}
	}
	return nil
}

// CanonicalCIDRs returns list with every prefix canonical (masked), for
// comparing observed with desired.
func CanonicalCIDRs(list []string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if c, err := CanonicalPrefix(s); err == nil {
			out = append(out, c)
		} else {
			out = append(out, s)
		}
	}
	return out
}

// ValidateTunnelShape checks what every platform requires of a tunnel,
// before any platform rule: a valid name, the section of its type and no
// other, proposals that parse, secrets that can be written, CIDRs that are
// CIDRs.
func ValidateTunnelShape(t TunnelConfig) error {
	if err := ValidateObjectName(t.Name); err != nil {
		return err
	}
	sections := map[TunnelType]bool{
		TunnelIPsec: t.IPsec != nil, TunnelL2TPIPsec: t.L2TP != nil,
		TunnelOpenVPN: t.OpenVPN != nil, TunnelWireGuard: t.WireGuard != nil,
	}
	if _, ok := sections[t.Type]; !ok {
		return fmt.Errorf("type %q: allowed are %s", t.Type, strings.Join(TunnelTypes(), ", "))
	}
	if !sections[t.Type] {
		return fmt.Errorf("tunnel %q of type %q needs its %q block", t.Name, t.Type, t.Type)
	}
	for _, name := range TunnelTypes() { // fixed order: one message for one input
		if TunnelType(name) != t.Type && sections[TunnelType(name)] {
			return fmt.Errorf("tunnel %q of type %q has a %q block: set only the block of its type", t.Name, t.Type, name)
		}
	}
	if t.MTU != nil {
		if err := ValidateMTU("tunnel "+t.Name, *t.MTU, MinTunnelMTU, MaxTunnelMTU); err != nil {
			return err
		}
	}
	if err := ValidateCIDRs("routes", t.Routes); err != nil {
		return err
	}
	if t.Type == TunnelIPsec && len(t.Routes) > 0 {
		return fmt.Errorf("routes: an ipsec tunnel has no interface to route into; its traffic selectors (ipsec.remote_subnets) decide what enters it")
	}
	switch t.Type {
	case TunnelIPsec:
		return validateIPsec(*t.IPsec)
	case TunnelL2TPIPsec:
		return validateL2TP(*t.L2TP)
	case TunnelOpenVPN:
		return validateOpenVPN(*t.OpenVPN)
	case TunnelWireGuard:
		return validateWireGuard(*t.WireGuard)
	}
	return nil
}

func validateIPsec(c IPsecConfig) error {
	if c.IKEVersion != 0 && c.IKEVersion != 1 && c.IKEVersion != 2 {
		return fmt.Errorf("ipsec.ike_version %d: allowed are 1 and 2", c.IKEVersion)
	}
	if err := validateProposals("ipsec.ike_proposals", c.IKEProposals, true); err != nil {
		return err
	}
	if err := validateProposals("ipsec.esp_proposals", c.ESPProposals, false); err != nil {
		return err
	}
	if err := ValidateSecret("ipsec.psk", c.PSK); err != nil {
		return err
	}
	switch c.Mode {
	case "", ModeTunnel:
	case ModeTransport:
		if len(c.LocalSubnets)+len(c.RemoteSubnets) > 0 {
			return fmt.Errorf("ipsec: local_subnets and remote_subnets are for mode \"tunnel\"; transport mode protects the outer addresses only")
		}
	default:
		return fmt.Errorf("ipsec.mode %q: allowed are \"tunnel\" and \"transport\"", c.Mode)
	}
	if c.LocalAddress != "" {
		if !IsIP(c.LocalAddress) {
			return fmt.Errorf("ipsec.local_address %q is not an IP address", c.LocalAddress)
		}
	}
	if c.RemoteAddress == "" {
		return fmt.Errorf("ipsec.remote_address is required (an IP address, or %%any for a responder)")
	}
	if c.RemoteAddress != "%any" {
		if !IsIP(c.RemoteAddress) {
			return fmt.Errorf("ipsec.remote_address %q is not an IP address or %%any", c.RemoteAddress)
		}
	}
	for what, id := range map[string]string{"ipsec.local_id": c.LocalID, "ipsec.remote_id": c.RemoteID} {
		if err := validateIKEID(what, id); err != nil {
			return err
		}
	}
	if err := ValidateCIDRs("ipsec.local_subnets", c.LocalSubnets); err != nil {
		return err
	}
	if err := ValidateCIDRs("ipsec.remote_subnets", c.RemoteSubnets); err != nil {
		return err
	}
	if c.DPDDelay < 0 || c.IKELifetime < 0 || c.ChildLifetime < 0 {
		return fmt.Errorf("ipsec: dpd_delay and lifetimes are seconds, not negative")
	}
	return nil
}

var ikeIDRE = regexp.MustCompile(`^[A-Za-z0-9._:@-]{1,253}$`)

func validateIKEID(what, id string) error {
	if id == "" || ikeIDRE.MatchString(id) {
		return nil
	}
	return fmt.Errorf("%s %q: an identity is an address, a host name or user@host (letters, digits, '.', '-', '_', ':', '@')", what, id)
}

func validateProposals(what string, list []string, ike bool) error {
	if len(list) == 0 {
		return fmt.Errorf("%s: at least one proposal is required, e.g. %q", what, exampleProposal(ike))
	}
	for _, p := range list {
		if _, err := ParseProposal(p, ike); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	return nil
}

func validateL2TP(c L2TPConfig) error {
	switch c.Role {
	case RoleServer:
		if c.LocalAddress == "" || c.RemotePool == "" {
			return fmt.Errorf("l2tp_ipsec server: local_address and remote_pool are required")
		}
		if !IsIP(c.LocalAddress) {
			return fmt.Errorf("l2tp_ipsec.local_address %q is not an IP address", c.LocalAddress)
		}
		if _, _, err := ParsePool(c.RemotePool); err != nil {
			return fmt.Errorf("l2tp_ipsec.remote_pool: %w", err)
		}
		// What the other role takes would be ignored and read back as
		// unset: a diff on every plan.
		if c.Server != "" {
			return fmt.Errorf("l2tp_ipsec.server is for a client (the server to connect to); a server answers on every address")
		}
	case RoleClient:
		if c.LocalAddress != "" || c.RemotePool != "" {
			return fmt.Errorf("l2tp_ipsec.local_address and remote_pool are for a server; a client takes the address the server assigns")
		}
		if c.Server == "" {
			return fmt.Errorf("l2tp_ipsec client: server is required")
		}
		if !IsIP(c.Server) {
			return fmt.Errorf("l2tp_ipsec.server %q is not an IP address", c.Server)
		}
	default:
		return fmt.Errorf("l2tp_ipsec.role %q: allowed are \"server\" and \"client\"", c.Role)
	}
	if err := validatePPPName("l2tp_ipsec.user", c.User); err != nil {
		return err
	}
	if err := ValidateSecret("l2tp_ipsec.password", c.Password); err != nil {
		return err
	}
	if err := ValidateSecret("l2tp_ipsec.psk", c.PSK); err != nil {
		return err
	}
	if err := validateProposals("l2tp_ipsec.ike_proposals", c.IKEProposals, true); err != nil {
		return err
	}
	if err := validateProposals("l2tp_ipsec.esp_proposals", c.ESPProposals, false); err != nil {
		return err
	}
	return validatePPPSizes("l2tp_ipsec", c.MTU, c.MRU)
}

var pppNameRE = regexp.MustCompile(`^[A-Za-z0-9._@-]{1,64}$`)

func validatePPPName(what, name string) error {
	if !pppNameRE.MatchString(name) {
		return fmt.Errorf("%s %q: want 1 to 64 letters, digits, '.', '_', '@' or '-'", what, name)
	}
	return nil
}

// PPP limits (RFC 1661: the MRU default is 1500; pppd accepts 128..16384).
const (
	MinPPPMTU = 128
	MaxPPPMTU = 16384
)

func validatePPPSizes(what string, mtu, mru *int) error {
	if mtu != nil {
		if err := ValidateMTU(what, *mtu, MinPPPMTU, MaxPPPMTU); err != nil {
			return err
		}
	}
	if mru != nil && (*mru < MinPPPMTU || *mru > MaxPPPMTU) {
		return fmt.Errorf("%s: mru %d is out of range: allowed are %d to %d", what, *mru, MinPPPMTU, MaxPPPMTU)
	}
	return nil
}

// OpenVPN ciphers and digests routerlab knows: the CBC ciphers, because a
// static key (no TLS) cannot negotiate AEAD ciphers (OpenVPN refuses GCM
// without TLS), and seed 003 compares blowfish and AES in CBC.
var (
	OpenVPNCiphers = []string{"AES-128-CBC", "AES-192-CBC", "AES-256-CBC", "BF-CBC"}
	OpenVPNDigests = []string{"SHA1", "SHA256", "SHA384", "SHA512", "MD5"}
)

func validateOpenVPN(c OpenVPNConfig) error {
	switch c.Role {
	case RoleServer:
		// A server answers whoever connects: a remote would be ignored
		// and read back as unset, a diff on every plan.
		if c.Remote != "" {
			return fmt.Errorf("openvpn.remote is for role \"client\" (the server to connect to); a server has none")
		}
	case RoleClient:
		if c.Remote == "" {
			return fmt.Errorf("openvpn client: remote is required")
		}
		if !IsIP(c.Remote) {
			return fmt.Errorf("openvpn.remote %q is not an IP address", c.Remote)
		}
	default:
		return fmt.Errorf("openvpn.role %q: allowed are \"server\" and \"client\"", c.Role)
	}
	if c.Port < 0 || c.Port > 65535 {
		return fmt.Errorf("openvpn.port %d: allowed are 1 to 65535", c.Port)
	}
	if c.Protocol != "" && c.Protocol != "udp" && c.Protocol != "tcp" {
		return fmt.Errorf("openvpn.protocol %q: allowed are \"udp\" and \"tcp\"", c.Protocol)
	}
	if !contains(OpenVPNCiphers, c.Cipher) {
		return fmt.Errorf("openvpn.cipher %q: allowed are %s", c.Cipher, strings.Join(OpenVPNCiphers, ", "))
	}
	if !contains(OpenVPNDigests, c.Auth) {
		return fmt.Errorf("openvpn.auth %q: allowed are %s", c.Auth, strings.Join(OpenVPNDigests, ", "))
	}
	for what, a := range map[string]string{"openvpn.local_address": c.LocalAddress, "openvpn.remote_address": c.RemoteAddress} {
		if !IsIP(a) {
			return fmt.Errorf("%s %q is not an IP address", what, a)
		}
	}
	if c.Certificate != "" {
		if c.StaticKey != "" {
			return fmt.Errorf("openvpn: give static_key or certificate, not both")
		}
		if err := validatePPPName("openvpn.user", c.User); err != nil {
			return err
		}
		return ValidateSecret("openvpn.password", c.Password)
	}
	if c.User != "" || c.Password != "" {
		return fmt.Errorf("openvpn.user and openvpn.password: an account is for TLS mode (with certificate); a static key has no accounts")
	}
	if err := ValidateStaticKey(c.StaticKey); err != nil {
		return err
	}
	return nil
}

var staticKeyLineRE = regexp.MustCompile(`^[0-9a-f]{32}$`)

// ValidateStaticKey checks an OpenVPN static key (`openvpn --genkey
// secret`): 16 lines of 32 hex digits between the BEGIN and END markers.
// The error never contains key material.
func ValidateStaticKey(key string) error {
	var hex int
	inside := false
	for _, line := range strings.Split(strings.TrimSpace(key), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "-----BEGIN OpenVPN Static key V1-----":
			inside = true
		case line == "-----END OpenVPN Static key V1-----":
			inside = false
		case inside && staticKeyLineRE.MatchString(line):
			hex++
		case inside:
			return fmt.Errorf("openvpn.static_key: a line inside the key is not 32 hex digits")
		}
	}
	if hex != 16 {
		return fmt.Errorf("openvpn.static_key: want an OpenVPN static key (openvpn --genkey secret FILE): 16 lines of hex between its BEGIN and END lines, found %d", hex)
	}
	return nil
}

var wgKeyRE = regexp.MustCompile(`^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw480]=$`)

// ValidateWireGuardKey checks a base64 Curve25519 key as `wg genkey` and
// `wg pubkey` print it. The error never contains the key.
func ValidateWireGuardKey(what, key string) error {
	if !wgKeyRE.MatchString(key) {
		return fmt.Errorf("%s: not a WireGuard key (44 characters of base64 as `wg genkey` prints)", what)
	}
	return nil
}

func validateWireGuard(c WireGuardConfig) error {
	if err := ValidateWireGuardKey("wireguard.private_key", c.PrivateKey); err != nil {
		return err
	}
	if c.ListenPort < 0 || c.ListenPort > 65535 {
		return fmt.Errorf("wireguard.listen_port %d: allowed are 1 to 65535", c.ListenPort)
	}
	for _, a := range c.Addresses {
		if _, err := CanonicalAddress(a); err != nil {
			return fmt.Errorf("wireguard.addresses: %q is not an address in CIDR form (e.g. 198.18.60.1/24)", a)
		}
	}
	if len(c.Peers) == 0 {
		return fmt.Errorf("wireguard: at least one peer is required")
	}
	for i, p := range c.Peers {
		if err := ValidateWireGuardKey(fmt.Sprintf("wireguard.peers[%d].public_key", i), p.PublicKey); err != nil {
			return err
		}
		if p.PresharedKey != "" {
			if err := ValidateWireGuardKey(fmt.Sprintf("wireguard.peers[%d].preshared_key", i), p.PresharedKey); err != nil {
				return err
			}
		}
		if p.Endpoint != "" {
			if err := validateEndpoint(p.Endpoint); err != nil {
				return fmt.Errorf("wireguard.peers[%d].endpoint: %w", i, err)
			}
		}
		if err := ValidateCIDRs(fmt.Sprintf("wireguard.peers[%d].allowed_ips", i), p.AllowedIPs); err != nil {
			return err
		}
		if p.PersistentKeepalive < 0 || p.PersistentKeepalive > 65535 {
			return fmt.Errorf("wireguard.peers[%d].persistent_keepalive %d: allowed are 0 to 65535 seconds", i, p.PersistentKeepalive)
		}
	}
	return nil
}

func validateEndpoint(ep string) error {
	_, err := ParseIPPort(ep)
	return err
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
