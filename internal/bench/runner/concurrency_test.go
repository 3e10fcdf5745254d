package runner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// pairsOn returns n pairs whose servers all run on server, each client on
// its own host (client-i) unless client is set.
func pairsOn(n int, server, client string) []bench.Pair {
	var pairs []bench.Pair
	for i := range n {
		c := client
		if c == "" {
			c = fmt.Sprintf("client-%d", i)
		}
		pairs = append(pairs, bench.Pair{Name: fmt.Sprintf("p%d", i), Client: c, Server: server, Target: "192.0.2.1", Port: 5201 + i})
	}
	return pairs
}

// A plan that would need more long-running processes at once on one
// device than its SSH connection runs fails at plan time, naming the host,
// what it needs there and the limit; local has no limit.
func TestValidateConcurrentProcessesPerHost(t *testing.T) {
	limit := command.MaxConcurrentPerDevice
	if limit != 7 {
		t.Fatalf("command.MaxConcurrentPerDevice = %d: update the expected messages", limit)
	}

	p := plan(5201)
	p.Pairs = pairsOn(limit, "srv", "")
	if err := Validate(p); err != nil {
		t.Fatalf("%d servers on one host: %v", limit, err)
	}

	// The case: 9 pairs sharing one server host (8 too: the limit
	// keeps one session for short commands such as kills by PID).
	for _, n := range []int{limit + 1, 9} {
		p.Pairs = pairsOn(n, "srv", "")
		err := Validate(p)
		want := fmt.Sprintf("host srv: the plan needs %d processes running there at once (%d iperf3 servers), but a device runs at most 7 at once", n, n)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d servers on one host: %v\nwant %q", n, err, want)
		}
	}

	// Servers, clients and a DUT's CPU sampler add up on one host; each
	// host over the limit is named.
	p.Pairs = append(pairsOn(5, "r1", "r2"), pairsOn(2, "r2", "r1")...)
	p.Pairs[5].Port, p.Pairs[6].Port = 6201, 6202
	p.DUTs = []string{"r1", "r2", "r1"}
	err := Validate(p)
	for _, want := range []string{
		"host r1: the plan needs 8 processes running there at once (5 iperf3 servers, 2 iperf3 clients, 1 CPU sampler), but a device runs at most 7 at once over its SSH connection",
		"host r2: the plan needs 8 processes running there at once (2 iperf3 servers, 5 iperf3 clients, 1 CPU sampler)",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	p.DUTs = []string{"r3"}
	if err := Validate(p); err != nil {
		t.Errorf("7 processes on r1 and r2: %v", err)
	}

	// Local, the machine running Terraform, has no session limit.
	p.Pairs = pairsOn(3*limit, bench.LocalHost, bench.LocalHost)
	p.DUTs = []string{bench.LocalHost}
	if err := Validate(p); err != nil {
		t.Errorf("local: %v", err)
	}
}
