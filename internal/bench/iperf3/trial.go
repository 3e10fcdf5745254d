package iperf3

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/search"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// Features is what an iperf3 binary says of itself in --version.
type Features struct {
	Version string // "3.12"
	// SocketPacing: "socket pacing" is among the "Optional features
	// available" (iperf3 built with SO_MAX_PACING_RATE), so --fq-rate works.
	SocketPacing bool
}

// parseFeatures reads iperf3 --version output, e.g. (3.12 on Debian 12)
//
//	iperf 3.12 (cJSON 1.7.15)
//	Linux vm 6.1.0 ... x86_64
//	Optional features available: CPU affinity setting, ..., socket pacing, authentication, ...
func parseFeatures(text string) (Features, error) {
	v, err := parseVersion(text)
	if err != nil {
		return Features{}, err
	}
	f := Features{Version: v}
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Optional features available:")
		if !ok {
			continue
		}
		for _, feat := range strings.Split(rest, ",") {
			if strings.TrimSpace(feat) == "socket pacing" {
				f.SocketPacing = true
			}
		}
	}
	return f, nil
}

// HostFeatures returns the features of the iperf3 on h.
func HostFeatures(ctx context.Context, h command.Runner) (Features, error) {
	out, err := h.Run(ctx, "iperf3 --version")
	if err != nil {
		return Features{}, fmt.Errorf("iperf3 --version on %s: %w", h.Name(), err)
	}
	if looksNotInstalled(out.Stdout+"\n"+out.Stderr, out.ExitStatus) {
		return Features{}, notInstalled(h.Name())
	}
	f, err := parseFeatures(out.Stdout)
	if err != nil {
		return Features{}, fmt.Errorf("iperf3 on %s: %w", h.Name(), err)
	}
	return f, nil
}

// Pacing is how a UDP trial's sender spaces its datagrams.
type Pacing string

const (
	// PacingTimer is iperf3's own: each pacing-timer slot (1 ms by default)
	// it sends what -b allows for the slot at once, a microburst.
	PacingTimer Pacing = "iperf3_timer"
	// PacingFQ adds --fq-rate: the socket's pacing rate, which the fq qdisc
	// on the sender's egress interface spreads over the slot. Without fq
	// there the kernel ignores it for UDP and the bursts remain
	// (assumption from tc-fq(8): "maxrate" is enforced by fq).
	PacingFQ Pacing = "fq_rate"
)

// UDPTrialOptions describe the trials of a zero-loss search between one
// client and one server.
type UDPTrialOptions struct {
	Client, Server command.Runner
	Target         string // the server's address as the client reaches it
	Port           int
	Frame          int             // Ethernet frame bytes (RFC 2544 sizes: 64 … 1518)
	Direction      bench.Direction // upload or download; not bidirectional
	// FQPacing asks for --fq-rate; only when the client's iperf3 has
	// Features.SocketPacing (UDPTrial refuses otherwise).
	FQPacing       bool
	ClientFeatures Features
	ConnectTimeout time.Duration
	// SocketBuffer is both ends' socket buffer (-w); 0 =
	// TrialSocketBuffer.
	SocketBuffer int
}

// TrialSocketBuffer is a search trial's socket buffer (-w) unless told
// otherwise: 4 MiB, 2,800 full-size datagrams, about 35 ms at 1 Gbit/s.
// With the kernel's default (208 KiB) a receiving iperf3 that was not
// scheduled for 2 ms at 1 Gbit/s overflowed its socket (Udp RcvbufErrors)
// and the trial read that as the router's loss: measured on a busy 2-core
// machine, 803 of 8,486 datagrams lost at 100 Mbit/s, none with -w 4M.
// The kernel caps it at net.core.rmem_max.
const TrialSocketBuffer = 4 << 20

