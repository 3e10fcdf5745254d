package udpstat

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// Debian 12, kernel 6.1.
const snmp = `Ip: Forwarding DefaultTTL InReceives InHdrErrors
Ip: 1 64 1813 0
Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
Udp: 62637 3 8064 120 8064 0 0 0 0
UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
UdpLite: 0 0 0 0 0 0 0 0 0
`

func TestParse(t *testing.T) {
	c, err := Parse(snmp)
	if err != nil || c != (Counters{InDatagrams: 62637, InErrors: 8064, RcvbufErrors: 8064}) {
		t.Errorf("Parse = %+v, %v", c, err)
	}
	if d := c.Sub(Counters{InDatagrams: 637, InErrors: 64, RcvbufErrors: 60}); d != (Counters{62000, 8000, 8004}) {
		t.Errorf("Sub = %+v", d)
	}
	for _, bad := range []string{"", "Ip: a\nIp: 1\n", "Udp: InDatagrams InErrors\nUdp: 1 2\n", "Udp: InDatagrams InErrors RcvbufErrors\nUdp: 1 x 3\n", "Udp: InDatagrams InErrors RcvbufErrors\nUdp: 1 2\n"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

func TestReadLocal(t *testing.T) {
	if _, err := os.Stat("/proc/net/snmp"); err != nil {
		t.Skip("no /proc/net/snmp here")
	}
	c, err := Read(context.Background(), command.Local())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile("/proc/net/snmp")
	if !strings.Contains(string(b), "RcvbufErrors") || c.InErrors < c.RcvbufErrors {
		t.Errorf("Read = %+v", c)
	}
}
