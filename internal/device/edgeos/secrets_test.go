package edgeos

import (
	"os"
	"strings"
	"testing"
)

// Issue 22 point 8: the secrets EdgeOS and VyOS configurations hold
// (RADIUS keys, OSPF md5-key, a PKI private key, the HTTPS API's keys, a
// wireless passphrase, SNMP community names) never reach the normalised
// text, its digest's input or the tree.
func TestSecretsNeverInText(t *testing.T) {
	for _, tc := range []struct {
		file  string
		parse func(string, string) (string, error)
	}{
		{"secrets_edgeos.txt", func(s, v string) (string, error) { p, err := ParseConfig(s, v); return p.Snapshot.Text, err }},
		{"secrets_vyos_1_4.txt", func(s, v string) (string, error) { p, err := ParseVyOSConfig(s, v); return p.Snapshot.Text, err }},
	} {
		b, err := os.ReadFile("testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		text, err := tc.parse(string(b), "")
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if text == "" {
			t.Fatalf("%s: empty text", tc.file)
		}
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, "dummy-sentinel") {
				t.Errorf("%s: a secret reached the text: %s", tc.file, l)
			}
		}
		// What is no secret stays (the redaction is not everything).
		for _, keep := range []string{"set service snmp community '(redacted)' authorization ro", "ssid routerlab-lab"} {
			if !strings.Contains(text, keep) {
				t.Errorf("%s: %q missing from the text:\n%s", tc.file, keep, text)
			}
		}
	}
}

func TestIsSecretLeaf(t *testing.T) {
	for name, want := range map[string]bool{
		"password": true, "passphrase": true, "md5-key": true, "key": true,
		"secret": true, "pre-shared-secret": true, "private-key": true,
		"preshared-key": true, "plaintext-password": true, "community": true,
		"auth-key": true, "token": true,
		// EdgeOS's engine suffix rule beyond the VyOS templates.
		"radius-password": true,
		"public-key":      false, "description": false, "address": false,
		"key-id": false, "ssid": false, "host-name": false,
	} {
		if got := isSecretLeaf(name); got != want {
			t.Errorf("isSecretLeaf(%q) = %v, want %v", name, got, want)
		}
	}
}
