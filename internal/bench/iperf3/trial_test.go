package iperf3

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

func TestParseFeatures(t *testing.T) {
	// iperf3 3.12 on Debian 12, as this machine prints it.
	text := "iperf 3.12 (cJSON 1.7.15)\nLinux vm 6.18.44 #1 SMP PREEMPT_DYNAMIC @0 x86_64\n" +
		"Optional features available: CPU affinity setting, IPv6 flow label, SCTP, TCP congestion algorithm setting, sendfile / zerocopy, socket pacing, authentication, bind to device, support IPv4 don't fragment\n"
	f, err := parseFeatures(text)
	if err != nil || f.Version != "3.12" || !f.SocketPacing {
		t.Errorf("parseFeatures = %+v, %v; want 3.12 with socket pacing", f, err)
	}
	f, err = parseFeatures(strings.Replace(text, "socket pacing, ", "", 1))
	if err != nil || f.SocketPacing {
		t.Errorf("without socket pacing: %+v, %v", f, err)
	}
	if _, err := parseFeatures("iperf version 2.1.8"); err == nil {
		t.Error("iperf2 accepted")
	}
}

func TestClientCommandFQRate(t *testing.T) {
	o := ClientOptions{Target: "198.18.0.2", Port: 5201, Duration: time.Second, Length: 18, Protocol: bench.UDP, UDPBitrate: "1000", FQRate: "1000"}
	got, err := ClientCommand(o)
	if want := "iperf3 -c 198.18.0.2 -p 5201 -J -t 1 -O 0 -l 18 -u -b 1000 --fq-rate 1000 --connect-timeout 3000"; err != nil || got != want {
		t.Errorf("ClientCommand = %q, %v; want %q", got, err, want)
	}
	o.FQRate = "1000; reboot"
	if _, err := ClientCommand(o); err == nil || !strings.Contains(err.Error(), "--fq-rate") {
		t.Errorf("bad --fq-rate: %v", err)
	}
	o.FQRate, o.Protocol = "1000", bench.TCP
	if _, err := ClientCommand(o); err == nil || !strings.Contains(err.Error(), "not TCP") {
		t.Errorf("--fq-rate with TCP: %v", err)
	}
}

func TestUDPTrialOptions(t *testing.T) {
	h := newTestHost(t, "local-test")
	base := UDPTrialOptions{Client: h, Server: h, Target: "127.0.0.1", Port: 5201, Frame: 64}
	if _, p, err := UDPTrial(base); err != nil || p != PacingTimer {
		t.Errorf("UDPTrial = %q, %v; want iperf3's timer pacing", p, err)
	}
	fq := base
	fq.FQPacing, fq.ClientFeatures = true, Features{Version: "3.12", SocketPacing: true}
	if _, p, err := UDPTrial(fq); err != nil || p != PacingFQ {
		t.Errorf("UDPTrial with socket pacing = %q, %v; want fq", p, err)
	}
	for _, c := range []struct {
		f    func(*UDPTrialOptions)
		want string
	}{
		{func(o *UDPTrialOptions) { o.Frame = 63 }, "frame size 63"},
		{func(o *UDPTrialOptions) { o.Direction = bench.Bidirectional }, "one direction"},
		{func(o *UDPTrialOptions) { o.FQPacing, o.ClientFeatures = true, Features{Version: "3.7"} }, "iperf3 3.7 on local-test lacks socket pacing"},
		{func(o *UDPTrialOptions) { o.Target = "a b" }, "neither an IP address"},
		{func(o *UDPTrialOptions) { o.Server = nil }, "a client and a server"},
	} {
		o := base
		c.f(&o)
		if _, _, err := UDPTrial(o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("UDPTrial(%+v) = %v, want %q", o, err, c.want)
		}
	}
}

// TestUDPTrialLocal runs one real trial on 127.0.0.1: 1518-byte frames at
// a 10 Mbit/s wire rate for 1 s are 10e6 / (1538 × 8) = 812.7 frames, sent
// as 1472-byte datagrams.
func TestUDPTrialLocal(t *testing.T) {
	needIperf3(t)
	h := newTestHost(t, "local-test")
	f, err := HostFeatures(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	trial, pacing, err := UDPTrial(UDPTrialOptions{Client: h, Server: h, Target: "127.0.0.1", Port: freePort(t), Frame: 1518,
		FQPacing: f.SocketPacing, ClientFeatures: f})
	if err != nil {
		t.Fatal(err)
	}
	r, err := trial(context.Background(), 10e6, time.Second)
	if err != nil {
		t.Fatalf("trial (pacing %s): %v", pacing, err)
	}
	if r.SentFrames < 780 || r.SentFrames > 850 || r.LostFrames < 0 || r.LostFrames > r.SentFrames || r.OfferedFrames != 813 {
		t.Errorf("trial (pacing %s) counted %+v, want about 813 frames sent", pacing, r)
	}
}

func TestTrialRates(t *testing.T) {
	// 1518-byte frames at 1 Gbit/s: 81,274.4 frames/s; -b is their
	// payload (1472 bytes), --fq-rate their whole frames.
	b, fq := trialRates(1518, 1e9/(1538*8))
	if b != "957087126" || fq != "986996099" {
		t.Errorf("trialRates(1518) = %s, %s", b, fq)
	}
	// The pacing rate covers what the kernel paces (frame − 4 bytes at the
	// qdisc) for every frame size.
	for _, frame := range []int{64, 512, 1518, 9018} {
		fps := 1000.0
		_, fq := trialRates(frame, fps)
		v, _ := strconv.ParseFloat(fq, 64)
		if v < fps*float64(frame-4)*8 {
			t.Errorf("frame %d: --fq-rate %s below the %v bit/s of the packets the kernel paces", frame, fq, fps*float64(frame-4)*8)
		}
	}
}

func TestClientCommandSocketBuffer(t *testing.T) {
	o := ClientOptions{Target: "198.18.0.2", Port: 5201, Duration: time.Second, Length: 1472, Protocol: bench.UDP, UDPBitrate: "1000", SocketBuffer: TrialSocketBuffer}
	got, err := ClientCommand(o)
	if want := "iperf3 -c 198.18.0.2 -p 5201 -J -t 1 -O 0 -l 1472 -w 4194304 -u -b 1000 --connect-timeout 3000"; err != nil || got != want {
		t.Errorf("ClientCommand = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []int{-1, MaxSocketBuffer + 1} {
		o.SocketBuffer = bad
		if _, err := ClientCommand(o); err == nil || !strings.Contains(err.Error(), "socket buffer") {
			t.Errorf("socket buffer %d: %v", bad, err)
		}
	}
}
