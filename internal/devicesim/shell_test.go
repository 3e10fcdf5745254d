package devicesim

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

// console answers exec requests like upper and also offers a shell: prompt
// "> ", each typed line echoed and answered upper-cased.
type console struct{ HandlerFunc }

func (console) Shell(in io.Reader, out io.Writer) int {
	tr := sshtest.NewTermReader(in)
	for {
		fmt.Fprint(out, "> ")
		line, err := tr.ReadLine(out)
		if err != nil {
			return 0
		}
		if line == "exit" {
			return 0
		}
		fmt.Fprintf(out, "%s\r\n", strings.ToUpper(line))
	}
}

// openShell logs in to d as its Endpoint does and opens a shell on a PTY.
func openShell(t *testing.T, d *Device) (*ssh.Session, io.Writer, *bufio.Reader, error) {
	t.Helper()
	hk, _, _, _, err := ssh.ParseAuthorizedKey([]byte(d.HostKeyLine()))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ssh.Dial("tcp", d.Addr, &ssh.ClientConfig{
		User:            d.User,
		Auth:            []ssh.AuthMethod{ssh.Password(d.Password)},
		HostKeyCallback: ssh.FixedHostKey(hk),
		Timeout:         5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	if err := sess.RequestPty("vt100", 24, 200, ssh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	return sess, in, bufio.NewReader(out), sess.Shell()
}

func TestShellHandlerServesShells(t *testing.T) {
	d := New(t, console{upper}, Options{})
	// The handler still answers exec requests.
	if res, err := client(t, d.Endpoint()).Run(ctxT(t), "show"); err != nil || res.Stdout != "SHOW|" {
		t.Fatalf("exec on a shell device: %+v %v", res, err)
	}
	sess, in, out, err := openShell(t, d)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(in, "show config\rexit\r")
	all, _ := io.ReadAll(out)
	if want := "> show config\r\nSHOW CONFIG\r\n> exit\r\n"; string(all) != want {
		t.Fatalf("shell printed %q, want %q", all, want)
	}
	if err := sess.Wait(); err != nil {
		t.Fatalf("exit status: %v", err)
	}
	if sh := d.Shells(); len(sh) != 1 || sh[0].PTY == nil || sh[0].PTY.Term != "vt100" || !sh[0].Done {
		t.Fatalf("Shells = %+v", sh)
	}
}

func TestPlainHandlerRefusesShells(t *testing.T) {
	d := New(t, upper, Options{})
	if _, _, _, err := openShell(t, d); err == nil {
		t.Fatal("a device whose handler has no Shell accepted a shell request")
	}
}
