package rtxsim

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
)

// ptyClient is a terminal on an SSH shell session: what it types, what
// the device prints.
type ptyClient struct {
	t     *testing.T
	stdin io.WriteCloser
	got   chan []byte
	buf   bytes.Buffer
}

// expect reads until the output ends with suffix and returns everything
// read since the last expect. The deadline only stops a hung test; no
// result depends on timing.
func (p *ptyClient) expect(suffix string) string {
	p.t.Helper()
	deadline := time.After(10 * time.Second)
	for !strings.HasSuffix(p.buf.String(), suffix) {
		select {
		case b, ok := <-p.got:
			if !ok {
				p.t.Fatalf("session ended waiting for %q; got %q", suffix, p.buf.String())
			}
			p.buf.Write(b)
		case <-deadline:
			p.t.Fatalf("no %q after 10s; got %q", suffix, p.buf.String())
		}
	}
	out := p.buf.String()
	p.buf.Reset()
	return out
}

func (p *ptyClient) send(s string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, s); err != nil {
		p.t.Fatal(err)
	}
}

// The simulator behind devicesim's SSH server, driven as the console
// transport will drive it: password login, a PTY, a shell.
func TestConsoleOverSSH(t *testing.T) {
	r := New(Options{AdminPassword: "sim-admin", Config: readLines(t, "seed001_rtx810_config.txt")})
	dev := devicesim.New(t, r, devicesim.Options{})

	client, err := ssh.Dial("tcp", dev.Addr, &ssh.ClientConfig{
		User:            dev.User,
		Auth:            []ssh.AuthMethod{ssh.Password(dev.Password)},
		HostKeyCallback: ssh.FixedHostKey(dev.HostKey),
		Timeout:         5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	stdin, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("vt100", 40, 200, ssh.TerminalModes{ssh.ECHO: 0}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	p := &ptyClient{t: t, stdin: stdin, got: make(chan []byte)}
	go func() {
		defer close(p.got)
		for {
			b := make([]byte, 512)
			n, err := stdout.Read(b)
			if n > 0 {
				p.got <- b[:n]
			}
			if err != nil {
				return
			}
		}
	}()

	if banner := p.expect("\r\n> "); !strings.Contains(banner, "RTX810 Rev.11.01.34") {
		t.Errorf("banner %q", banner)
	}
	p.send("administrator\r")
	p.expect("Password: ")
	p.send("sim-admin\r")
	p.expect("\r\n# ")
	for _, l := range []string{"console character ascii", "console columns 200", "console lines infinity"} {
		p.send(l + "\r")
		if got := p.expect("# "); got != l+"\r\n# " {
			t.Errorf("%s: %q", l, got)
		}
	}
	p.send("tunnel select 1\r")
	p.expect("tunnel1# ")
	p.send("ip tunnel mtu 1280\r")
	p.expect("tunnel1# ")
	p.send("ipsec ike pre-shared-key 1\r")
	if got := p.expect("tunnel1# "); got != "ipsec ike pre-shared-key 1\r\nError: Insufficient or too many parameters\r\ntunnel1# " {
		t.Errorf("bad line: %q", got)
	}
	p.send("tunnel select none\r")
	p.expect("\r\n# ")
	p.send("show config\r")
	// The header's lines start "# " too: wait for the last line's prompt.
	out := p.expect("198.18.100.191/24\r\n# ")
	if !strings.Contains(out, "\r\n# main:  RTX810 ver=00 serial=S3K012345 MAC-Address=00:a0:de:12:34:56 MAC-Address=00:a0:de:12:34:57\r\n") ||
		!strings.Contains(out, "\r\ntunnel select 1\r\n ipsec tunnel 1\r\n  ipsec sa policy 1 1 esp\r\n") ||
		!strings.Contains(out, "\r\n ip tunnel mtu 1280\r\n") {
		t.Errorf("show config over SSH:\n%s", out)
	}
	p.send("exit\r")
	p.expect("Save new configuration ? (Y/N)")
	p.send("N\r") // as the console transport answers: key and Enter
	p.expect("N\r\n> ")
	p.send("exit\r")
	p.expect("exit\r\n")
	if err := sess.Wait(); err != nil {
		t.Errorf("session end: %v", err)
	}

	shells := dev.Shells()
	if len(shells) != 1 || shells[0].PTY == nil || shells[0].PTY.Cols != 200 || !shells[0].Done || shells[0].Exit != 0 {
		t.Errorf("recorded shells: %+v", shells)
	}
	if !slices.Contains(r.Config(), " ip tunnel mtu 1280") || slices.Contains(r.Saved(), " ip tunnel mtu 1280") {
		t.Errorf("answered N: running %q, saved %q", r.Config(), r.Saved())
	}
	if len(dev.Execs()) != 0 {
		t.Errorf("exec requests: %+v", dev.Execs())
	}
}
