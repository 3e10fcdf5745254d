package lab

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

const (
	stateFileName  = "state.json"
	stateVersion   = 1
	clientKeyName  = "client_ed25519"
	authKeysName   = "authorized_keys"
	knownHostsName = "known_hosts"
)

// procRecord is a process the lab started.
type procRecord struct {
	Node string `json:"node"`
	// Kind is "sshd" or "charon" (empty in older state files: sshd).
	Kind string `json:"kind,omitempty"`
	PID  int    `json:"pid"`
	// Cmdline is the argv of the final process (sshd, charon) as we started it.
	Cmdline []string `json:"cmdline"`
	// StartTime is field 22 of /proc/PID/stat (0 until known); it guards
	// against PID reuse.
	StartTime uint64 `json:"start_time,omitempty"`
}

// stateFile is the JSON persisted in StateDir. Every resource is recorded
// before it is created, so a crash mid-Up can be cleaned up later.
type stateFile struct {
	Version    int          `json:"version"`
	Name       string       `json:"name"`
	MgmtNet    int          `json:"mgmt_net"`
	StateDir   string       `json:"state_dir"`
	Complete   bool         `json:"complete"`
	Namespaces []string     `json:"namespaces"`
	RootLinks  []string     `json:"root_links"`
	Procs      []procRecord `json:"procs"`
	Files      []string     `json:"files"` // base names inside StateDir
	// Dirs are directories inside StateDir (base names), removed whole:
	// router nodes' files (routerfs.go).
	Dirs  []string `json:"dirs,omitempty"`
	Nodes []*Node  `json:"nodes"`
	// DirectLinks are the host-to-host links that bypass the routers
	// (Spec.WithDirectLink); absent in state files of labs without one.
	DirectLinks []DirectLink `json:"direct_links,omitempty"`
	// UML is the lab's user-mode-linux kernel (uml.go); absent for a lab
	// on the machine's own kernel.
	UML        *umlRecord `json:"uml,omitempty"`
	KnownHosts string     `json:"known_hosts_file"`
	ClientKey  string     `json:"client_key_file"`
}

// Lab is a running (or partially built) lab.
type Lab struct {
	mu       sync.Mutex
	st       stateFile
	clientPE string
	// children: PIDs started by this process -> closed once reaped.
	children map[int]chan struct{}
	down     bool
}

func (l *Lab) statePath() string { return filepath.Join(l.st.StateDir, stateFileName) }

// save writes the state file atomically. Callers hold l.mu or own l exclusively.
func (l *Lab) save() error {
	if err := os.MkdirAll(l.st.StateDir, 0o700); err != nil {
		return fmt.Errorf("create state dir: %w", err)
	}
	b, err := json.MarshalIndent(&l.st, "", "  ")
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	tmp := l.statePath() + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	if err := os.Rename(tmp, l.statePath()); err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	return nil
}

func appendUnique(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// recordFile notes a file (base name in StateDir) before it is written.
func (l *Lab) recordFile(name string) error {
	l.st.Files = appendUnique(l.st.Files, name)
	return l.save()
}

// writeFile records then writes a file inside StateDir.
func (l *Lab) writeFile(name string, data []byte, perm os.FileMode) (string, error) {
	if err := l.recordFile(name); err != nil {
		return "", err
	}
	p := filepath.Join(l.st.StateDir, name)
	if err := os.WriteFile(p, data, perm); err != nil {
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	if err := os.Chmod(p, perm); err != nil {
		return "", fmt.Errorf("chmod %s: %w", p, err)
	}
	return p, nil
}

// Load re-opens a lab from the state file in stateDir (for another process:
// labctl down, a demo, tests). It does not check that the lab is healthy.
func Load(stateDir string) (*Lab, error) {
	b, err := os.ReadFile(filepath.Join(stateDir, stateFileName))
	if err != nil {
		return nil, fmt.Errorf("load lab state: %w", err)
	}
	var st stateFile
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("load lab state %s: %w", stateDir, err)
	}
	if st.Version != stateVersion {
		return nil, fmt.Errorf("load lab state %s: unsupported version %d", stateDir, st.Version)
	}
	// The directory may have been moved/bind-mounted; trust where we found it.
	st.StateDir = stateDir
	l := &Lab{st: st, children: map[int]chan struct{}{}}
	if st.ClientKey != "" {
		if pem, err := os.ReadFile(st.ClientKey); err == nil {
			l.clientPE = string(pem)
		}
	}
	return l, nil
}

// Name is the lab name.
func (l *Lab) Name() string { return l.st.Name }

// StateDir is the directory holding the state file, keys and sshd configs.
func (l *Lab) StateDir() string { return l.st.StateDir }

// Node returns the named node, or nil.
func (l *Lab) Node(name string) *Node {
	for _, n := range l.st.Nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// DirectLink is a host-to-host link of a running lab that bypasses every
// router (Spec.WithDirectLink). Addresses are CIDRs, e.g. 198.18.99.10/24.
// Wire is the namespace of the bridge between the two hosts (its ports
// are "to-<node>"), where the link is shaped frame by frame.
type DirectLink struct {
	A     string `json:"a"`
	AIf   string `json:"a_if"`
	AAddr string `json:"a_addr"`
	B     string `json:"b"`
	BIf   string `json:"b_if"`
	BAddr string `json:"b_addr"`
	Rate  string `json:"rate,omitempty"`
	Wire  string `json:"wire_namespace"`
}

// DirectLinks lists the lab's direct links in spec order.
func (l *Lab) DirectLinks() []DirectLink { return append([]DirectLink(nil), l.st.DirectLinks...) }

// Nodes returns all nodes in spec order.
func (l *Lab) Nodes() []*Node { return append([]*Node(nil), l.st.Nodes...) }

// KnownHostsPath is a known_hosts file with every node's mgmt address and host key.
func (l *Lab) KnownHostsPath() string { return l.st.KnownHosts }

// ClientKeyPath is an OpenSSH-format ed25519 private key authorised for root on every node.
func (l *Lab) ClientKeyPath() string { return l.st.ClientKey }

// ClientKeyPEM is the content of ClientKeyPath.
func (l *Lab) ClientKeyPEM() string { return l.clientPE }

// Namespaces lists the network namespaces the lab recorded (created or about to be).
func (l *Lab) Namespaces() []string { return append([]string(nil), l.st.Namespaces...) }

// RootLinks lists the root-namespace links the lab recorded.
func (l *Lab) RootLinks() []string { return append([]string(nil), l.st.RootLinks...) }

// PIDs lists the PIDs of the processes the lab started: every node's sshd
// and every router's charon.
func (l *Lab) PIDs() []int {
	var out []int
	for _, p := range l.st.Procs {
		if p.PID > 0 {
			out = append(out, p.PID)
		}
	}
	sort.Ints(out)
	return out
}
