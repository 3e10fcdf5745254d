package linerate

import (
	"fmt"
	"regexp"
	"strings"
)

// ESP sizes (RFC 4303), in bytes.
const (
	// ESPHeader is the SPI 4 + sequence number 4. With extended sequence
	// numbers the high 32 bits are not sent, so ESN adds nothing.
	ESPHeader = 8
	// ESPTrailer is the pad length 1 + next header 1 that follow the
	// padding inside the encrypted part.
	ESPTrailer = 2
	// NATTHeader is the UDP header (port 4500) NAT traversal puts in front
	// of ESP (RFC 3948).
	NATTHeader = UDPHeader
)

// ESPCipher is what an ESP transform adds to each packet.
type ESPCipher struct {
	Proposal   string // normalised, e.g. "aes128-sha1"
	Encryption string // e.g. "aes128", "aes256gcm16"
	Integrity  string // e.g. "sha1"; empty for AEAD ciphers
	IV         int    // sent with every packet: 16 AES-CBC, 8 3DES/GCM/CCM/CTR/ChaCha20
	// Align is what the encrypted part (payload + padding + trailer) must
	// be a multiple of: the cipher block (16 AES-CBC, 8 3DES), else 4
	// (Linux esp4: ALIGN(blocksize, 4)).
	Align int
	ICV   int // integrity check value: HMAC-SHA1-96 12, HMAC-SHA256-128 16, GCM 16
}

// AEAD reports whether the cipher authenticates by itself (GCM, CCM,
// ChaCha20-Poly1305).
func (c ESPCipher) AEAD() bool { return c.Integrity == "" }

var (
	espAESRe      = regexp.MustCompile(`^aes(128|192|256)?(ctr|gcm|ccm)?([0-9]+)?$`)
	espRouterOSRe = regexp.MustCompile(`aes-(128|192|256)-(cbc|ctr|gcm)`)
	espIgnoreRe   = regexp.MustCompile(`^(modp[0-9]+s?[0-9]*|ecp[0-9]+(bp)?|curve25519|x25519|curve448|x448|esn|noesn)$`)
)

// espIntegrity maps strongSwan integrity names to their ICV length.
var espIntegrity = map[string]int{
	"md5": 12, "md5_96": 12, "md5_128": 16,
	"sha": 12, "sha1": 12, "sha1_96": 12, "sha1_160": 20,
	"sha256": 16, "sha2_256": 16, "sha256_128": 16, "sha2_256_128": 16,
	"sha256_96": 12, "sha2_256_96": 12,
	"sha384": 24, "sha2_384": 24, "sha384_192": 24, "sha2_384_192": 24,
	"sha512": 32, "sha2_512": 32, "sha512_256": 32, "sha2_512_256": 32,
	"aesxcbc": 12, "aescmac": 12,
}

const espCipherHelp = "encryption aes128|aes192|aes256 (CBC), aes…ctr, aes…gcm8|12|16, aes…ccm8|12|16, chacha20poly1305, 3des or null, " +
	"then integrity md5|sha1|sha256|sha384|sha512|aesxcbc unless the cipher is AEAD (gcm, ccm, chacha20poly1305); " +
	"e.g. aes128-sha1, aes256-sha256, aes128gcm16"

