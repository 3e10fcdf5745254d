package lab

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// keyPair is an ed25519 key in the forms the lab needs.
type keyPair struct {
	PrivatePEM []byte // OpenSSH private key format
	AuthLine   string // "ssh-ed25519 AAAA..." (no trailing newline)
}

func newKeyPair(comment string) (keyPair, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return keyPair{}, fmt.Errorf("generate ed25519 key: %w", err)
	}
	block, err := ssh.MarshalPrivateKey(priv, comment)
	if err != nil {
		return keyPair{}, fmt.Errorf("marshal private key: %w", err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		return keyPair{}, fmt.Errorf("marshal public key: %w", err)
	}
	return keyPair{
		PrivatePEM: pem.EncodeToMemory(block),
		AuthLine:   strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshPub))),
	}, nil
}
