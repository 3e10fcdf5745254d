package iperf3

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// iperf3 3.10 and earlier print only end.sum for UDP (testdata README):
// its bits_per_second is the sender's, so the goodput is what the
// receiver got of the bytes sent, over the receiver's seconds; never 0.
func TestParseUDPSumOnly(t *testing.T) {
	r := parseFixture(t, "udp_sum_only.json")
	if r.End.SumSent != nil || r.End.SumReceived != nil || r.End.Sum == nil {
		t.Fatalf("fixture is not the end.sum-only shape: %+v", r.End)
	}
	s := r.Result()
	checkSane(t, s)
	sum := r.End.Sum
	if s.Protocol != bench.UDP {
		t.Errorf("protocol %q", s.Protocol)
	}
	if want := sum.BitsPerSecond / 1e6; s.SenderMbps != want {
		t.Errorf("sender %v Mbps, want end.sum.bits_per_second %v", s.SenderMbps, want)
	}
	// 17266 datagrams of 1448 bytes sent, 173 lost, over 2.000401 s.
	want := float64((17266-173)*1448) * 8 / 2.000401 / 1e6
	if math.Abs(s.ReceiverMbps-want) > 1e-9 {
		t.Errorf("receiver %v Mbps, want %v", s.ReceiverMbps, want)
	}
	if s.Seconds != 2.000401 || s.LossPercent != sum.LostPercent || s.JitterMs != sum.JitterMs || s.Packets != 17266 || s.LostPackets != 173 {
		t.Errorf("summary %+v", s)
	}
	if pr := s.PairResult("u"); pr.ReceiverMbps != s.ReceiverMbps || pr.SenderMbps != s.SenderMbps {
		t.Errorf("PairResult = %+v", pr)
	}
}

// On a 3.12 report without loss, the end.sum derivation gives exactly
// what end.sum_received says.
func TestUDPReceivedMatchesSumReceived(t *testing.T) {
	r := parseFixture(t, "udp.json")
	if r.End.Sum.LostPackets != 0 {
		t.Skip("the fixture lost datagrams")
	}
	got, err := udpReceived(r.End.Sum, "end.sum")
	if err != nil {
		t.Fatal(err)
	}
	if want := r.End.SumReceived.BitsPerSecond; math.Abs(got-want) > 1e-6*want {
		t.Errorf("derived %v bit/s, end.sum_received %v", got, want)
	}

	// The same report with only end.sum, as 3.10 prints it.
	var doc map[string]any
	if err := json.Unmarshal(load(t, "udp.json"), &doc); err != nil {
		t.Fatal(err)
	}
	end := doc["end"].(map[string]any)
	delete(end, "sum_sent")
	delete(end, "sum_received")
	old, _ := json.Marshal(doc)
	s := parseBytes(t, old).Result()
	if math.Abs(s.ReceiverMbps-r.End.SumReceived.BitsPerSecond/1e6) > 1e-6 {
		t.Errorf("receiver %v Mbps, want %v", s.ReceiverMbps, r.End.SumReceived.BitsPerSecond/1e6)
	}
}

