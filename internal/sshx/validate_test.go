package sshx

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidateEndpoint(t *testing.T) {
	plainKey, _ := sshtestClientKey(t)
	encKeyPEM, _ := encryptedKey(t)
	hostKey := KeyLine(ed25519PublicKey(t))
	kh := writeKnownHosts(t, "[198.18.0.1]:22 "+hostKey)

	valid := Endpoint{Host: "198.18.0.1", Port: 22, User: "admin", Auth: Auth{Password: testPassword}, HostKey: hostKey}
	secrets := []string{testPassword, testPassphrase, "wrong-passphrase", plainKey[40:90], encKeyPEM[40:90]}

	tests := []struct {
		name string
		mod  func(*Endpoint)
		want []string // substrings of the error; nil = valid
	}{
		{"valid password + host_key", func(e *Endpoint) {}, nil},
		{"valid key + known_hosts", func(e *Endpoint) {
			e.Auth = Auth{PrivateKey: plainKey}
			e.HostKey, e.KnownHostsFile = "", kh
		}, nil},
		{"valid agent + insecure", func(e *Endpoint) {
			e.Auth = Auth{UseAgent: true}
			e.HostKey, e.InsecureIgnoreHostKey = "", true
		}, nil},
		{"empty host", func(e *Endpoint) { e.Host = " " }, []string{"host: must not be empty"}},
		{"host with space", func(e *Endpoint) { e.Host = "r1 r2" }, []string{`host: "r1 r2" contains whitespace`}},
		{"port 0", func(e *Endpoint) { e.Port = 0 }, []string{"port: 0 is out of range 1-65535"}},
		{"port too big", func(e *Endpoint) { e.Port = 70000 }, []string{"port: 70000 is out of range 1-65535"}},
		{"empty user", func(e *Endpoint) { e.User = "" }, []string{"user: must not be empty"}},
		{"negative connect timeout", func(e *Endpoint) { e.ConnectTimeout = -1 }, []string{"connect_timeout: -1ns must not be negative"}},
		{"no auth", func(e *Endpoint) { e.Auth = Auth{} }, []string{"auth: no authentication method: set password, private_key or use_agent"}},
		{"garbage private key", func(e *Endpoint) { e.PrivateKey = "not a key " + testPassword }, []string{"private_key: cannot parse private key"}},
		{"encrypted key without passphrase", func(e *Endpoint) { e.PrivateKey = encKeyPEM }, []string{"private_key: key is encrypted: set passphrase"}},
		{"wrong passphrase", func(e *Endpoint) { e.PrivateKey, e.Passphrase = encKeyPEM, "wrong-passphrase" }, []string{"passphrase: cannot decrypt private_key with the given passphrase"}},
		{"passphrase without key", func(e *Endpoint) { e.Passphrase = testPassphrase }, []string{"passphrase: is set but private_key is empty"}},
		{"bad host_key", func(e *Endpoint) { e.HostKey = "ssh-ed25519 bm9wZQ==" }, []string{`host_key: "ssh-ed25519 bm9wZQ=="`}},
		{"known_hosts line as host_key", func(e *Endpoint) { e.HostKey = "198.18.0.1 " + hostKey }, []string{"host_key:", "not a known_hosts line"}},
		{"no host key policy", func(e *Endpoint) { e.HostKey = "" }, []string{"host_key: no host key policy: set host_key or known_hosts_file, or insecure_ignore_host_key = true"}},
		{"host_key and insecure", func(e *Endpoint) { e.InsecureIgnoreHostKey = true }, []string{"insecure_ignore_host_key: conflicts with host_key"}},
		{"host_key and known_hosts", func(e *Endpoint) { e.KnownHostsFile = kh }, []string{"known_hosts_file: conflicts with host_key"}},
		{"missing known_hosts", func(e *Endpoint) {
			e.HostKey, e.KnownHostsFile = "", filepath.Join(t.TempDir(), "nope")
		}, []string{`known_hosts_file: "`, "no such file"}},
		{"several problems reported together", func(e *Endpoint) { e.Host, e.Port = "", 0 }, []string{"host: must not be empty", "port: 0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ep := valid
			tc.mod(&ep)
			err := ValidateEndpoint(ep)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Errorf("not a *ConfigError: %T", err)
			}
			assertNoSecrets(t, err, secrets...)
		})
	}
}

func TestValidateEndpointNoPolicyIsSentinel(t *testing.T) {
	err := ValidateEndpoint(Endpoint{Host: "r1", Port: 22, User: "u", Auth: Auth{Password: "p"}})
	if !errors.Is(err, ErrNoHostKeyPolicy) {
		t.Fatalf("got %v", err)
	}
}

func TestValidateConfigPrefixesJumpHosts(t *testing.T) {
	hostKey := KeyLine(ed25519PublicKey(t))
	ep := Endpoint{Host: "198.18.0.1", Port: 22, User: "admin", Auth: Auth{Password: testPassword}, HostKey: hostKey}
	jump := ep
	jump.User, jump.Auth = "", Auth{} // not inherited from the target
	err := ValidateConfig(Config{Endpoint: ep, JumpHosts: []Endpoint{ep, jump}})
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{"jump_hosts[1].user: must not be empty", "jump_hosts[1].auth: no authentication method"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "jump_hosts[0]") {
		t.Errorf("valid jump host reported: %v", err)
	}
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.HasPrefix(ce.Field, "jump_hosts[1].") {
		t.Errorf("ConfigError field = %+v", ce)
	}
	if err := ValidateConfig(Config{Endpoint: ep, JumpHosts: []Endpoint{ep}}); err != nil {
		t.Errorf("valid config: %v", err)
	}
}
