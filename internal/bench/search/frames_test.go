package search

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// frameDevice forwards at most maxFPS frames per second whatever their
// size (a CPU-bound router), so small frames hit its limit first.
type frameDevice struct{ maxFPS float64 }

func (d frameDevice) build(frame int) (Trial, string, error) {
	wire := float64(frame+20) * 8
	return func(_ context.Context, rate float64, dur time.Duration) (TrialResult, error) {
		sent := math.Round(rate * dur.Seconds() / wire)
		fwd := math.Min(sent, math.Floor(d.maxFPS*dur.Seconds()))
		return TrialResult{SentFrames: int64(sent), LostFrames: int64(sent - fwd)}, nil
	}, "test_pacing", nil
}

func TestFrameSizes(t *testing.T) {
	// 300,000 fps: 64-byte frames at 1 Gbit/s would be 1,488,095 fps
	// (20.16 %); 1518-byte frames only reach 81,274 fps, all of the line rate.
	res, err := FrameSizes(context.Background(), nil, frameDevice{maxFPS: 300000}.build, Options{LineRateBps: gig, Duration: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 7 || res[0].Frame != 64 || res[6].Frame != 1518 {
		t.Fatalf("frames %+v, want RFC 2544's seven", res)
	}
	r64 := res[0]
	// The result lies within 1 % of the line rate (10 Mbit/s = 14,881 fps of 64 bytes) below the capacity.
	if r64.Outcome != Found || r64.FramesPerSecond > 300000.5 || r64.FramesPerSecond < 300000-14882 {
		t.Errorf("64 bytes: %.0f fps, want 285,119..300,000", r64.FramesPerSecond)
	}
	if want := 100 * r64.FramesPerSecond / 1488095.238; math.Abs(r64.LineRatePercent-want) > 1e-6 || r64.LineRatePercent > 20.17 {
		t.Errorf("64 bytes: %.3f %% of the line rate, want %.3f", r64.LineRatePercent, want)
	}
	if want := r64.FramesPerSecond * 18 * 8 / 1e6; math.Abs(r64.PayloadMbps-want) > 1e-9 || math.Abs(r64.WireMbps-r64.FramesPerSecond*84*8/1e6) > 1e-9 {
		t.Errorf("64 bytes: payload %.3f wire %.3f Mbit/s", r64.PayloadMbps, r64.WireMbps)
	}
	r1518 := res[6]
	if r1518.Outcome != Found || r1518.LineRatePercent != 100 || r1518.WireMbps != 1000 || r1518.Pacing != "test_pacing" {
		t.Errorf("1518 bytes: %+v, want the line rate", r1518)
	}
	boom := errors.New("no iperf3")
	res, err = FrameSizes(context.Background(), []int{64, 128}, func(f int) (Trial, string, error) {
		if f == 128 {
			return nil, "", boom
		}
		return frameDevice{maxFPS: 1e9}.build(f)
	}, Options{LineRateBps: gig})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "frame size 128") || len(res) != 1 {
		t.Errorf("a failing builder: %v, %d results", err, len(res))
	}
}