// ParseESPCipher reads one ESP proposal in strongSwan syntax, e.g.
// "aes128-sha1", "aes256-sha256", "aes128gcm16", "aes256gcm16-modp2048",
// "chacha20poly1305". A trailing "!" (ipsec.conf strict flag) and DH groups
// (PFS) are ignored; RouterOS names such as "aes-128-cbc" are accepted for
// the encryption part. Give the proposal actually negotiated: a list
// ("aes128-sha1,aes256-sha256") is refused.
func ParseESPCipher(s string) (ESPCipher, error) {
	orig := s
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSuffix(s, "!")
	if s == "" {
		return ESPCipher{}, fmt.Errorf("ESP cipher is required for an IPsec tunnel: %s", espCipherHelp)
	}
	if strings.ContainsAny(s, ", ") {
		return ESPCipher{}, fmt.Errorf("ESP cipher %q is a list: give the one proposal negotiated (%s)", orig, espCipherHelp)
	}
	s = espRouterOSRe.ReplaceAllStringFunc(s, func(m string) string {
		p := espRouterOSRe.FindStringSubmatch(m)
		switch p[2] {
		case "gcm":
			return "aes" + p[1] + "gcm16"
		case "ctr":
			return "aes" + p[1] + "ctr"
		default:
			return "aes" + p[1]
		}
	})
	var c ESPCipher
	var kept []string
	for _, tok := range strings.Split(s, "-") {
		if espIgnoreRe.MatchString(tok) {
			continue
		}
		if icv, ok := espIntegrity[tok]; ok {
			if c.Integrity != "" {
				return ESPCipher{}, fmt.Errorf("ESP cipher %q names two integrity algorithms (%s, %s): give the one negotiated", orig, c.Integrity, tok)
			}
			c.Integrity, c.ICV = tok, icv
			kept = append(kept, tok)
			continue
		}
		enc, ok, err := espEncryption(tok)
		if err != nil {
			return ESPCipher{}, fmt.Errorf("ESP cipher %q: %w", orig, err)
		}
		if !ok {
			return ESPCipher{}, fmt.Errorf("ESP cipher %q: algorithm %q is not known: %s", orig, tok, espCipherHelp)
		}
		if c.Encryption != "" {
			return ESPCipher{}, fmt.Errorf("ESP cipher %q names two encryption algorithms (%s, %s): give the one negotiated", orig, c.Encryption, tok)
		}
		integrity, icv := c.Integrity, c.ICV
		c = enc
		if enc.ICV > 0 { // AEAD
			if integrity != "" {
				return ESPCipher{}, fmt.Errorf("ESP cipher %q: %s is AEAD and takes no integrity algorithm (%s)", orig, tok, integrity)
			}
		} else {
			c.Integrity, c.ICV = integrity, icv
		}
		kept = append(kept, tok)
	}
	switch {
	case c.Encryption == "":
		return ESPCipher{}, fmt.Errorf("ESP cipher %q has no encryption algorithm: %s", orig, espCipherHelp)
	case c.AEAD() && c.ICV == 0:
		return ESPCipher{}, fmt.Errorf("ESP cipher %q has no integrity algorithm: %s needs one of md5, sha1, sha256, sha384, sha512, aesxcbc", orig, c.Encryption)
	case !c.AEAD() && isAEADName(c.Encryption):
		return ESPCipher{}, fmt.Errorf("ESP cipher %q: %s is AEAD and takes no integrity algorithm (%s)", orig, c.Encryption, c.Integrity)
	}
	c.Proposal = strings.Join(kept, "-")
	return c, nil
}

func isAEADName(enc string) bool {
	return strings.Contains(enc, "gcm") || strings.Contains(enc, "ccm") || enc == "chacha20poly1305"
}

// espEncryption knows the ESP encryption algorithms. ICV is set only for
// AEAD ciphers. ok is false for a token that is no encryption name.
func espEncryption(tok string) (c ESPCipher, ok bool, err error) {
	switch tok {
	case "3des":
		return ESPCipher{Encryption: tok, IV: 8, Align: 8}, true, nil
	case "null":
		return ESPCipher{Encryption: tok, IV: 0, Align: 4}, true, nil
	case "chacha20poly1305":
		return ESPCipher{Encryption: tok, IV: 8, Align: 4, ICV: 16}, true, nil
	}
	m := espAESRe.FindStringSubmatch(tok)
	if m == nil {
		return ESPCipher{}, false, nil
	}
	mode, bits := m[2], m[3]
	switch mode {
	case "": // CBC
		if bits != "" {
			return ESPCipher{}, false, nil
		}
		return ESPCipher{Encryption: tok, IV: 16, Align: 16}, true, nil
	case "ctr":
		if bits != "" {
			return ESPCipher{}, false, nil
		}
		return ESPCipher{Encryption: tok, IV: 8, Align: 4}, true, nil
	default: // gcm, ccm
		icv := 0
		switch bits {
		case "", "16", "128":
			icv = 16
		case "12", "96":
			icv = 12
		case "8", "64":
			icv = 8
		default:
			return ESPCipher{}, false, fmt.Errorf("%s: ICV length %s is not one of 8, 12, 16 (bytes) or 64, 96, 128 (bits)", tok, bits)
		}
		return ESPCipher{Encryption: tok, IV: 8, Align: 4, ICV: icv}, true, nil
	}
}

