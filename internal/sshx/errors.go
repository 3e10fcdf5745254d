package sshx

import (
	"github.com/routerlab/terraform-provider-routerlab/internal/command"

	"errors"
	"fmt"
	"strings"
	"time"
)

// Sentinel errors. They are always returned wrapped (with the device, the
// address and the limit that was hit), so test them with errors.Is.
var (
	// ErrCommandTimeout is returned when Config.CommandTimeout elapses before
	// the remote command finishes. On a POSIX device its process group has
	// been killed; elsewhere it was sent SIGKILL, which the device may
	// ignore, and the error says so.
	ErrCommandTimeout = errors.New("command timed out")

	// ErrConnectTimeout is returned when the TCP connect plus the SSH
	// handshake of one hop does not finish within Endpoint.ConnectTimeout.
	ErrConnectTimeout = errors.New("connect timed out")

	// ErrClosed is returned by a Client (or Pool) used after Close.
	ErrClosed = errors.New("ssh client is closed")

	// ErrNoHostKeyPolicy is returned when an endpoint has none of HostKey,
	// KnownHostsFile or InsecureIgnoreHostKey. We never silently accept an
	// unknown host key.
	ErrNoHostKeyPolicy = errors.New("no host key policy: set host_key or known_hosts_file, or insecure_ignore_host_key = true")
)

// ConfigError reports an invalid Endpoint field. Field uses the Terraform
// attribute spelling (e.g. "host_key", "jump_hosts[0].port") so the provider
// can attach the diagnostic to the right attribute. Msg never contains a
// secret (password, private key text, passphrase).
type ConfigError struct {
	Field string
	Msg   string
	Err   error // optional sentinel, e.g. ErrNoHostKeyPolicy
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }

func (e *ConfigError) Unwrap() error { return e.Err }

// withPrefix returns a copy of e whose Field is prefixed, e.g. for jump hosts.
func (e *ConfigError) withPrefix(prefix string) *ConfigError {
	return &ConfigError{Field: prefix + e.Field, Msg: e.Msg, Err: e.Err}
}

// ExitError is returned by Result.Err for a remote command that exited with a
// non-zero status. Run itself never returns it: a non-zero exit is a normal
// outcome that callers inspect through Result.ExitStatus.
type ExitError = command.ExitError

// HostKeyMismatchError means the server presented a key different from the
// pinned host_key or from every known_hosts entry for the host. This may be a
// man-in-the-middle attack, so we never fall back to accepting the key.
type HostKeyMismatchError struct {
	Host          string   // "host:port" as dialled
	Expected      []string // SHA256 fingerprints we accept
	Presented     string   // SHA256 fingerprint the server presented
	PresentedType string   // key type the server presented, e.g. "ssh-ed25519"
	KnownHosts    string   // known_hosts file consulted, "" for a pinned host_key
}

func (e *HostKeyMismatchError) Error() string {
	where := "host_key"
	if e.KnownHosts != "" {
		where = "known_hosts (" + e.KnownHosts + ")"
	}
	return fmt.Sprintf("host key mismatch for %s: expected %s, server presented %s (%s); if the device was re-keyed, update %s",
		e.Host, strings.Join(e.Expected, " or "), e.Presented, e.PresentedType, where)
}

// UnknownHostError means the host has no entry in the known_hosts file. The
// message tells the user how to pin the key; the key itself is only a hint
// and must be verified out of band before pinning.
type UnknownHostError struct {
	Host           string // "host:port" as dialled
	Presented      string // SHA256 fingerprint the server presented
	KeyLine        string // authorized_keys form of the presented key: "ssh-ed25519 AAAA..."
	KnownHosts     string // known_hosts file consulted
	KnownHostsLine string // line that would make the host known, in known_hosts format
}

func (e *UnknownHostError) Error() string {
	host, port := splitHostPort(e.Host)
	return fmt.Sprintf("host %s is not in known_hosts file %s (server presented %s). "+
		"After verifying the fingerprint out of band, either pin it in the device config:\n"+
		"  host_key = %q\n"+
		"or add this line to %s:\n"+
		"  %s\n"+
		"(e.g. ssh-keyscan -p %s %s >> %s)",
		e.Host, e.KnownHosts, e.Presented, e.KeyLine, e.KnownHosts, e.KnownHostsLine, port, host, e.KnownHosts)
}

// AuthError means the server rejected every authentication method we offered.
// It names the methods, never the credentials.
type AuthError struct {
	User    string
	Addr    string
	Methods []string
	Err     error // underlying x/crypto error (contains no secrets)
}

func (e *AuthError) Error() string {
	return fmt.Sprintf("authentication failed for user %s at %s (methods tried: %s)", e.User, e.Addr, strings.Join(e.Methods, ", "))
}

func (e *AuthError) Unwrap() error { return e.Err }

// connectTimeoutError builds the error for a hop that did not connect in time.
func connectTimeoutError(addr string, d time.Duration) error {
	return fmt.Errorf("%w: %s did not complete TCP connect and SSH handshake within %s (connect_timeout)", ErrConnectTimeout, addr, d)
}
