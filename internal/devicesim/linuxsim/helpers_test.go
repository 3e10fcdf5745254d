package linuxsim

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

func ptr[T any](v T) *T { return &v }

// exec runs one command on r directly, without SSH.
func exec(r *Router, cmd, stdin string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = r.Exec(cmd, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// applyScript runs script the way the Linux driver applies one.
func applyScript(r *Router, script string) (stdout, stderr string, code int) {
	return exec(r, "sh -e -x -s", script)
}

// sim is a simulated router behind SSH with the real Linux driver on it.
type sim struct {
	r      *Router
	dev    *devicesim.Device
	client *sshx.Client
	drv    *linux.Driver
}

func newSim(t *testing.T, opts Options) *sim {
	t.Helper()
	r := New(opts)
	dev := devicesim.New(t, r, devicesim.Options{})
	c := sshx.NewClient("sim-r", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	return &sim{r: r, dev: dev, client: c, drv: linux.New(c)}
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func (s *sim) snapshot(t *testing.T) *device.Snapshot {
	t.Helper()
	snap, err := s.drv.Snapshot(ctxT(t))
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	return snap
}

// snapshotScript is the driver's snapshot script, as it arrived over SSH.
func snapshotScript(t *testing.T) string {
	t.Helper()
	s := newSim(t, Options{})
	s.snapshot(t)
	cmds := s.dev.Commands()
	if len(cmds) != 1 || !isSnapshot(cmds[0]) {
		t.Fatalf("the driver's Snapshot sent %q", cmds)
	}
	return cmds[0]
}