// ESPPadding is the padding ESP adds after protected bytes so that
// protected + padding + the 2-byte trailer is a multiple of align.
func ESPPadding(protected, align int) int {
	if align <= 1 {
		return 0
	}
	return (align - (protected+ESPTrailer)%align) % align
}

// espLayers is ESP's own header, IV, padding, trailer and ICV around
// protected bytes (the encrypted payload), with the encapsulated headers
// inner in between (wire order).
func espLayers(c ESPCipher, protected int, natt bool, inner ...Layer) []Layer {
	var ls []Layer
	if natt {
		ls = append(ls, Layer{"UDP (NAT-T)", NATTHeader})
	}
	ls = append(ls, Layer{"ESP header", ESPHeader})
	if c.IV > 0 {
		ls = append(ls, Layer{"ESP IV", c.IV})
	}
	ls = append(ls, inner...)
	ls = append(ls,
		Layer{"ESP padding", ESPPadding(protected, c.Align)},
		Layer{"ESP trailer", ESPTrailer},
		Layer{"ESP ICV", c.ICV},
	)
	return ls
}

// ESPTunnelOverhead is ESP in tunnel mode around an inner IPv4 packet of
// inner bytes: outer IPv4 20 [+ UDP 8 NAT-T] + ESP header 8 + IV + padding
// (inner + padding + 2 aligned to the cipher) + trailer 2 + ICV.
//
// aes128-sha1 around a 1438-byte packet (seed 001's tunnel MTU):
// 20 + 8 + 16 + 0 + 2 + 12 = 58, outer packet 1496.
func ESPTunnelOverhead(inner int, c ESPCipher, natt bool) []Layer {
	return append([]Layer{{"outer IPv4", IPv4Header}}, espLayers(c, inner, natt)...)
}

// ESPTransportOverhead is ESP in transport mode: the original IPv4 header
// stays in front and ESP protects the IP payload (inner − 20 bytes): [UDP 8
// NAT-T +] ESP header 8 + IV + padding + trailer 2 + ICV.
func ESPTransportOverhead(inner int, c ESPCipher, natt bool) []Layer {
	return espLayers(c, inner-IPv4Header, natt)
}

// L2TP/IPsec sizes, in bytes.
const (
	// L2TPv2DataHeader is the L2TPv2 data message header as Linux
	// (l2tp_core), xl2tpd and RouterOS send it: flags/version 2 + tunnel
	// ID 2 + session ID 2. The optional length field (L bit, xl2tpd
	// "length bit = yes") would add 2, sequence numbers (S bit) 4; both are
	// off by default for data messages.
	L2TPv2DataHeader = 6
	// PPPInL2TP is the PPP header inside L2TP: address/control FF 03 (2) +
	// protocol 0x0021 (2). Linux pppol2tp always sends FF 03, and neither
	// pppd over xl2tpd nor RouterOS compress the protocol field for IPv4.
	PPPInL2TP = 4
)

