// Package linerate computes the theoretical TCP goodput of a link: the
// ceiling a router benchmark can reach when the router is not the
// bottleneck. It is pure arithmetic over the bytes each full-size TCP
// segment costs on the wire:
//
//	goodput = link rate × payload / wire bytes per segment
//	payload = MSS − 12 with TCP timestamps (Linux default), MSS without
//	wire    = MSS + 40 (IPv4 20 + TCP 20) + tunnel overhead
//	          [+ 8 PPPoE] [+ 4 VLAN] + 38 Ethernet framing
//
// 38 = preamble and start delimiter 8 + MAC header 14 + FCS 4 + inter-frame
// gap 12. On 1 GbE with MSS 1460 and timestamps that is 1000 × 1448 / 1538
// = 941.48 Mbit/s: the 942 the seeds measure through a router that keeps up.
//
// The MSS here is the value given to iperf3 -M, i.e. the MSS option the SYN
// carries, which includes the 12 bytes of timestamp option each segment
// then spends. Every overhead is a named function below so that a report
// can show where each byte goes. Everything is IPv4; the path is assumed
// not to fragment (see [Breakdown.IPPacket] to check that against an MTU).
package linerate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// Fixed sizes, in bytes.
const (
	// EthernetFraming is what every Ethernet frame costs besides its
	// payload: preamble 7 + start frame delimiter 1, destination and source
	// MAC 12 + EtherType 2, FCS 4, and the 12-byte inter-frame gap.
	EthernetFraming = 8 + 14 + 4 + 12
	// VLANTag is the 802.1Q tag inserted into the MAC header.
	VLANTag = 4
	// PPPoEHeader is the PPPoE session header 6 + the PPP protocol field 2
	// (RFC 2516: PPPoE carries no PPP address/control bytes). This is why
	// a PPPoE MTU is 1492 and, with an MSS clamp, often 1454/1414.
	PPPoEHeader = 6 + 2
	// IPv4Header is an IPv4 header without options.
	IPv4Header = 20
	// TCPHeader is a TCP header without options.
	TCPHeader = 20
	// TCPTimestampOption is the timestamp option padded to 4 bytes
	// (NOP NOP + kind 8, length 10): Linux sends it in every segment when
	// both ends enable it (net.ipv4.tcp_timestamps=1, the default).
	TCPTimestampOption = 12
	// UDPHeader is a UDP header.
	UDPHeader = 8

	// MinMSS is Linux's TCP_MIN_MSS: smaller values are refused by
	// setsockopt(TCP_MAXSEG).
	MinMSS = 88
	// MaxMSS is the largest MSS accepted here: a 9000-byte jumbo frame.
	MaxMSS = 9000
)

// Layer is one header, trailer or padding that a tunnel or link adds to
// every segment.
type Layer struct {
	Name  string // e.g. "outer IPv4", "ESP padding"
	Bytes int
}

// Breakdown is what one full-size TCP segment costs on the wire.
type Breakdown struct {
	Payload      int // application bytes: MSS − TCPOptions
	TCPOptions   int // 12 with timestamps, else 0
	TCPIPHeaders int // IPv4 20 + TCP 20
	// Tunnel lists what the tunnel adds, in the order the bytes appear on
	// the wire (outer headers first, then trailers such as ESP padding and
	// ICV). Empty without a tunnel.
	Tunnel   []Layer
	PPPoE    int // PPPoEHeader or 0
	VLAN     int // VLANTag or 0
	Ethernet int // EthernetFraming
}

// InnerPacket is the IPv4 packet the TCP endpoints send: MSS + 40.
func (b Breakdown) InnerPacket() int { return b.Payload + b.TCPOptions + b.TCPIPHeaders }

// TunnelBytes is the sum of the tunnel layers.
func (b Breakdown) TunnelBytes() int {
	n := 0
	for _, l := range b.Tunnel {
		n += l.Bytes
	}
	return n
}

// IPPacket is the packet that must fit the link MTU: the inner packet plus
// the tunnel (without PPPoE, VLAN and Ethernet). A PPPoE link's MTU is the
// Ethernet MTU minus PPPoEHeader.
func (b Breakdown) IPPacket() int { return b.InnerPacket() + b.TunnelBytes() }

// Wire is the bytes one segment occupies on the link, framing and
// inter-frame gap included.
func (b Breakdown) Wire() int { return b.IPPacket() + b.PPPoE + b.VLAN + b.Ethernet }

