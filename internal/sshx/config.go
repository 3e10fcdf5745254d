// Package sshx is the SSH transport of the provider: it runs commands on
// routers over golang.org/x/crypto/ssh (never the ssh binary), with strict
// host key checking, jump host chains, keepalives, per-command timeouts that
// kill the remote process (its whole process group on a POSIX device; a
// vendor CLI is sent SIGKILL), and one lazily opened connection per device.
// A CLI that only offers an interactive shell (command.Console, YAMAHA RTX)
// gets its scripts typed at its prompt on a PTY (console.go).
package sshx

import (
	"github.com/routerlab/terraform-provider-routerlab/internal/command"

	"errors"
	"fmt"
	"strings"
	"time"
)

// Defaults: the provider applies DefaultPort, DefaultUser and
// DefaultKnownHostsFile when a device and the ssh block leave them unset;
// the client applies the rest when the corresponding field is zero. This
// is the one place SSH defaults are decided.
const (
	DefaultPort              = 22
	DefaultUser              = "root"
	DefaultKnownHostsFile    = "~/.ssh/known_hosts"
	DefaultConnectTimeout    = 10 * time.Second
	DefaultCommandTimeout    = 60 * time.Second
	DefaultKeepAliveInterval = 15 * time.Second
	// DefaultMaxSessions stays below OpenSSH's MaxSessions (10) so that
	// Terraform's parallelism never gets "administratively prohibited" when
	// opening a session on a shared connection.
	DefaultMaxSessions = 8
	// DefaultConsoleIdleTimeout bounds how long a console device (see
	// command.Console) may stay silent while a line waits for its prompt.
	DefaultConsoleIdleTimeout = 30 * time.Second
)

// Auth holds the credentials of one hop. Any combination may be set; public
// keys (PrivateKey, then agent keys) are offered first, then the password.
type Auth struct {
	Password   string
	PrivateKey string // PEM / OpenSSH private key text
	Passphrase string // for an encrypted PrivateKey
	UseAgent   bool   // use ssh-agent at $SSH_AUTH_SOCK
}

// Endpoint is one SSH server: the target device or a jump host.
//
// Jump hosts are configured explicitly: an empty User or empty credentials
// of a jump host are NOT inherited from the target (or from another hop).
// Inheriting would silently send the device's password to a bastion.
type Endpoint struct {
	Host string
	Port int
	User string
	Auth
	KnownHostsFile        string        // OpenSSH known_hosts path (may start with ~/)
	HostKey               string        // pinned key, authorized_keys format line: "ssh-ed25519 AAAA... [comment]"
	InsecureIgnoreHostKey bool          // explicit opt-in only
	ConnectTimeout        time.Duration // TCP connect + SSH handshake of this hop; default 10s
}

// Addr is "host:port" as dialled.
func (e Endpoint) Addr() string { return joinHostPort(e.Host, e.Port) }

// Config is everything needed to reach one device.
type Config struct {
	Endpoint
	// JumpHosts is a chain: the first is dialled directly, each next one
	// through the previous, then the target through the last.
	JumpHosts []Endpoint
	// CommandTimeout bounds each command execution (session) of Run and
	// RunWrite, from the opening of its session on, unless ctx has an
	// earlier deadline, and the start (session open, exec request) of
	// Start; dialling is bounded separately by ConnectTimeout. Default 60s.
	CommandTimeout time.Duration
	// KeepAliveInterval between keepalive@openssh.com requests; default 15s,
	// negative disables. A keepalive that fails or gets no reply within 3
	// intervals marks the connection dead so the next command re-dials.
	KeepAliveInterval time.Duration
	// MaxSessions caps concurrent sessions (commands) on the connection;
	// default 8. Further commands wait for a free slot.
	MaxSessions int
	// Dialect is what the device's CLI needs from the transport (declared
	// by its platform driver): a POSIX shell, a login-name suffix, an output
	// charset.
	Dialect command.Dialect
	// EnablePassword is the privileged-mode password of a console device
	// (Dialect.Console.Enable, RTX "administrator"), typed at its password
	// prompt. A secret like Auth.Password: it is never logged and never in
	// error text, not even the validation's.
	EnablePassword string
	// ConsoleIdleTimeout bounds, on a console device, how long the device
	// may print nothing while a line waits for the prompt; default 30s.
	// CommandTimeout bounds the whole session of a Run as it bounds a
	// command's.
	ConsoleIdleTimeout time.Duration
	// Warnf is called, if non-nil, for warnings (e.g. insecure_ignore_host_key
	// in use). It must be safe for concurrent use.
	Warnf func(format string, args ...any)
}

// withDefaults fills zero values. Endpoint ports have no default here: the
// provider schema supplies 22, and a zero port is a configuration error.
func (c Config) withDefaults() Config {
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = DefaultCommandTimeout
	}
	if c.KeepAliveInterval == 0 {
		c.KeepAliveInterval = DefaultKeepAliveInterval
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = DefaultMaxSessions
	}
	if c.ConsoleIdleTimeout <= 0 {
		c.ConsoleIdleTimeout = DefaultConsoleIdleTimeout
	}
	return c
}

