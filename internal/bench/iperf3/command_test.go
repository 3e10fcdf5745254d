package iperf3

import (
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

func TestServerCommand(t *testing.T) {
	if got, want := ServerCommand(5201), "iperf3 -s -1 -p 5201 --forceflush"; got != want {
		t.Errorf("ServerCommand = %q, want %q", got, want)
	}
}

func TestClientCommand(t *testing.T) {
	base := ClientOptions{Target: "10.0.0.2", Port: 5201, Duration: 30 * time.Second, Omit: 3 * time.Second}
	with := func(f func(*ClientOptions)) ClientOptions { o := base; f(&o); return o }
	for _, tc := range []struct {
		name string
		o    ClientOptions
		want string // command, or "error: substring"
	}{
		{"upload default", base, "iperf3 -c 10.0.0.2 -p 5201 -J -t 30 -O 3 --connect-timeout 3000"},
		{"no omit", with(func(o *ClientOptions) { o.Omit = 0 }), "iperf3 -c 10.0.0.2 -p 5201 -J -t 30 -O 0 --connect-timeout 3000"},
		{"mss parallel download", with(func(o *ClientOptions) {
			o.MSS, o.Parallel, o.Direction, o.ConnectTimeout = 1200, 4, bench.Download, 1500*time.Millisecond
		}), "iperf3 -c 10.0.0.2 -p 5201 -J -t 30 -O 3 -M 1200 -P 4 -R --connect-timeout 1500"},
		{"bidir", with(func(o *ClientOptions) { o.Direction = bench.Bidirectional }), "iperf3 -c 10.0.0.2 -p 5201 -J -t 30 -O 3 --bidir --connect-timeout 3000"},
		{"upload explicit, one stream", with(func(o *ClientOptions) { o.Direction, o.Parallel, o.Protocol = bench.Upload, 1, bench.TCP }),
			"iperf3 -c 10.0.0.2 -p 5201 -J -t 30 -O 3 --connect-timeout 3000"},
		{"udp", with(func(o *ClientOptions) { o.Protocol, o.UDPBitrate = bench.UDP, "100M" }), "iperf3 -c 10.0.0.2 -p 5201 -J -t 30 -O 3 -u -b 100M --connect-timeout 3000"},
		{"bitrate ignored for tcp", with(func(o *ClientOptions) { o.UDPBitrate = "1G" }), "iperf3 -c 10.0.0.2 -p 5201 -J -t 30 -O 3 --connect-timeout 3000"},
		{"hostname", with(func(o *ClientOptions) { o.Target = "dut-b.lab.example" }), "iperf3 -c dut-b.lab.example -p 5201 -J -t 30 -O 3 --connect-timeout 3000"},
		{"ipv6", with(func(o *ClientOptions) { o.Target = "fd00::2" }), "iperf3 -c fd00::2 -p 5201 -J -t 30 -O 3 --connect-timeout 3000"},
		{"ipv6 zone", with(func(o *ClientOptions) { o.Target = "fe80::1%eth0" }), "iperf3 -c fe80::1%eth0 -p 5201 -J -t 30 -O 3 --connect-timeout 3000"},
		{"mss min", with(func(o *ClientOptions) { o.MSS = 88 }), "iperf3 -c 10.0.0.2 -p 5201 -J -t 30 -O 3 -M 88 --connect-timeout 3000"},
		{"mss max", with(func(o *ClientOptions) { o.MSS = 9216 }), "iperf3 -c 10.0.0.2 -p 5201 -J -t 30 -O 3 -M 9216 --connect-timeout 3000"},

		{"injection", with(func(o *ClientOptions) { o.Target = "198.18.0.1; rm -rf /" }), `error: "198.18.0.1; rm -rf /"`},
		{"subshell", with(func(o *ClientOptions) { o.Target = "$(reboot)" }), `error: "$(reboot)"`},
		{"option injection", with(func(o *ClientOptions) { o.Target = "-s" }), `error: "-s"`},
		{"zone injection", with(func(o *ClientOptions) { o.Target = "fe80::1%eth0;id" }), `error: "fe80::1%eth0;id"`},
		{"empty target", with(func(o *ClientOptions) { o.Target = "" }), "error: target is empty"},
		{"space", with(func(o *ClientOptions) { o.Target = "a b" }), `error: "a b"`},
		{"port 0", with(func(o *ClientOptions) { o.Port = 0 }), "error: port 0"},
		{"port 65536", with(func(o *ClientOptions) { o.Port = 65536 }), "error: port 65536"},
		{"mss 87", with(func(o *ClientOptions) { o.MSS = 87 }), "error: mss 87: allowed are 0 (default) or 88 to 9216"},
		{"mss 9217", with(func(o *ClientOptions) { o.MSS = 9217 }), "error: mss 9217: allowed"},
		{"mss negative", with(func(o *ClientOptions) { o.MSS = -1 }), "error: mss -1: allowed"},
		{"duration 0", with(func(o *ClientOptions) { o.Duration = 0 }), "error: duration 0s"},
		{"duration 500ms", with(func(o *ClientOptions) { o.Duration = 500 * time.Millisecond }), "error: duration 500ms"},
		{"duration fractional", with(func(o *ClientOptions) { o.Duration = 1500 * time.Millisecond }), "error: not a whole number"},
		{"omit negative", with(func(o *ClientOptions) { o.Omit = -time.Second }), "error: omit -1s"},
		{"parallel", with(func(o *ClientOptions) { o.Parallel = 129 }), "error: parallel streams 129"},
		{"direction", with(func(o *ClientOptions) { o.Direction = "sideways" }), `error: direction "sideways"`},
		{"protocol", with(func(o *ClientOptions) { o.Protocol = "sctp" }), `error: protocol "sctp"`},
		{"udp no bitrate", with(func(o *ClientOptions) { o.Protocol = bench.UDP }), "error: UDP needs a bitrate"},
		{"udp bad bitrate", with(func(o *ClientOptions) { o.Protocol, o.UDPBitrate = bench.UDP, "1G;id" }), `error: bitrate "1G;id"`},
		{"udp mss", with(func(o *ClientOptions) { o.Protocol, o.UDPBitrate, o.MSS = bench.UDP, "1G", 1200 }), "error: TCP only"},
		{"connect timeout negative", with(func(o *ClientOptions) { o.ConnectTimeout = -time.Second }), "error: connect timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ClientCommand(tc.o)
			if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
				if err == nil {
					t.Fatalf("ClientCommand = %q, want an error containing %q", got, want)
				}
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
				if got != "" {
					t.Errorf("command %q returned with error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
