package devicesim

import (
	"io"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

// Defaults for Options.
const (
	DefaultUser     = "root"
	DefaultPassword = "routerlab-sim"
)

// Handler is a platform simulator: it runs one exec request against the
// simulated device's state and returns the exit status. Several SSH channels
// may call Exec at the same time, so implementations must be safe for
// concurrent use.
type Handler interface {
	Exec(cmd string, stdin io.Reader, stdout, stderr io.Writer) int
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(cmd string, stdin io.Reader, stdout, stderr io.Writer) int

// Exec calls f.
func (f HandlerFunc) Exec(cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	return f(cmd, stdin, stdout, stderr)
}

// ShellHandler is implemented by a Handler whose device also offers an
// interactive shell on a PTY (a console CLI, like YAMAHA RTX's): Start
// detects it and serves "shell" requests with it. in is what the client
// types, raw ("\r" ends a line; sshtest.TermReader reads lines and echoes
// them); out goes to the client unchanged, so the handler prints its own
// echo, prompts and "\r\n" line ends, as a device's CLI drives its
// terminal. in ends (io.EOF) when the client closes the session. Several
// shells may run at once. The return value is the session's exit status.
type ShellHandler interface {
	Shell(in io.Reader, out io.Writer) int
}

// Options configure a Device's login. Password auth is always required (an
// empty Password means DefaultPassword), so that every test exercises the
// same authentication path as a real router.
type Options struct {
	User     string // default DefaultUser
	Password string // default DefaultPassword
	// LoginFlags accepts the login name with console flags after a "+"
	// (RouterOS: "admin+cet1024w" is user "admin"), as the RouterOS
	// dialect's transport sends it.
	LoginFlags bool
}

// Device is a running simulated device. It embeds the sshtest server, so
// Host ("127.0.0.1"), Port, Addr, HostKeyLine (for pinning), Accepted (TCP
// connections), Logins, Execs, WaitExec, DropAll (a reboot, as seen by the
// client), Shells and Close are those of sshtest.Server.
type Device struct {
	*sshtest.Server
	User     string
	Password string
	Handler  Handler
}

// Start starts a device answering with h; the caller must Close it. If h
// is also a ShellHandler, the device serves interactive shells with it
// (sshtest's Shells records them).
func Start(h Handler, opts Options) (*Device, error) {
	if opts.User == "" {
		opts.User = DefaultUser
	}
	if opts.Password == "" {
		opts.Password = DefaultPassword
	}
	var shell func(io.Reader, io.Writer) int
	if sh, ok := h.(ShellHandler); ok {
		shell = sh.Shell
	}
	srv, err := sshtest.Start(sshtest.Options{
		User:      opts.User,
		Password:  opts.Password,
		UserFlags: opts.LoginFlags,
		// A simulator answers at once; signals (sent by a client killing a
		// command on timeout) have nothing to interrupt.
		Handler: func(cmd string, stdin io.Reader, stdout, stderr io.Writer, _ <-chan ssh.Signal) int {
			return h.Exec(cmd, stdin, stdout, stderr)
		},
		Shell: shell,
	})
	if err != nil {
		return nil, err
	}
	return &Device{Server: srv, User: opts.User, Password: opts.Password, Handler: h}, nil
}

// New starts a device and closes it when the test ends.
func New(tb testing.TB, h Handler, opts Options) *Device {
	tb.Helper()
	d, err := Start(h, opts)
	if err != nil {
		tb.Fatalf("devicesim: %v", err)
	}
	tb.Cleanup(d.Close)
	return d
}

// Close stops the server, then closes the handler when it holds
// resources of its own (an io.Closer: edgeossim's file system).
func (d *Device) Close() {
	d.Server.Close()
	if c, ok := d.Handler.(io.Closer); ok {
		_ = c.Close()
	}
}

// Endpoint is how the provider's SSH transport reaches d: password auth
// and the host key pinned.
func (d *Device) Endpoint() sshx.Endpoint {
	return sshx.Endpoint{
		Host:           d.Host,
		Port:           d.Port,
		User:           d.User,
		Auth:           sshx.Auth{Password: d.Password},
		HostKey:        d.HostKeyLine(),
		ConnectTimeout: 5 * time.Second,
	}
}

// Commands lists the commands executed so far, in arrival order.
func (d *Device) Commands() []string {
	execs := d.Execs()
	out := make([]string, len(execs))
	for i, e := range execs {
		out[i] = e.Cmd
	}
	return out
}