func parseBytes(t *testing.T, b []byte) *Report {
	t.Helper()
	r, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Every protocol iperf3 reports is read, or refused by name; a layout
// without the totals its figures come from is an error, never 0 Mbps.
func TestParseProtocols(t *testing.T) {
	tcp := strings.Replace(string(load(t, "tcp_upload.json")), `"protocol":	"TCP"`, `"protocol":	"SCTP"`, 1)
	if !strings.Contains(tcp, `"SCTP"`) {
		t.Fatal("could not rewrite the fixture's protocol")
	}
	s := parseBytes(t, []byte(tcp)).Result()
	if s.Protocol != SCTP || s.ReceiverMbps <= 0 || s.SenderMbps <= 0 {
		t.Errorf("SCTP summary %+v", s)
	}

	const sum = `"sum":{"start":0,"end":2,"seconds":2,"bytes":2896,"bits_per_second":11584,"jitter_ms":0.1,"lost_packets":0,"packets":2,"lost_percent":0}`
	for name, tc := range map[string]struct{ in, want string }{
		"unknown protocol": {`{"start":{"test_start":{"protocol":"QUIC"}},"end":{"sum_sent":{"bits_per_second":1},"sum_received":{"bits_per_second":1}}}`,
			`protocol "QUIC": only TCP, UDP and SCTP are read`},
		"no protocol": {`{"start":{},"end":{"sum_sent":{"bits_per_second":1},"sum_received":{"bits_per_second":1}}}`,
			"no start.test_start.protocol"},
		"TCP without sum_received": {`{"start":{"test_start":{"protocol":"TCP"}},"end":{"sum_sent":{"bits_per_second":1}}}`,
			"TCP report lacks end.sum_sent or end.sum_received"},
		"UDP sum_sent only": {`{"start":{"test_start":{"protocol":"UDP"}},"end":{"sum_sent":{"bits_per_second":1}}}`,
			"neither end.sum nor its sum_received"},
		"UDP nothing sent": {`{"start":{"test_start":{"protocol":"UDP"}},"end":{"sum":{"seconds":2,"bytes":0,"packets":0}}}`,
			"nothing was sent"},
		"UDP lost more than sent": {`{"start":{"test_start":{"protocol":"UDP"}},"end":{"sum":{"seconds":2,"bytes":2896,"packets":2,"lost_packets":3}}}`,
			"3 lost of 2 datagrams"},
		"UDP no time": {`{"start":{"test_start":{"protocol":"UDP"}},"end":{"sum":{"seconds":0,"bytes":2896,"packets":2}}}`,
			"lasted 0 seconds"},
		"UDP bidir reverse without totals": {`{"start":{"test_start":{"protocol":"UDP","bidir":1}},"end":{` + sum + `}}`,
			"neither end.sum_bidir_reverse nor its sum_received"},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := Parse([]byte(tc.in))
			if err == nil || r != nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v, %v; want an error containing %q", r, err, tc.want)
			}
		})
	}

	// UDP --bidir with end.sum and end.sum_bidir_reverse only.
	in := `{"start":{"test_start":{"protocol":"UDP","bidir":1}},"end":{` + sum + `,` + strings.Replace(sum, `"sum"`, `"sum_bidir_reverse"`, 1) + `}}`
	s = parseBytes(t, []byte(in)).Result()
	if want := 2896.0 * 8 / 2 / 1e6; s.ReceiverMbps != want || s.ReverseReceiverMbps != want || s.ReverseSenderMbps != 11584/1e6 {
		t.Errorf("bidir summary %+v, want receiver %v both ways", s, want)
	}
}

// The fixture is JSON as iperf3 prints it: tab-indented cJSON.
func TestSumOnlyFixtureIsCJSONLayout(t *testing.T) {
	b := load(t, "udp_sum_only.json")
	if !bytes.HasPrefix(b, []byte("{\n\t\"start\":\t{")) || !bytes.Contains(b, []byte("\"version\":\t\"iperf 3.9\"")) {
		t.Error("udp_sum_only.json is not in iperf3 3.9's cJSON layout")
	}
}

// iperf3's message runs on a device: the error quotes at most a snippet.
func TestParseErrorMessageCapped(t *testing.T) {
	for _, in := range []string{
		`{"error":"unable to connect to server: ` + strings.Repeat("z", 5000) + `"}`,
		"iperf3: parameter error - " + strings.Repeat("z", 5000) + "\n",
	} {
		_, err := Parse([]byte(in))
		var ie *Error
		if !errors.As(err, &ie) || len(ie.Msg) > 210 || len(err.Error()) > 220 {
			t.Errorf("error of %d bytes: %.80v", len(err.Error()), err)
		}
	}
}