func connectTimeout(e Endpoint) time.Duration {
	if e.ConnectTimeout > 0 {
		return e.ConnectTimeout
	}
	return DefaultConnectTimeout
}

// ValidateEndpoint checks e without any network I/O (it does read a
// known_hosts file). It reports every problem, joined; each is a
// *ConfigError naming the field and, for non-secret fields, the bad value.
// Messages never contain the password, the private key or the passphrase.
//
// Rules: host non-empty, port 1-65535, user non-empty; at least one of
// password / private_key / use_agent; private_key parses (with passphrase if
// given); host_key parses as an authorized_keys line; exactly one host key
// policy (host_key, known_hosts_file or insecure_ignore_host_key).
func ValidateEndpoint(e Endpoint) error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &ConfigError{Field: field, Msg: fmt.Sprintf(format, args...)})
	}

	switch {
	case strings.TrimSpace(e.Host) == "":
		bad("host", "must not be empty")
	case strings.ContainsAny(e.Host, " \t\r\n"):
		bad("host", "%q contains whitespace", e.Host)
	}
	if e.Port < 1 || e.Port > 65535 {
		bad("port", "%d is out of range 1-65535", e.Port)
	}
	if strings.TrimSpace(e.User) == "" {
		bad("user", "must not be empty")
	}
	for _, cred := range []struct{ field, value string }{{"user", e.User}, {"password", e.Password}, {"private_key_passphrase", e.Passphrase}} {
		if err := ValidateCredential(cred.field, cred.value); err != nil {
			errs = append(errs, err)
		}
	}
	if e.ConnectTimeout < 0 {
		bad("connect_timeout", "%s must not be negative", e.ConnectTimeout)
	}

	if e.Password == "" && e.PrivateKey == "" && !e.UseAgent {
		bad("auth", "no authentication method: set password, private_key or use_agent")
	}
	if e.PrivateKey != "" {
		if _, err := parsePrivateKey(e.PrivateKey, e.Passphrase); err != nil {
			errs = append(errs, err)
		}
	} else if e.Passphrase != "" {
		bad("passphrase", "is set but private_key is empty")
	}

	var sources []string
	if strings.TrimSpace(e.HostKey) != "" {
		sources = append(sources, "host_key")
		if _, err := ParseHostKey(e.HostKey); err != nil {
			bad("host_key", "%q: %v", truncate(e.HostKey, 80), err)
		}
	}
	if e.KnownHostsFile != "" {
		sources = append(sources, "known_hosts_file")
		// knownHostsPolicy opens and parses the file: "usable" means that works.
		if _, err := knownHostsPolicy(e.KnownHostsFile, e.Addr()); err != nil {
			errs = append(errs, err)
		}
	}
	if e.InsecureIgnoreHostKey {
		sources = append(sources, "insecure_ignore_host_key")
	}
	switch len(sources) {
	case 0:
		errs = append(errs, &ConfigError{Field: "host_key", Msg: ErrNoHostKeyPolicy.Error(), Err: ErrNoHostKeyPolicy})
	case 1:
	default:
		bad(sources[1], "conflicts with %s: set exactly one of host_key, known_hosts_file, insecure_ignore_host_key", sources[0])
	}
	return errors.Join(errs...)
}

// ValidateConfig validates the target and every jump host (fields of jump
// hosts are reported as "jump_hosts[i].field") and the timeouts.
func ValidateConfig(c Config) error {
	var errs []error
	if err := ValidateEndpoint(c.Endpoint); err != nil {
		errs = append(errs, err)
	}
	for i, j := range c.JumpHosts {
		if err := ValidateEndpoint(j); err != nil {
			errs = append(errs, prefixConfigErrors(err, fmt.Sprintf("jump_hosts[%d].", i)))
		}
	}
	if c.CommandTimeout < 0 {
		errs = append(errs, &ConfigError{Field: "command_timeout", Msg: fmt.Sprintf("%s must not be negative", c.CommandTimeout)})
	}
	if err := ValidateCredential("enable_password", c.EnablePassword); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// ValidateCredential refuses a login name or password that holds a line
// break or another control character. A console password (RTX's
// administrator) is typed as a line: a break in it would end it early and
// the text after it would run as a privileged command; an SSH password or
// passphrase with a trailing newline (file("pw.txt")) fails to log in with
// no hint why. The message names field and the byte's position, never the
// value.
func ValidateCredential(field, value string) error {
	for i, r := range value {
		switch {
		case r == '\r' || r == '\n':
			return &ConfigError{Field: field, Msg: fmt.Sprintf("contains a line break (at byte %d): a credential is one line; trimspace() a value read with file()", i)}
		case r < 0x20 || r == 0x7f:
			return &ConfigError{Field: field, Msg: fmt.Sprintf("contains a control character (at byte %d)", i)}
		}
	}
	return nil
}

// prefixConfigErrors rewrites the Field of every *ConfigError in a joined error.
func prefixConfigErrors(err error, prefix string) error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range joined.Unwrap() {
			out = append(out, prefixConfigErrors(e, prefix))
		}
		return errors.Join(out...)
	}
	var ce *ConfigError
	if errors.As(err, &ce) {
		return ce.withPrefix(prefix)
	}
	return fmt.Errorf("%s%w", prefix, err)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
