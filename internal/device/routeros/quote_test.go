package routeros

import "testing"

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"ether1":                         "ether1",
		"198.18.0.1/24":                  "198.18.0.1/24",
		"02:52:4C:00:00:01":              "02:52:4C:00:00:01",
		"aes-256-cbc,aes-128-cbc":        "aes-256-cbc,aes-128-cbc",
		"!LAN":                           "!LAN", // RouterOS prints negations bare
		"warning,!dhcp":                  "warning,!dhcp",
		"rl_user@example.net":            "rl_user@example.net",
		"10M/20M+5":                      "10M/20M+5",
		"*1F":                            "*1F",
		"":                               `""`,
		"two words":                      `"two words"`,
		`say "hi"`:                       `"say \"hi\""`,
		`C:\dir`:                         `"C:\\dir"`,
		"$var":                           `"\$var"`,
		"why?":                           `"why\?"`,
		"a=b":                            `"a=b"`,
		"[find]":                         `"[find]"`,
		"(1+2)":                          `"(1+2)"`,
		"{x}":                            `"{x}"`,
		"#not-a-comment":                 `"#not-a-comment"`,
		"a;b":                            `"a;b"`,
		"a>b":                            `"a>b"`,
		"line1\r\nline2\tend":            `"line1\r\nline2\tend"`,
		"bell\x07del\x7f":                `"bell\07del\7F"`,
		"テスト":                            `"\E3\83\86\E3\82\B9\E3\83\88"`,
		"\xc2 \xf1":                      `"\C2 \F1"`, // not UTF-8: byte by byte
		"a+b/c=":                         `"a+b/c="`,  // a WireGuard key ends in =
		"trailing space ":                `"trailing space "`,
		"tab\tinside":                    `"tab\tinside"`,
		"\x00":                           `"\00"`,
		"ends in backslash\\":            `"ends in backslash\\"`,
		"unicode é and emoji \U0001F500": `"unicode \C3\A9 and emoji \F0\9F\94\80"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`\"\\\$\?`:          `"\$?`,
		`a\_b`:              "a b", // RouterOS writes a space that starts a wrapped line as \_
		`\n\r\t`:            "\n\r\t",
		`\a\b\f\v`:          "\x07\x08\x0c\x0b",
		`\E3\83\86`:         "テ",
		`\e3\83\86`:         "テ", // lower-case hex read leniently
		`\F0\9F\94\80x`:     "\U0001F500x",
		`\ab`:               "\x07b", // a named escape, not hex: RouterOS hex is in capitals
		`\AB`:               "\xab",
		`\z`:                "z",
		`end\`:              `end\`,
		`no escapes at all`: "no escapes at all",
	} {
		if got := unescapeCLI(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"add", Command("/ip address", "add", Selector{}, Attr{Key: "address", Value: "198.18.0.1/24"}, Attr{Key: "interface", Value: "ether2"}),
			"/ip address add address=198.18.0.1/24 interface=ether2"},
		{"find target, keys sorted", Command("/interface ethernet", "set", Selector{Find: map[string]string{"default-name": "ether1", "comment": "up link"}}, Attr{Key: "mtu", Value: "1500"}),
			`/interface ethernet set [ find comment="up link" default-name=ether1 ] mtu=1500`},
		{"default=yes", Command("/ip ipsec profile", "set", Selector{Find: map[string]string{"default": "yes"}}, Attr{Key: "dh-group", Value: "modp2048"}),
			"/ip ipsec profile set [ find default=yes ] dh-group=modp2048"},
		{"named", Command("/queue interface", "set", Selector{Name: "ether1"}, Attr{Key: "queue", Value: "no-queue"}),
			"/queue interface set ether1 queue=no-queue"},
		{"numbered", Command("/system logging action", "set", Selector{Name: "0"}, Attr{Key: "memory-lines", Value: "1000"}),
			"/system logging action set 0 memory-lines=1000"},
		{"a name with a space", Command("/queue interface", "set", Selector{Name: "my bridge"}),
			`/queue interface set "my bridge"`},
		{"a name starting with ! is not an unset flag", Command("/queue interface", "set", Selector{Name: "!x"}),
			`/queue interface set "!x"`},
		{"expression target", Command("/ip firewall filter", "remove", Selector{Expr: `find where comment~"^routerlab"`}),
			`/ip firewall filter remove [ find where comment~"^routerlab" ]`},
		{"singleton", Command("/interface l2tp-server server", "set", Selector{}, Attr{Key: "enabled", Value: "yes"}, Attr{Key: "ipsec-secret", Value: "a b"}),
			`/interface l2tp-server server set enabled=yes ipsec-secret="a b"`},
		{"slash path", Command("/ip/firewall/filter", "add", Selector{}, Attr{Key: "chain", Value: "input"}, Attr{Key: "place-before", Value: "0"}),
			"/ip firewall filter add chain=input place-before=0"},
		{"compact line", Command("", "add", Selector{}, Attr{Key: "name", Value: "x"}),
			"add name=x"},
		{"bare word", Command("/routing bgp instance", "set", Selector{Name: "default"}, Attr{Key: "!cluster-id", Bare: true}, Attr{Key: "two words", Bare: true}),
			`/routing bgp instance set default !cluster-id "two words"`},
		{"empty value", Command("/interface list", "add", Selector{}, Attr{Key: "include", Value: ""}, Attr{Key: "name", Value: "WAN"}),
			`/interface list add include="" name=WAN`},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, tc.got, tc.want)
		}
	}
}

func TestNormalisePath(t *testing.T) {
	for in, want := range map[string]string{
		"/ip address": "/ip address", "/ip/address": "/ip address", "/ip address  ": "/ip address",
		"ip address": "/ip address", "/interface/wireguard/peers": "/interface wireguard peers",
		"/": "/", "": "",
	} {
		if got := NormalisePath(in); got != want {
			t.Errorf("NormalisePath(%q) = %q, want %q", in, got, want)
		}
	}
}
