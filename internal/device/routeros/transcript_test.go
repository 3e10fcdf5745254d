package routeros

import (
	"strings"
	"testing"
)

// Every secret and script body of RouterOS CLI text is gone from a
// transcript's text, whatever its quoting; the rest is kept as it was.
func TestRedactTranscript(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`/ip ipsec identity add peer=rl-s2s secret=sentinel-psk comment="routerlab:s2s"`,
			`/ip ipsec identity add peer=rl-s2s secret=<redacted> comment="routerlab:s2s"`},
		{`/ppp secret add name=ppp1 password="sentinel pass \"quoted\"" service=l2tp`,
			`/ppp secret add name=ppp1 password=<redacted> service=l2tp`},
		{"/interface l2tp-server server set ipsec-secret=sentinel-l2tp use-ipsec=yes\r\n",
			"/interface l2tp-server server set ipsec-secret=<redacted> use-ipsec=yes\r\n"},
		{`/interface wireguard add name=wg0 private-key="c2VudGluZWw="`,
			`/interface wireguard add name=wg0 private-key=<redacted>`},
		// An export's script, continued over lines inside its quotes.
		{"/system script\nadd name=up source=\"/tool fetch url=\\\"https://x/?token=sentinel-token\\\" \\\n    keep-result=no\"\n/ip address\n",
			"/system script\nadd name=up source=<script>\n/ip address\n"},
		{`/system scheduler add name=s on-event=":global pass sentinel-global"`, `/system scheduler add name=s on-event=<script>`},
		// Not secrets: kept.
		{`/ip address add address=198.18.1.1/24 interface=ether2 comment="password is not here"`,
			`/ip address add address=198.18.1.1/24 interface=ether2 comment="password is not here"`},
		{`/ip ipsec identity print where secret=""`, `/ip ipsec identity print where secret=""`},
	} {
		got := RedactTranscript(tt.in)
		if got != tt.want {
			t.Errorf("RedactTranscript(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if strings.Contains(got, "sentinel") {
			t.Errorf("a secret stayed: %q", got)
		}
	}
}