// Overheads lists every non-payload part in wire order, outermost first,
// for explanations.
func (b Breakdown) Overheads() []Layer {
	ls := []Layer{{"Ethernet framing", b.Ethernet}}
	if b.VLAN > 0 {
		ls = append(ls, Layer{"802.1Q tag", b.VLAN})
	}
	if b.PPPoE > 0 {
		ls = append(ls, Layer{"PPPoE + PPP", b.PPPoE})
	}
	ls = append(ls, b.Tunnel...)
	ls = append(ls, Layer{"IPv4 + TCP headers", b.TCPIPHeaders})
	if b.TCPOptions > 0 {
		ls = append(ls, Layer{"TCP timestamps", b.TCPOptions})
	}
	return ls
}

// String explains the sum from the inside out: the segment, then the
// tunnel's layers in wire order, then the link, e.g. "payload 1448 + TCP
// timestamps 12 + IPv4 + TCP headers 40 + Ethernet framing 38 = 1538
// bytes".
func (b Breakdown) String() string {
	parts := []string{fmt.Sprintf("payload %d", b.Payload)}
	add := func(name string, n int) { parts = append(parts, fmt.Sprintf("%s %d", name, n)) }
	if b.TCPOptions > 0 {
		add("TCP timestamps", b.TCPOptions)
	}
	add("IPv4 + TCP headers", b.TCPIPHeaders)
	for _, l := range b.Tunnel {
		add(l.Name, l.Bytes)
	}
	if b.PPPoE > 0 {
		add("PPPoE + PPP", b.PPPoE)
	}
	if b.VLAN > 0 {
		add("802.1Q tag", b.VLAN)
	}
	add("Ethernet framing", b.Ethernet)
	return strings.Join(parts, " + ") + fmt.Sprintf(" = %d bytes", b.Wire())
}

// Result is the theoretical goodput for one link, MSS and encapsulation.
type Result struct {
	LinkMbps    float64
	MSS         int
	GoodputMbps float64 // LinkMbps × Payload / Wire
	Breakdown
}

// Efficiency is the payload's share of the wire bytes, 0..1.
func (r Result) Efficiency() float64 { return float64(r.Payload) / float64(r.Wire()) }

// PacketsPerSecond is the segment rate at line rate.
func (r Result) PacketsPerSecond() float64 { return r.LinkMbps * 1e6 / 8 / float64(r.Wire()) }

// Formula is the computation in one line, e.g.
// "1000 Mbit/s × 1448 / 1538 = 941.5 Mbit/s".
func (r Result) Formula() string {
	return fmt.Sprintf("%s Mbit/s × %d / %d = %.1f Mbit/s", trimFloat(r.LinkMbps), r.Payload, r.Wire(), r.GoodputMbps)
}

// Goodput is the theoretical TCP goodput in Mbit/s of a link of linkMbps
// carrying full-size segments of the given MSS (the iperf3 -M value)
// wrapped in e.
func Goodput(linkMbps float64, mss int, e bench.Encapsulation) (Result, error) {
	if math.IsNaN(linkMbps) || math.IsInf(linkMbps, 0) || linkMbps <= 0 {
		return Result{}, fmt.Errorf("link speed %v Mbit/s is invalid: it must be a positive number", linkMbps)
	}
	b, err := Overhead(mss, e)
	if err != nil {
		return Result{}, err
	}
	return Result{
		LinkMbps:    linkMbps,
		MSS:         mss,
		GoodputMbps: linkMbps * float64(b.Payload) / float64(b.Wire()),
		Breakdown:   b,
	}, nil
}

// Overhead is the per-segment breakdown for an MSS and an encapsulation,
// independent of the link speed.
func Overhead(mss int, e bench.Encapsulation) (Breakdown, error) {
	if mss < MinMSS || mss > MaxMSS {
		return Breakdown{}, fmt.Errorf("MSS %d is out of range: it must be between %d (Linux TCP_MIN_MSS) and %d (jumbo frame)", mss, MinMSS, MaxMSS)
	}
	b := Breakdown{
		Payload:      mss,
		TCPIPHeaders: IPv4Header + TCPHeader,
		Ethernet:     EthernetFraming,
	}
	if e.Timestamps {
		b.TCPOptions = TCPTimestampOption
		b.Payload -= TCPTimestampOption
	}
	if e.VLAN {
		b.VLAN = VLANTag
	}
	if e.PPPoE {
		b.PPPoE = PPPoEHeader
	}
	t, err := TunnelOverhead(b.InnerPacket(), e)
	if err != nil {
		return Breakdown{}, err
	}
	b.Tunnel = t
	return b, nil
}

