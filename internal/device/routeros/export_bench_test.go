package routeros

import (
	"fmt"
	"strings"
	"testing"
)

// genExport builds a compact v6 export of at least lines physical lines,
// wrapped as RouterOS wraps: firewall rules, address lists, DHCP leases
// with UTF-8 comments, PPP secrets and script sources split over lines,
// the mix a large router's export holds.
func genExport(lines int) string {
	var b strings.Builder
	b.WriteString("# jan/02/2024 10:11:12 by RouterOS 6.49.10\n# software id = RL6H-EX00\n#\n# model = RB1100x4\n# serial number = RL0000001100\n")
	n := 5
	emit := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
		n += strings.Count(s, "\n") + 1
	}
	for i := 0; n < lines; i++ {
		switch i % 5 {
		case 0:
			emit("/ip firewall filter")
			for j := 0; j < 20; j++ {
				emit(wrapLikeRouterOS(Command("", "add", Selector{},
					Attr{Key: "action", Value: "accept"}, Attr{Key: "chain", Value: "forward"},
					Attr{Key: "comment", Value: fmt.Sprintf("routerlab: bench pair %d-%d (lab)", i, j)},
					Attr{Key: "dst-address", Value: fmt.Sprintf("198.18.%d.0/24", j)},
					Attr{Key: "src-address", Value: fmt.Sprintf("198.19.%d.0/24", i%256)},
					Attr{Key: "connection-state", Value: "established,related,untracked"},
					Attr{Key: "in-interface-list", Value: "!LAN"})))
			}
		case 1:
			emit("/ip firewall address-list")
			for j := 0; j < 40; j++ {
				emit(Command("", "add", Selector{}, Attr{Key: "address", Value: fmt.Sprintf("198.18.%d.%d", i%256, j)},
					Attr{Key: "list", Value: "rl-allowed"}))
			}
		case 2:
			emit("/ip dhcp-server lease")
			for j := 0; j < 20; j++ {
				emit(wrapLikeRouterOS(Command("", "add", Selector{},
					Attr{Key: "address", Value: fmt.Sprintf("198.18.88.%d", j+10)},
					Attr{Key: "client-id", Value: fmt.Sprintf("1:2:52:4c:0:%x:%x", i%256, j)},
					Attr{Key: "comment", Value: fmt.Sprintf("テスト端末 %d — lab", j)},
					Attr{Key: "mac-address", Value: fmt.Sprintf("02:52:4C:00:%02X:%02X", i%256, j)},
					Attr{Key: "server", Value: "defconf"})))
			}
		case 3:
			emit("/ppp secret")
			for j := 0; j < 20; j++ {
				emit(wrapLikeRouterOS(Command("", "add", Selector{},
					Attr{Key: "name", Value: fmt.Sprintf("rl-ppp%d-%d", i, j)}, Attr{Key: "password", Value: "dummy password"},
					Attr{Key: "profile", Value: "rl-pppoe"}, Attr{Key: "remote-address", Value: fmt.Sprintf("198.18.100.%d", j+10)},
					Attr{Key: "service", Value: "pppoe"})))
			}
		case 4:
			emit("/system script")
			src := strings.Repeat(":log info \"routerlab $[/system clock get time] step\"\r\n/ip firewall filter set [find comment~\"routerlab\"] disabled=no\r\n", 4)
			emit(wrapLikeRouterOS(Command("", "add", Selector{}, Attr{Key: "dont-require-permissions", Value: "no"},
				Attr{Key: "name", Value: fmt.Sprintf("rl-script%d", i)}, Attr{Key: "owner", Value: "admin"},
				Attr{Key: "policy", Value: "ftp,reboot,read,write,policy,test,password,sniff,sensitive,romon"},
				Attr{Key: "source", Value: src})))
			emit("/interface ethernet")
			emit(Command("", "set", Selector{Find: map[string]string{"default-name": fmt.Sprintf("ether%d", i%13+1)}}, Attr{Key: "comment", Value: "lab port"}))
		}
	}
	return b.String()
}

// BenchmarkParseExport10k parses a 10,000-line export. The requirement is
// well under 50 ms per parse (a snapshot reads the export once per device
// per Terraform operation).
func BenchmarkParseExport10k(b *testing.B) {
	text := genExport(10000)
	if n := strings.Count(text, "\n"); n < 10000 || n > 10100 {
		b.Fatalf("generated %d lines", n)
	}
	e, err := ParseExport(text)
	if err != nil {
		b.Fatal(err)
	}
	if s := e.Section("/ip firewall filter"); s == nil || len(s.Items) < 300 {
		b.Fatal("the generated export did not parse as expected")
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := ParseExport(text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNormalised10k renders the same export for the digest.
func BenchmarkNormalised10k(b *testing.B) {
	e, err := ParseExport(genExport(10000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = e.Normalised()
	}
}

// BenchmarkParseConfig10k is parse_config's cost on the same export: the
// parse, every section, the normalised text and its digest, and the
// warnings. It too must stay well under 50 ms.
func BenchmarkParseConfig10k(b *testing.B) {
	text := genExport(10000)
	if _, err := ParseConfig(text, ""); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := ParseConfig(text, ""); err != nil {
			b.Fatal(err)
		}
	}
}
