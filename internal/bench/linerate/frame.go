package linerate

import "fmt"

// Frame sizes for UDP throughput searches. A frame here is RFC 2544's:
// the Ethernet frame from the destination MAC to the FCS inclusive (14 +
// payload + 4), without preamble, start delimiter and inter-frame gap. On
// the wire each frame costs 20 bytes more (preamble 7 + SFD 1 + IFG 12).
const (
	// FrameHeaders is what an Ethernet frame carrying IPv4/UDP holds besides
	// the UDP payload: MAC header 14 + FCS 4 + IPv4 20 + UDP 8 = 46. iperf3's
	// UDP -l is the frame size minus this.
	FrameHeaders = 14 + 4 + IPv4Header + UDPHeader
	// FrameGap is what each frame costs on the wire besides itself:
	// preamble 7 + start frame delimiter 1 + inter-frame gap 12.
	FrameGap = 8 + 12
	// MinFrame is Ethernet's minimum frame (RFC 2544's smallest size).
	MinFrame = 64
	// FrameOverMTU is how much longer a frame is than the IP packet it
	// carries: MAC header 14 + FCS 4. The largest frame for an MTU is
	// MTU + FrameOverMTU (1518 for 1500).
	FrameOverMTU = 14 + 4
)

// RFC2544FrameSizes are the frame sizes RFC 2544 section 9.1 lists for
// Ethernet, in bytes.
var RFC2544FrameSizes = []int{64, 128, 256, 512, 1024, 1280, 1518}

// UDPPayload is the iperf3 UDP -l for an IPv4 frame of frame bytes:
// frame − 46 (64 → 18, 1518 → 1472).
func UDPPayload(frame int) int { return frame - FrameHeaders }

// FramesPerSecond is the line rate in frames per second of a link of
// linkBps bits per second for frames of frame bytes: linkBps / ((frame +
// 20) × 8). 64-byte frames at 1 Gbit/s: 1e9 / 672 = 1,488,095.2.
func FramesPerSecond(linkBps float64, frame int) float64 {
	return linkBps / (float64(frame+FrameGap) * 8)
}

// FrameBitsPerSecond is the bit rate on the wire (framing and gap
// included) of fps frames of frame bytes per second.
func FrameBitsPerSecond(fps float64, frame int) float64 {
	return fps * float64(frame+FrameGap) * 8
}

// UDPBitrate is iperf3's -b for fps frames of frame bytes per second:
// iperf3 counts only the UDP payload, so a frame rate is fps × (frame −
// 46) × 8 bits per second of payload.
func UDPBitrate(fps float64, frame int) float64 {
	return fps * float64(UDPPayload(frame)) * 8
}

// CheckFrame is the rule for a frame size on a link of mtu bytes (the IP
// MTU, 1500 on plain Ethernet): MinFrame to mtu + FrameOverMTU. attr names
// the attribute for the message.
func CheckFrame(attr string, frame, mtu int) error {
	largest := mtu + FrameOverMTU
	if frame < MinFrame || frame > largest {
		return fmt.Errorf("%s %d: allowed are %d (the Ethernet minimum) to %d (MTU %d + 14 MAC header + 4 FCS)", attr, frame, MinFrame, largest, mtu)
	}
	return nil
}