// L2TPIPsecOverhead is L2TP/IPsec around an inner IPv4 packet: the packet
// travels in PPP 4 + L2TPv2 6 + UDP 8 (port 1701) + IPv4 20, and ESP (in
// transport mode, the usual case and the default) protects the UDP
// datagram. With ESP in tunnel mode a further outer IPv4 header wraps the
// L2TP packet.
//
// Seed 000 (tunnel MTU 1350, aes128-sha1, transport): ESP protects
// 8 + 6 + 4 + 1350 = 1368 bytes; 1368 + 2 = 1370 pads to 1376 (padding 6);
// overhead 20 + 8 + 16 + 8 + 6 + 4 + 6 + 2 + 12 = 82, outer packet 1432.
func L2TPIPsecOverhead(inner int, c ESPCipher, mode string, natt bool) []Layer {
	l2tp := []Layer{
		{"UDP (L2TP)", UDPHeader},
		{"L2TPv2 header", L2TPv2DataHeader},
		{"PPP header", PPPInL2TP},
	}
	protected := UDPHeader + L2TPv2DataHeader + PPPInL2TP + inner
	if mode == ESPTunnelMode {
		l2tp = append([]Layer{{"IPv4 (L2TP)", IPv4Header}}, l2tp...)
		protected += IPv4Header
		return append([]Layer{{"outer IPv4", IPv4Header}}, espLayers(c, protected, natt, l2tp...)...)
	}
	return append([]Layer{{"IPv4 (L2TP)", IPv4Header}}, espLayers(c, protected, natt, l2tp...)...)
}

// WireGuard sizes (WireGuard paper §5.4.6), in bytes.
const (
	// WireGuardDataHeader is the transport data message header: type 1 +
	// reserved 3 + receiver index 4 + counter 8.
	WireGuardDataHeader = 16
	// WireGuardTag is the Poly1305 authentication tag.
	WireGuardTag = 16
	// WireGuardPadding is the multiple WireGuard pads the plaintext to.
	WireGuardPadding = 16
)

// WireGuardOverhead is WireGuard around an inner IPv4 packet: outer IPv4
// 20 + UDP 8 + data header 16 + padding to a multiple of 16 + Poly1305 tag
// 16. WireGuard never pads beyond the tunnel MTU, which this function does
// not know: a packet exactly the size of an MTU that is not a multiple of
// 16 (1420, the usual one) is not padded, so for MSS = MTU − 40 the real
// overhead is up to 15 bytes lower than computed here.
//
// MSS 1380 (inner 1420): padding 4, overhead 20 + 8 + 16 + 4 + 16 = 64.
func WireGuardOverhead(inner int) []Layer {
	return []Layer{
		{"outer IPv4", IPv4Header},
		{"UDP", UDPHeader},
		{"WireGuard header", WireGuardDataHeader},
		{"WireGuard padding", (WireGuardPadding - inner%WireGuardPadding) % WireGuardPadding},
		{"Poly1305 tag", WireGuardTag},
	}
}

// OpenVPN sizes, in bytes.
const (
	// OpenVPNOpcode is the P_DATA_V2 opcode/key ID 1 + peer ID 3 that
	// OpenVPN 2.4+ peers use. (P_DATA_V1, 1 byte, is used by old peers and
	// RouterOS v6; that is 3 bytes less.)
	OpenVPNOpcode = 4
	// OpenVPNPacketID is the 32-bit packet ID. With AEAD ciphers it is
	// the sent part of the 12-byte nonce (the other 8 come from the key
	// material and are not sent).
	OpenVPNPacketID = 4
	// OpenVPNTCPLength is the packet length OpenVPN puts in front of each
	// packet on a TCP connection.
	OpenVPNTCPLength = 2
	// DefaultOpenVPNCipher is what OpenVPN 2.6 peers negotiate first.
	DefaultOpenVPNCipher = "AES-256-GCM"
)

var openVPNAuth = map[string]int{"MD5": 16, "SHA1": 20, "SHA224": 28, "SHA256": 32, "SHA384": 48, "SHA512": 64}