// DefaultMSS converts the MSS iperf3 reports for a test without -M
// (start.tcp_mss_default) to the -M scale used everywhere else. iperf3
// reads it with getsockopt(TCP_MAXSEG) on the connected control socket,
// where Linux returns the effective segment size with the timestamp
// option already taken off: 1448 on a 1500-byte Ethernet path ("TCP MSS:
// 1448 (default)"), which is MSS 1460 in -M terms.
func DefaultMSS(reported int, timestamps bool) int {
	if reported <= 0 || !timestamps {
		return reported
	}
	return reported + TCPTimestampOption
}

// Validate checks an encapsulation without computing anything: the tunnel
// kind, ESP cipher and mode, OpenVPN protocol and cipher. Fields that
// belong to another tunnel kind are ignored.
func Validate(e bench.Encapsulation) error {
	_, err := TunnelOverhead(1500, e)
	return err
}

// Tunnel kinds of bench.Encapsulation.Tunnel.
const (
	TunnelNone      = ""
	TunnelIPsec     = "ipsec"
	TunnelL2TPIPsec = "l2tp_ipsec"
	TunnelWireGuard = "wireguard"
	TunnelOpenVPN   = "openvpn"
)

// ESP modes of bench.Encapsulation.ESPMode.
const (
	ESPTunnelMode    = "tunnel"
	ESPTransportMode = "transport"
)

// TunnelOverhead is what e's tunnel adds around an inner IPv4 packet of
// inner bytes, in wire order. It is empty without a tunnel.
func TunnelOverhead(inner int, e bench.Encapsulation) ([]Layer, error) {
	switch e.Tunnel {
	case TunnelNone:
		return nil, nil
	case TunnelIPsec:
		c, err := ParseESPCipher(e.ESPCipher)
		if err != nil {
			return nil, err
		}
		mode, err := espMode(e.ESPMode, ESPTunnelMode)
		if err != nil {
			return nil, err
		}
		if mode == ESPTunnelMode {
			return ESPTunnelOverhead(inner, c, e.NATT), nil
		}
		return ESPTransportOverhead(inner, c, e.NATT), nil
	case TunnelL2TPIPsec:
		c, err := ParseESPCipher(e.ESPCipher)
		if err != nil {
			return nil, err
		}
		mode, err := espMode(e.ESPMode, ESPTransportMode)
		if err != nil {
			return nil, err
		}
		return L2TPIPsecOverhead(inner, c, mode, e.NATT), nil
	case TunnelWireGuard:
		return WireGuardOverhead(inner), nil
	case TunnelOpenVPN:
		return OpenVPNOverhead(inner, e.OpenVPNProto, e.OpenVPNCipher, e.Timestamps)
	default:
		return nil, fmt.Errorf("tunnel %q is not known: use one of \"\" (none), %q, %q, %q, %q",
			e.Tunnel, TunnelIPsec, TunnelL2TPIPsec, TunnelWireGuard, TunnelOpenVPN)
	}
}

func espMode(mode, def string) (string, error) {
	switch mode {
	case "":
		return def, nil
	case ESPTunnelMode, ESPTransportMode:
		return mode, nil
	default:
		return "", fmt.Errorf("ESP mode %q is not known: use %q or %q", mode, ESPTunnelMode, ESPTransportMode)
	}
}

