package iperf3

import (
	"fmt"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// Limits iperf3 3.12 and Linux enforce.
const (
	// MinMSS is Linux's TCP_MIN_MSS: iperf3 -M 87 fails with "unable to
	// set TCP/SCTP MSS: Invalid argument".
	MinMSS = 88
	// MaxMSS is iperf3's own limit: "TCP MSS too large (maximum = 9216 bytes)".
	MaxMSS = 9216
	// MaxParallel is iperf3's MAX_STREAMS for -P.
	MaxParallel = 128
	// MaxDuration is iperf3's limit for -t.
	MaxDuration = 86400 * time.Second
	// MaxSocketBuffer is the largest -w routerlab passes: 512 MiB.
	MaxSocketBuffer = 512 << 20
	// DefaultConnectTimeout is used when ClientOptions.ConnectTimeout is 0.
	DefaultConnectTimeout = 3 * time.Second
)

// ServerCommand is the one-off server for a single test on port. It is not
// -J: it prints "Server listening on PORT", the readiness signal, and
// --forceflush makes that line leave at once when stdout is a pipe (without
// it iperf3 buffers everything until it exits).
func ServerCommand(port int) string {
	return fmt.Sprintf("iperf3 -s -1 -p %d --forceflush", port)
}

// ClientOptions describe one iperf3 client run.
type ClientOptions struct {
	Target     string        // server address: an IP address or a hostname
	Port       int           // 1..65535
	Duration   time.Duration // -t, whole seconds, at least 1s
	Omit       time.Duration // -O warm-up, whole seconds, may be 0
	MSS        int           // -M; 0 = the default MSS
	Length     int           // -l: bytes per write (TCP) or datagram payload (UDP); 0 = iperf3's default
	Parallel   int           // -P; 0 or 1 = one stream
	Direction  bench.Direction
	Protocol   bench.Protocol
	UDPBitrate string // -b for UDP ("100M", "1G", "0" = unlimited); ignored for TCP
	// FQRate is --fq-rate (UDP only): the socket's SO_MAX_PACING_RATE, which
	// the kernel's fq qdisc enforces per packet instead of iperf3's bursts
	// of -b per pacing-timer slot (1 ms); "" = not set. Needs an iperf3 with
	// "socket pacing" among its features ([Features]).
	FQRate string
	// ConnectTimeout bounds the control connection setup
	// (--connect-timeout); 0 = DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// SocketBuffer is -w: the sockets' buffer size in bytes on both ends
	// (the kernel caps it at net.core.rmem_max/wmem_max); 0 = the
	// kernel's default.
	SocketBuffer int
}

var (
	hostnameRE = regexp.MustCompile(`^[A-Za-z0-9_]([A-Za-z0-9_.-]{0,251}[A-Za-z0-9_.])?$`)
	ipCharsRE  = regexp.MustCompile(`^[0-9A-Fa-f.:]+(%[A-Za-z0-9_.-]+)?$`)
	bitrateRE  = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?[KMGTkmgt]?$`)
)

// ValidTarget checks that target is an IP address or a hostname made of
// letters, digits, '.', '-' and '_' — nothing a shell would interpret.
func ValidTarget(target string) error {
	if target == "" {
		return fmt.Errorf("iperf3 target is empty: need the server's IP address or hostname")
	}
	if _, err := netip.ParseAddr(target); err == nil && ipCharsRE.MatchString(target) {
		return nil
	}
	if hostnameRE.MatchString(target) && !strings.Contains(target, "..") {
		return nil
	}
	return fmt.Errorf("iperf3 target %q is neither an IP address nor a hostname (letters, digits, '.', '-', '_' only)", target)
}

func validPort(port int) error {
	if port < 1 || port > 65535 {
		return fmt.Errorf("iperf3 port %d is out of range 1..65535", port)
	}
	return nil
}

func wholeSeconds(name string, d time.Duration) (int, error) {
	if d%time.Second != 0 {
		return 0, fmt.Errorf("iperf3 %s %s is not a whole number of seconds", name, d)
	}
	return int(d / time.Second), nil
}

// ClientCommand builds
//
//	iperf3 -c TARGET -p PORT -J -t N -O N [-M MSS] [-l LEN] [-P N] [-w BYTES] [-R | --bidir] [-u -b RATE [--fq-rate RATE]] --connect-timeout MS
//
// after validating every option; the result is safe to hand to sh.
func ClientCommand(o ClientOptions) (string, error) {
	if err := ValidTarget(o.Target); err != nil {
		return "", err
	}
	if err := validPort(o.Port); err != nil {
		return "", err
	}
	if o.Duration < time.Second || o.Duration > MaxDuration {
		return "", fmt.Errorf("iperf3 duration %s is out of range 1s..%s", o.Duration, MaxDuration)
	}
	secs, err := wholeSeconds("duration", o.Duration)
	if err != nil {
		return "", err
	}
	if o.Omit < 0 {
		return "", fmt.Errorf("iperf3 omit %s is negative", o.Omit)
	}
	omit, err := wholeSeconds("omit", o.Omit)
	if err != nil {
		return "", err
	}
	if err := CheckMSS(o.MSS); err != nil {
		return "", err
	}
	if o.Length < 0 || o.Length > bench.MaxLength {
		return "", fmt.Errorf("iperf3 length %d is out of range 1..%d (0 = default)", o.Length, bench.MaxLength)
	}
	if o.Parallel < 0 || o.Parallel > MaxParallel {
		return "", fmt.Errorf("iperf3 parallel streams %d is out of range 0..%d", o.Parallel, MaxParallel)
	}
	ct := o.ConnectTimeout
	if ct == 0 {
		ct = DefaultConnectTimeout
	}
	if ct < time.Millisecond {
		return "", fmt.Errorf("iperf3 connect timeout %s is below 1ms", ct)
	}

	args := []string{"iperf3", "-c", o.Target, "-p", strconv.Itoa(o.Port), "-J",
		"-t", strconv.Itoa(secs), "-O", strconv.Itoa(omit)}
	if o.MSS != 0 {
		args = append(args, "-M", strconv.Itoa(o.MSS))
	}
	if o.Length > 0 {
		args = append(args, "-l", strconv.Itoa(o.Length))
	}
	if o.Parallel > 1 {
		args = append(args, "-P", strconv.Itoa(o.Parallel))
	}
	if o.SocketBuffer < 0 || o.SocketBuffer > MaxSocketBuffer {
		return "", fmt.Errorf("iperf3 socket buffer %d is out of range 0..%d bytes", o.SocketBuffer, MaxSocketBuffer)
	}
	if o.SocketBuffer > 0 {
		args = append(args, "-w", strconv.Itoa(o.SocketBuffer))
	}
	switch o.Direction {
	case "", bench.Upload:
	case bench.Download:
		args = append(args, "-R")
	case bench.Bidirectional:
		args = append(args, "--bidir")
	default:
		return "", fmt.Errorf("iperf3 direction %q is not %q, %q or %q", o.Direction, bench.Upload, bench.Download, bench.Bidirectional)
	}
	switch o.Protocol {
	case "", bench.TCP:
		if o.FQRate != "" {
			return "", fmt.Errorf("iperf3 --fq-rate %q is set for UDP trials only here, not TCP", o.FQRate)
		}
	case bench.UDP:
		if o.MSS != 0 {
			return "", fmt.Errorf("iperf3 MSS %d applies to TCP only, not UDP", o.MSS)
		}
		if o.UDPBitrate == "" {
			return "", fmt.Errorf(`iperf3 UDP needs a bitrate (e.g. "1G"; "0" = unlimited): iperf3's own default is only 1 Mbit/s`)
		}
		if !bitrateRE.MatchString(o.UDPBitrate) {
			return "", fmt.Errorf("iperf3 UDP bitrate %q is not a number with an optional K/M/G/T suffix", o.UDPBitrate)
		}
		args = append(args, "-u", "-b", o.UDPBitrate)
		if o.FQRate != "" {
			if !bitrateRE.MatchString(o.FQRate) {
				return "", fmt.Errorf("iperf3 --fq-rate %q is not a number with an optional K/M/G/T suffix", o.FQRate)
			}
			args = append(args, "--fq-rate", o.FQRate)
		}
	default:
		return "", fmt.Errorf("iperf3 protocol %q is not %q or %q", o.Protocol, bench.TCP, bench.UDP)
	}
	args = append(args, "--connect-timeout", strconv.FormatInt(ct.Milliseconds(), 10))
	return strings.Join(args, " "), nil
}

// CheckMSS is the one rule for an MSS (iperf3 -M): 0, iperf3's default,
// or MinMSS to MaxMSS. The engine and the provider's schema both use it.
func CheckMSS(mss int) error {
	if mss != 0 && (mss < MinMSS || mss > MaxMSS) {
		return fmt.Errorf("mss %d: allowed are 0 (default) or %d to %d", mss, MinMSS, MaxMSS)
	}
	return nil
}
