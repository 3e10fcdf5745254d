package devicesim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func client(t *testing.T, ep sshx.Endpoint) *sshx.Client {
	t.Helper()
	c := sshx.NewClient("sim", sshx.Config{Endpoint: ep}, nil)
	t.Cleanup(func() { c.Close() })
	return c
}

// upper echoes its command and stdin upper-cased, and fails on "fail".
var upper = HandlerFunc(func(cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	if cmd == "fail" {
		fmt.Fprintln(stderr, "failed on purpose")
		return 3
	}
	in, _ := io.ReadAll(stdin)
	fmt.Fprintf(stdout, "%s|%s", strings.ToUpper(cmd), strings.ToUpper(string(in)))
	return 0
})

func TestDeviceRunsHandlerOverSSH(t *testing.T) {
	d := New(t, upper, Options{})
	if d.Host != "127.0.0.1" || d.Port == 0 || d.User != "root" || d.Password != DefaultPassword {
		t.Fatalf("device = %s:%d user %q password %q", d.Host, d.Port, d.User, d.Password)
	}
	if !strings.HasPrefix(d.HostKeyLine(), "ssh-ed25519 ") {
		t.Fatalf("HostKeyLine = %q", d.HostKeyLine())
	}
	c := client(t, d.Endpoint())

	res, err := c.Run(ctxT(t), "show version")
	if err != nil || res.Stdout != "SHOW VERSION|" || res.ExitStatus != 0 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	res, err = c.RunWrite(ctxT(t), "apply", []byte("mtu 9000"))
	if err != nil || res.Stdout != "APPLY|MTU 9000" {
		t.Fatalf("RunWrite = %+v, %v", res, err)
	}
	res, err = c.Run(ctxT(t), "fail")
	if err != nil || res.ExitStatus != 3 || res.Stderr != "failed on purpose\n" {
		t.Fatalf("fail = %+v, %v", res, err)
	}
	if got := strings.Join(d.Commands(), ","); got != "show version,apply,fail" {
		t.Errorf("Commands = %s", got)
	}
	if d.Accepted() != 1 || d.Logins() != 1 || len(d.Execs()) != 3 {
		t.Errorf("accepted=%d logins=%d execs=%d: one connection must carry every command", d.Accepted(), d.Logins(), len(d.Execs()))
	}
}

func TestDeviceRequiresPasswordAndPinnedKey(t *testing.T) {
	d := New(t, upper, Options{User: "admin", Password: "pw-1"})
	other := New(t, upper, Options{})

	ep := d.Endpoint()
	ep.Password = "wrong"
	var ae *sshx.AuthError
	if _, err := client(t, ep).Run(ctxT(t), "x"); !errors.As(err, &ae) {
		t.Fatalf("wrong password: %v", err)
	}
	ep = d.Endpoint()
	ep.User = "root"
	if _, err := client(t, ep).Run(ctxT(t), "x"); !errors.As(err, &ae) {
		t.Fatalf("wrong user: %v", err)
	}
	ep = d.Endpoint()
	ep.HostKey = other.HostKeyLine()
	var hk *sshx.HostKeyMismatchError
	if _, err := client(t, ep).Run(ctxT(t), "x"); !errors.As(err, &hk) {
		t.Fatalf("another device's host key: %v", err)
	}
	if d.Logins() != 0 || len(d.Execs()) != 0 {
		t.Errorf("logins=%d execs=%d after failed logins", d.Logins(), len(d.Execs()))
	}
	if res, err := client(t, d.Endpoint()).Run(ctxT(t), "ok"); err != nil || res.Stdout != "OK|" {
		t.Fatalf("right credentials: %+v %v", res, err)
	}
}

// Several sessions on one connection call the handler at once.
func TestDeviceConcurrentExecs(t *testing.T) {
	var mu sync.Mutex
	inFlight, maxInFlight := 0, 0
	h := HandlerFunc(func(cmd string, _ io.Reader, stdout, _ io.Writer) int {
		mu.Lock()
		inFlight++
		maxInFlight = max(maxInFlight, inFlight)
		mu.Unlock()
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
		fmt.Fprint(stdout, cmd)
		return 0
	})
	d := New(t, h, Options{})
	c := client(t, d.Endpoint())
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := range 6 {
		wg.Go(func() {
			cmd := fmt.Sprintf("cmd-%d", i)
			res, err := c.Run(ctxT(t), cmd)
			if err == nil && res.Stdout != cmd {
				err = fmt.Errorf("%s printed %q", cmd, res.Stdout)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if maxInFlight < 2 {
		t.Errorf("at most %d exec ran at once; sessions must run concurrently", maxInFlight)
	}
}

func TestStartAndClose(t *testing.T) {
	d, err := Start(upper, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ep := d.Endpoint()
	if _, err := client(t, ep).Run(ctxT(t), "x"); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if _, err := client(t, ep).Run(ctxT(t), "x"); err == nil {
		t.Fatal("device still answers after Close")
	}
}
