package sshx

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// parsePrivateKey parses PEM / OpenSSH private key text. Errors never contain
// the key text or the passphrase, only what is wrong with them.
func parsePrivateKey(key, passphrase string) (ssh.Signer, error) {
	signer, err := ssh.ParsePrivateKey([]byte(key))
	var missing *ssh.PassphraseMissingError
	switch {
	case err == nil:
		return signer, nil
	case errors.As(err, &missing):
		if passphrase == "" {
			return nil, &ConfigError{Field: "private_key", Msg: "key is encrypted: set passphrase"}
		}
		signer, err = ssh.ParsePrivateKeyWithPassphrase([]byte(key), []byte(passphrase))
		if err != nil {
			// x509.IncorrectPasswordError / bcrypt_pbkdf "decryption failed":
			// do not echo anything, the message is enough.
			return nil, &ConfigError{Field: "passphrase", Msg: "cannot decrypt private_key with the given passphrase"}
		}
		return signer, nil
	default:
		return nil, &ConfigError{Field: "private_key", Msg: "cannot parse private key: " + safeKeyErr(err)}
	}
}

// safeKeyErr reduces a key-parsing error to its message, defensively
// dropping anything that looks like it could quote key material.
func safeKeyErr(err error) string {
	msg := err.Error()
	if len(msg) > 120 || strings.Contains(msg, "-----") {
		return "invalid or unsupported key format"
	}
	return msg
}

// authPlan is the set of auth methods for one hop. Closing it releases the
// agent connection, which is only needed during the handshake.
type authPlan struct {
	methods []ssh.AuthMethod
	names   []string // for error messages: "publickey", "password", ...
	close   func()
}

// newAuthPlan builds the client auth methods for ep. Public key methods come
// first (they are not brute-forceable and are what routers prefer), then
// password, then keyboard-interactive answering every prompt with the
// password (many network OSes only enable keyboard-interactive).
//
// x/crypto tries each method *name* only once, so the private key and the
// agent keys must share a single "publickey" method.
func newAuthPlan(ep Endpoint, warnf func(string, ...any)) (*authPlan, error) {
	plan := &authPlan{close: func() {}}
	var signers []ssh.Signer
	if ep.PrivateKey != "" {
		s, err := parsePrivateKey(ep.PrivateKey, ep.Passphrase)
		if err != nil {
			return nil, err
		}
		signers = append(signers, s)
	}

	var agentClient agent.ExtendedAgent
	if ep.UseAgent {
		sock := os.Getenv("SSH_AUTH_SOCK")
		var conn net.Conn
		var err error
		if sock == "" {
			err = errors.New("SSH_AUTH_SOCK is not set")
		} else {
			conn, err = net.Dial("unix", sock)
		}
		switch {
		case err == nil:
			agentClient = agent.NewClient(conn)
			plan.close = func() { conn.Close() }
		case len(signers) > 0 || ep.Password != "":
			// Other credentials exist: the agent is a convenience, not a requirement.
			if warnf != nil {
				warnf("use_agent is set for %s@%s but the ssh-agent is unusable (%v); trying the other credentials", ep.User, ep.Host, err)
			}
		default:
			return nil, fmt.Errorf("use_agent: cannot reach ssh-agent: %w", err)
		}
	}

	if len(signers) > 0 || agentClient != nil {
		plan.methods = append(plan.methods, ssh.PublicKeysCallback(func() ([]ssh.Signer, error) {
			out := append([]ssh.Signer(nil), signers...)
			if agentClient != nil {
				as, err := agentClient.Signers()
				if err != nil {
					if len(out) == 0 {
						return nil, fmt.Errorf("ssh-agent: %w", err)
					}
				} else {
					out = append(out, as...)
				}
			}
			return out, nil
		}))
		plan.names = append(plan.names, "publickey")
	}
	if ep.Password != "" {
		pw := ep.Password
		plan.methods = append(plan.methods,
			ssh.Password(pw),
			ssh.KeyboardInteractive(func(_, _ string, questions []string, _ []bool) ([]string, error) {
				answers := make([]string, len(questions))
				for i := range answers {
					answers[i] = pw
				}
				return answers, nil
			}),
		)
		plan.names = append(plan.names, "password", "keyboard-interactive")
	}
	if len(plan.methods) == 0 {
		plan.close()
		return nil, &ConfigError{Field: "auth", Msg: "no authentication method: set password, private_key or use_agent"}
	}
	return plan, nil
}