// Describe names an encapsulation for a report header, e.g.
// "Ethernet, PPPoE, TCP timestamps" or "Ethernet, L2TP/IPsec (ESP
// transport aes128-sha1), TCP timestamps".
func Describe(e bench.Encapsulation) string {
	parts := []string{"Ethernet"}
	if e.VLAN {
		parts = append(parts, "802.1Q VLAN")
	}
	if e.PPPoE {
		parts = append(parts, "PPPoE")
	}
	natt := ""
	if e.NATT {
		natt = ", NAT-T"
	}
	switch e.Tunnel {
	case TunnelIPsec:
		mode, _ := espMode(e.ESPMode, ESPTunnelMode)
		parts = append(parts, fmt.Sprintf("IPsec (ESP %s %s%s)", mode, e.ESPCipher, natt))
	case TunnelL2TPIPsec:
		mode, _ := espMode(e.ESPMode, ESPTransportMode)
		parts = append(parts, fmt.Sprintf("L2TP/IPsec (ESP %s %s%s)", mode, e.ESPCipher, natt))
	case TunnelWireGuard:
		parts = append(parts, "WireGuard")
	case TunnelOpenVPN:
		proto, cipher := e.OpenVPNProto, e.OpenVPNCipher
		if proto == "" {
			proto = "udp"
		}
		if cipher == "" {
			cipher = DefaultOpenVPNCipher
		}
		parts = append(parts, fmt.Sprintf("OpenVPN (%s, %s)", proto, cipher))
	case TunnelNone:
	default:
		parts = append(parts, e.Tunnel)
	}
	if e.Timestamps {
		parts = append(parts, "TCP timestamps")
	} else {
		parts = append(parts, "no TCP timestamps")
	}
	return strings.Join(parts, ", ")
}

// DescribePlan is Describe for a plan's path: a UDP run carries no TCP
// segments, so its encapsulation is named without the TCP timestamps
// option, which would otherwise read as if it had been counted.
func DescribePlan(p bench.Plan) string {
	d := Describe(p.Encapsulation)
	if p.Protocol == bench.UDP {
		d = strings.TrimSuffix(strings.TrimSuffix(d, ", no TCP timestamps"), ", TCP timestamps")
	}
	return d
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func pppoeBytes(e bench.Encapsulation) int {
	if e.PPPoE {
		return PPPoEHeader
	}
	return 0
}

// EthernetMTU is the IP MTU of a plain Ethernet link.
const EthernetMTU = 1500

// UDPGoodput is the theoretical UDP goodput in Mbit/s of a link of linkMbps
// carrying datagrams of length bytes of payload (iperf3 -l) wrapped in e.
// A datagram larger than the path MTU leaves the sender as IP fragments,
// each with its own IP header and Ethernet framing, so the ceiling drops
// in steps as the length crosses multiples of the fragment size.
func UDPGoodput(linkMbps float64, length int, e bench.Encapsulation) (float64, error) {
	if math.IsNaN(linkMbps) || math.IsInf(linkMbps, 0) || linkMbps <= 0 {
		return 0, fmt.Errorf("link speed %v Mbit/s is invalid: it must be a positive number", linkMbps)
	}
	if length < 1 || length > bench.MaxLength-IPv4Header-UDPHeader {
		return 0, fmt.Errorf("UDP length %d is out of range 1..%d", length, bench.MaxLength-IPv4Header-UDPHeader)
	}
	link := EthernetFraming
	if e.VLAN {
		link += VLANTag
	}
	mtu := EthernetMTU
	if e.PPPoE {
		link += PPPoEHeader
		mtu -= PPPoEHeader
	}
	ipPayload := UDPHeader + length
	if e.Tunnel != "" {
		// Fragmentation inside a tunnel depends on where the tunnel
		// fragments (inner or outer); model only what fits in one packet.
		inner := IPv4Header + ipPayload
		t, err := TunnelOverhead(inner, e)
		if err != nil {
			return 0, err
		}
		wire := inner + link
		for _, l := range t {
			wire += l.Bytes
		}
		if wire-link > mtu {
			return 0, fmt.Errorf("UDP length %d does not fit one packet through the %s tunnel (%d bytes > MTU %d): fragmented tunnel traffic is not modelled", length, e.Tunnel, wire-link, mtu)
		}
		return linkMbps * float64(length) / float64(wire), nil
	}
	// Every fragment but the last carries the largest multiple of 8 bytes
	// of the IP payload that fits the MTU (RFC 791 fragment offsets).
	perFragment := (mtu - IPv4Header) / 8 * 8
	// Short frames are padded to Ethernet's 64-byte minimum (46 bytes of
	// payload, 42 with an 802.1Q tag).
	minPayload := 46
	if e.VLAN {
		minPayload -= VLANTag
	}
	wire := 0
	for left := ipPayload; left > 0; left -= perFragment {
		wire += max(IPv4Header+min(left, perFragment)+pppoeBytes(e), minPayload) - pppoeBytes(e) + link
	}
	return linkMbps * float64(length) / float64(wire), nil
}