// UDPTrial builds the search.Trial that offers a wire rate (bit/s with
// framing and inter-frame gap, as the search counts it) as iperf3 UDP
// datagrams of Frame − 46 bytes (-l) at the payload bitrate of that frame
// rate (-b), and, with FQPacing, the same --fq-rate. Each trial starts a
// one-off server, runs the client for the trial's whole seconds and counts
// the receiver's datagrams and losses. The returned Pacing is what every
// trial of it uses.
func UDPTrial(o UDPTrialOptions) (search.Trial, Pacing, error) {
	if o.Client == nil || o.Server == nil {
		return nil, "", fmt.Errorf("UDP trial needs a client and a server host")
	}
	if err := ValidTarget(o.Target); err != nil {
		return nil, "", err
	}
	if err := validPort(o.Port); err != nil {
		return nil, "", err
	}
	if o.Frame < linerate.MinFrame || linerate.UDPPayload(o.Frame) > bench.MaxLength {
		return nil, "", fmt.Errorf("frame size %d: allowed are %d to %d", o.Frame, linerate.MinFrame, bench.MaxLength+linerate.FrameHeaders)
	}
	switch o.Direction {
	case "", bench.Upload, bench.Download:
	default:
		return nil, "", fmt.Errorf("a UDP search trial runs one direction (%q or %q), not %q: the loss of two directions is not one device's", bench.Upload, bench.Download, o.Direction)
	}
	pacing := PacingTimer
	if o.FQPacing {
		if !o.ClientFeatures.SocketPacing {
			return nil, "", fmt.Errorf("--fq-rate pacing asked for, but iperf3 %s on %s lacks socket pacing", o.ClientFeatures.Version, o.Client.Name())
		}
		pacing = PacingFQ
	}
	payload := linerate.UDPPayload(o.Frame)
	trial := func(ctx context.Context, rateBps float64, d time.Duration) (search.TrialResult, error) {
		fps := rateBps / (float64(o.Frame+linerate.FrameGap) * 8)
		b, fq := trialRates(o.Frame, fps)
		opts := ClientOptions{
			Target: o.Target, Port: o.Port, Duration: d, Length: payload, Direction: o.Direction,
			Protocol: bench.UDP, UDPBitrate: b, ConnectTimeout: o.ConnectTimeout, SocketBuffer: o.SocketBuffer,
		}
		if opts.SocketBuffer == 0 {
			opts.SocketBuffer = TrialSocketBuffer
		}
		if pacing == PacingFQ {
			opts.FQRate = fq
		}
		if _, err := ClientCommand(opts); err != nil {
			return search.TrialResult{}, err
		}
		srv, err := StartServer(ctx, o.Server, o.Port)
		if err != nil {
			return search.TrialResult{}, err
		}
		defer func() { _ = srv.Stop(ctx) }()
		rep, err := RunClient(ctx, o.Client, opts)
		if err != nil {
			return search.TrialResult{}, err
		}
		s := rep.Result()
		// Packets is the receiver's count of the datagrams sent (from their
		// sequence numbers), so datagrams lost at the very end are missed.
		return search.TrialResult{SentFrames: s.Packets, LostFrames: s.LostPackets,
			OfferedFrames: int64(math.Round(fps * d.Seconds()))}, nil
	}
	return trial, pacing, nil
}

// trialRates are iperf3's -b and --fq-rate for fps frames of frame bytes
// a second. -b counts UDP payload only; the socket's pacing rate is
// enforced on whole packets as the kernel sees them (IP header and, at the
// qdisc, the MAC header: frame − 4 bytes), so pacing at -b's figure held
// the sender to payload/packet of the rate asked for (98.1 % at 1518
// bytes, 94 % at 512, measured 802 of 813 datagrams a second): every trial
// then read as sender-limited. The pacing rate is therefore the frame
// rate in whole frames (a little above what the kernel counts), and -b,
// which iperf3 holds on average, stays the rate's limit.
func trialRates(frame int, fps float64) (b, fq string) {
	b = strconv.FormatInt(int64(math.Max(1, math.Round(linerate.UDPBitrate(fps, frame)))), 10)
	fq = strconv.FormatInt(int64(math.Max(1, math.Ceil(fps*float64(frame)*8))), 10)
	return b, fq
}
