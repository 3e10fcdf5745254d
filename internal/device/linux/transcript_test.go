package linux

import (
	"strings"
	"testing"
)

func TestRedactTranscript(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"      secret = sentinel-psk", "      secret = <redacted>"},
		{`            secret = "sentinel psk"`, `            secret = "<redacted>"`},
		{"PrivateKey = c2VudGluZWwtd2cta2V5", "PrivateKey = <redacted>"},
		{"  private key: (hidden)", "  private key: (hidden)"},
		{"  preshared key: (hidden)\r", "  preshared key: (hidden)\r"},
		{"PresharedKey = c2VudGluZWwtcHNr\r", "PresharedKey = <redacted>\r"},
		{"password sentinel-ppp", "password <redacted>"},
		{"-----BEGIN OpenVPN Static key V1-----\n0123sentinel\n-----END OpenVPN Static key V1-----",
			"-----BEGIN OpenVPN Static key V1-----\n<redacted>\n-----END OpenVPN Static key V1-----"},
		{"eth1 198.18.1.1/24 mtu 1500", "eth1 198.18.1.1/24 mtu 1500"},
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
