package linerate

import (
	"math"
	"strings"
	"testing"
)

func TestFrameArithmetic(t *testing.T) {
	// Hand-computed: wire bytes = frame + 20; fps = 1e9 / (wire × 8).
	for _, c := range []struct {
		frame   int
		payload int
		fps     float64 // at 1 Gbit/s
	}{
		{64, 18, 1488095.238},   // 1e9 / 672
		{128, 82, 844594.595},   // 1e9 / 1184
		{256, 210, 452898.551},  // 1e9 / 2208
		{512, 466, 234962.406},  // 1e9 / 4256
		{1024, 978, 119731.801}, // 1e9 / 8352
		{1280, 1234, 96153.846}, // 1e9 / 10400
		{1518, 1472, 81274.382}, // 1e9 / 12304
	} {
		if got := UDPPayload(c.frame); got != c.payload {
			t.Errorf("UDPPayload(%d) = %d, want %d", c.frame, got, c.payload)
		}
		if got := FramesPerSecond(1e9, c.frame); math.Abs(got-c.fps) > 0.001 {
			t.Errorf("FramesPerSecond(1G, %d) = %.3f, want %.3f", c.frame, got, c.fps)
		}
		if got := FrameBitsPerSecond(c.fps, c.frame); math.Abs(got-1e9) > 10 {
			t.Errorf("FrameBitsPerSecond(%.3f, %d) = %.0f, want 1e9", c.fps, c.frame, got)
		}
	}
	if got := math.Floor(FramesPerSecond(1e9, 64)); got != 1488095 {
		t.Errorf("64-byte frames at 1 Gbit/s = %.0f fps, want 1,488,095", got)
	}
	if got := math.Floor(FramesPerSecond(100e6, 64)); got != 148809 {
		t.Errorf("64-byte frames at 100 Mbit/s = %.0f fps, want 148,809", got)
	}
	// 1000 fps of 64-byte frames: 18 bytes of payload each = 144 kbit/s for iperf3 -b.
	if got := UDPBitrate(1000, 64); got != 144000 {
		t.Errorf("UDPBitrate(1000, 64) = %v, want 144000", got)
	}
	if len(RFC2544FrameSizes) != 7 || RFC2544FrameSizes[0] != 64 || RFC2544FrameSizes[6] != 1518 {
		t.Errorf("RFC2544FrameSizes = %v", RFC2544FrameSizes)
	}
}

func TestCheckFrame(t *testing.T) {
	for _, ok := range []struct{ frame, mtu int }{{64, 1500}, {1518, 1500}, {1510, 1492}, {9018, 9000}} {
		if err := CheckFrame("frame_sizes", ok.frame, ok.mtu); err != nil {
			t.Errorf("CheckFrame(%d, MTU %d): %v", ok.frame, ok.mtu, err)
		}
	}
	for _, bad := range []struct {
		frame, mtu int
		want       string
	}{
		{63, 1500, "frame_sizes 63: allowed are 64 (the Ethernet minimum) to 1518"},
		{0, 1500, "frame_sizes 0"},
		{1519, 1500, "frame_sizes 1519: allowed are 64 (the Ethernet minimum) to 1518 (MTU 1500"},
		{1511, 1492, "to 1510 (MTU 1492"},
	} {
		err := CheckFrame("frame_sizes", bad.frame, bad.mtu)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("CheckFrame(%d, MTU %d) = %v, want it to say %q", bad.frame, bad.mtu, err, bad.want)
		}
	}
}
