package iperf3

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// receiverSlackInvariant is how far a TCP receiver's rate may exceed its
// sender's in an accepted report (the fixtures show at most 0.06 %).
const receiverSlackInvariant = 1.05

// checkAccepted returns the invariants an accepted report breaks: every
// rate a non-negative finite number of Mbit/s, and, for TCP, a receiver
// that got no more than the sender sent (5 % slack), in both halves of a
// --bidir test.
func checkAccepted(r *Report) []string {
	s := r.Result()
	var broken []string
	for _, f := range []struct {
		name string
		mbps float64
	}{
		{"sender", s.SenderMbps}, {"receiver", s.ReceiverMbps},
		{"reverse sender", s.ReverseSenderMbps}, {"reverse receiver", s.ReverseReceiverMbps},
	} {
		if !(f.mbps >= 0) || math.IsInf(f.mbps, 0) {
			broken = append(broken, fmt.Sprintf("%s rate %v Mbit/s", f.name, f.mbps))
		}
	}
	if s.Protocol == bench.TCP {
		if s.ReceiverMbps > s.SenderMbps*receiverSlackInvariant {
			broken = append(broken, fmt.Sprintf("TCP receiver %v Mbit/s > sender %v Mbit/s × %v", s.ReceiverMbps, s.SenderMbps, receiverSlackInvariant))
		}
		if s.ReverseReceiverMbps > s.ReverseSenderMbps*receiverSlackInvariant {
			broken = append(broken, fmt.Sprintf("TCP reverse receiver %v Mbit/s > reverse sender %v Mbit/s × %v", s.ReverseReceiverMbps, s.ReverseSenderMbps, receiverSlackInvariant))
		}
	}
	return broken
}

// hasErrorKey says whether the JSON report Parse would read (the first
// object starting a line) has a top-level "error" key, whatever its value.
func hasErrorKey(data []byte) bool {
	text := bytes.TrimSpace(data)
	if len(text) == 0 {
		return false
	}
	at := jsonStart(text)
	if at < 0 {
		return false
	}
	var top map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(text[at:])).Decode(&top); err != nil {
		return false
	}
	_, ok := top["error"]
	return ok
}

// Every real report the parser is tested on meets the invariants FuzzParse
// holds accepted reports to (so they describe iperf3, not the fuzzer).
func TestFixturesMeetInvariants(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil || len(names) < 10 {
		t.Fatalf("fixtures: %v %v", names, err)
	}
	for _, name := range names {
		raw := load(t, filepath.Base(name))
		r, err := Parse(raw)
		isError := strings.HasPrefix(filepath.Base(name), "error_")
		if isError != (err != nil) || isError != hasErrorKey(raw) {
			t.Errorf("%s: Parse error %v, error key %v", name, err, hasErrorKey(raw))
			continue
		}
		if err == nil {
			if broken := checkAccepted(r); len(broken) > 0 {
				t.Errorf("%s: %s", name, strings.Join(broken, "; "))
			}
		}
	}
}

// FuzzParse: any iperf3 output gives a report or an error, never a panic;
// a report with a top-level "error" key is always an error; and an
// accepted report has non-negative finite rates and, for TCP, a receiver
// that got no more than the sender sent.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"tcp_upload.json", "tcp_download.json", "udp.json", "udp_sum_only.json", "tcp_bidir.json", "tcp_warmup_short.json", "error_refused.json", "error_server_busy.json"} {
		raw, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte("iperf3: command not found"))
	tcp := `{"start":{"test_start":{"protocol":"TCP"}},"end":{"sum_sent":{"bits_per_second":%s},"sum_received":{"bits_per_second":%s}}%s}`
	f.Add(fmt.Appendf(nil, tcp, "1e9", "9.4e8", ""))
	f.Add(fmt.Appendf(nil, tcp, "1e9", "9.4e8", `,"error":""`))
	f.Add(fmt.Appendf(nil, tcp, "-1", "0", ""))
	f.Add([]byte(`{"start":{"test_start":{"protocol":"UDP"}},"end":{"sum":{"bytes":9000000000000000000,"packets":1,"seconds":1e-300,"bits_per_second":1}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if hasErrorKey(data) && err == nil {
			t.Fatalf("a report with an error key was accepted: %+v", r.Result())
		}
		if err != nil {
			if r != nil {
				t.Fatalf("Parse returned a report with its error %v", err)
			}
			return
		}
		if broken := checkAccepted(r); len(broken) > 0 {
			t.Fatalf("accepted report breaks: %s", strings.Join(broken, "; "))
		}
	})
}