const openVPNCipherHelp = "AES-128-GCM, AES-192-GCM, AES-256-GCM, CHACHA20-POLY1305, " +
	"or AES-128-CBC, AES-192-CBC, AES-256-CBC, BF-CBC, DES-EDE3-CBC with an optional /AUTH " +
	"(MD5, SHA1 (default), SHA224, SHA256, SHA384, SHA512), e.g. AES-256-CBC/SHA256"

// OpenVPNOverhead is OpenVPN (tun mode, no compression framing) around an
// inner IPv4 packet.
//
// Transport: proto "udp" (the default, "" too): outer IPv4 20 + UDP 8;
// "tcp": outer IPv4 20 + TCP 20 (+ 12 timestamps when timestamps is set:
// the tunnel's TCP connection runs on the same kind of hosts) + packet
// length 2. Over TCP several packets may share one outer segment; counting
// one outer segment per packet is the worst case.
//
// Cipher (default AES-256-GCM): AEAD ciphers add opcode/peer ID 4 +
// packet ID 4 + tag 16. CBC ciphers add opcode/peer ID 4 + HMAC (SHA1 20
// by default) + IV (the cipher block) and encrypt packet ID 4 + the packet
// with PKCS#7 padding of 1..block bytes.
//
// Not counted: the 1-byte compression header that "compress"/"comp-lzo"
// (even "no") adds, and tap mode's inner Ethernet header (14).
func OpenVPNOverhead(inner int, proto, cipher string, timestamps bool) ([]Layer, error) {
	var ls []Layer
	switch strings.ToLower(proto) {
	case "", "udp":
		ls = []Layer{{"outer IPv4", IPv4Header}, {"UDP", UDPHeader}}
	case "tcp":
		ls = []Layer{{"outer IPv4", IPv4Header}, {"outer TCP", TCPHeader}}
		if timestamps {
			ls = append(ls, Layer{"outer TCP timestamps", TCPTimestampOption})
		}
		ls = append(ls, Layer{"OpenVPN packet length", OpenVPNTCPLength})
	default:
		return nil, fmt.Errorf("OpenVPN protocol %q is not known: use \"udp\" or \"tcp\"", proto)
	}
	if cipher == "" {
		cipher = DefaultOpenVPNCipher
	}
	name, auth, hasAuth := strings.Cut(strings.ToUpper(strings.TrimSpace(cipher)), "/")
	switch name {
	case "AES-128-GCM", "AES-192-GCM", "AES-256-GCM", "CHACHA20-POLY1305":
		if hasAuth {
			return nil, fmt.Errorf("OpenVPN cipher %q: %s is AEAD and takes no /AUTH", cipher, name)
		}
		return append(ls,
			Layer{"OpenVPN opcode/peer ID", OpenVPNOpcode},
			Layer{"OpenVPN packet ID", OpenVPNPacketID},
			Layer{"AEAD tag", 16},
		), nil
	case "AES-128-CBC", "AES-192-CBC", "AES-256-CBC", "BF-CBC", "DES-EDE3-CBC":
		block := 16
		if name == "BF-CBC" || name == "DES-EDE3-CBC" {
			block = 8
		}
		if !hasAuth {
			auth = "SHA1"
		}
		hmac, ok := openVPNAuth[strings.ReplaceAll(auth, "-", "")]
		if !ok {
			return nil, fmt.Errorf("OpenVPN cipher %q: auth %q is not known: %s", cipher, auth, openVPNCipherHelp)
		}
		return append(ls,
			Layer{"OpenVPN opcode/peer ID", OpenVPNOpcode},
			Layer{"HMAC", hmac},
			Layer{"IV", block},
			Layer{"OpenVPN packet ID", OpenVPNPacketID},
			Layer{"CBC padding", block - (OpenVPNPacketID+inner)%block},
		), nil
	default:
		return nil, fmt.Errorf("OpenVPN cipher %q is not known: use %s", cipher, openVPNCipherHelp)
	}
}
