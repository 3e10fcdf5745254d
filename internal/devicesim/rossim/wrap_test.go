package rossim

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The layouts below are worked out by hand from the rules in wrap.go,
// each reproducing a case seen in published exports with our own values:
// a break between arguments (" \"), a break after "key=" when the key
// still fits and its value does not (RouterOS keeps the key on the line
// even when the whole pair would fit on the next), the 77-column limit
// that sends a 3-letter value to the next line at column 76, and a long
// value printed quoted and split at any character, a leading blank of a
// continuation written "\_".
func TestWrapLayouts(t *testing.T) {
	cases := []struct {
		name   string
		prefix string
		args   []pair
		want   []string
	}{
		{"fits", "add", []pair{{"address", "198.18.1.1/24"}, {"interface", "ether2"}, {"network", "198.18.1.0"}},
			[]string{"add address=198.18.1.1/24 interface=ether2 network=198.18.1.0"}},
		{"between arguments", "add", []pair{{"address", "198.18.100.1/24"}, {"comment", "LAN uplink to core"},
			{"interface", "ether2"}, {"network", "198.18.100.0"}},
			[]string{
				`add address=198.18.100.1/24 comment="LAN uplink to core" interface=ether2 \`,
				`    network=198.18.100.0`,
			}},
		{"after key=", "set [ find default-name=ether3 ]", []pair{{"comment", "Uplink to lab core 10-2"}, {"disabled", "yes"}},
			[]string{
				`set [ find default-name=ether3 ] comment="Uplink to lab core 10-2" disabled=\`,
				`    yes`,
			}},
		// Every defconf export's masquerade rule: the key takes column
		// 78, its backslash column 79.
		{"key up to column 78", "add", []pair{{"action", "masquerade"}, {"chain", "srcnat"},
			{"comment", "defconf: masquerade"}, {"ipsec-policy", "out,none"}, {"out-interface-list", "WAN"}},
			[]string{
				`add action=masquerade chain=srcnat comment="defconf: masquerade" ipsec-policy=\`,
				`    out,none out-interface-list=WAN`,
			}},
		{"pair moves whole", "add", []pair{{"change-tcp-mss", "yes"}, {"local-address", "198.18.100.1"},
			{"name", "rl-profile"}, {"remote-address", "rl-pool"}, {"use-encryption", "yes"}},
			[]string{
				`add change-tcp-mss=yes local-address=198.18.100.1 name=rl-profile \`,
				`    remote-address=rl-pool use-encryption=yes`,
			}},
		{"long value split", "add", []pair{{"chain", "input"},
			{"comment", "a comment long enough that it cannot fit on one line of its own, so split"}},
			[]string{
				`add chain=input comment="a comment long enough that it cannot fit on one line \`,
				`    of its own, so split"`,
			}},
		{"blank at a continuation", "add", []pair{{"chain", "input"},
			{"comment", "a comment long enough that it cannot fit on one linex its own, so it is split"}},
			[]string{
				`add chain=input comment="a comment long enough that it cannot fit on one linex\`,
				`    \_its own, so it is split"`,
			}},
		{"newlines", "add", []pair{{"comment", "one\ntwo"}, {"name", "x"}},
			[]string{
				`add comment="one\`,
				`    \ntwo" name=x`,
			}},
	}
	for _, c := range cases {
		got := wrapLine(c.prefix, c.args)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// A bare value longer than a continuation line is quoted so that it can
// be split, as RouterOS prints a long address list.
func TestWrapQuotesALongBareValue(t *testing.T) {
	var ports []string
	for p := 10000; p < 10016; p++ {
		ports = append(ports, strconv.Itoa(p))
	}
	v := strings.Join(ports, ",")
	got := wrapLine("add", []pair{{"chain", "forward"}, {"dst-port", v}})
	want := []string{
		`add chain=forward dst-port="10000,10001,10002,10003,10004,10005,10006,10007,10\`,
		`    008,10009,10010,10011,10012,10013,10014,10015"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

var joinRe = regexp.MustCompile(`\\\n[ \t]*`)

// joinLines undoes the wrapping as readers of exports do (Oxidized strips
// a backslash, the newline and the next line's indent).
func joinLines(lines []string) string { return joinRe.ReplaceAllString(strings.Join(lines, "\n"), "") }

// Whatever the values, no line is longer than 79 columns and the joined
// lines read back as the same arguments.
func TestWrapRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("abcdefghijklmnopqrstuvwxyz0123456789-_.,:/ =\"\\$?\n\t#;[]{}()é")
	for n := 0; n < 2000; n++ {
		var args []pair
		for k := 0; k < 1+rng.IntN(8); k++ {
			b := make([]byte, rng.IntN(120))
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			args = append(args, pair{"key-" + strconv.Itoa(k) + strings.Repeat("x", rng.IntN(20)), string(b)})
		}
		lines := wrapLine("add", args)
		for _, l := range lines {
			if len(l) > 79 {
				t.Fatalf("line of %d columns: %q", len(l), l)
			}
		}
		got, err := readArgs(strings.TrimPrefix(joinLines(lines), "add"))
		if err != nil {
			t.Fatalf("%v in\n%s", err, strings.Join(lines, "\n"))
		}
		if len(got) != len(args) {
			t.Fatalf("read %d arguments of %d from\n%s", len(got), len(args), strings.Join(lines, "\n"))
		}
		for i := range args {
			if got[i] != args[i] {
				t.Fatalf("argument %d: read %q, wrote %q, in\n%s", i, got[i], args[i], strings.Join(lines, "\n"))
			}
		}
	}
}
