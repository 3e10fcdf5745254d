package routeros_test

import (
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// lossyRouter is the simulated router behind a link that drops right
// after the router ran its first write script: the script is applied, its
// end never reaches the client.
type lossyRouter struct {
	sim *rossim.Sim
	dev *devicesim.Device

	mu     sync.Mutex
	writes int
}

func (r *lossyRouter) Exec(cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	code := r.sim.Exec(cmd, stdin, stdout, stderr)
	if !strings.HasSuffix(cmd, routeros.WriteScript(nil)) {
		return code // a read
	}
	r.mu.Lock()
	r.writes++
	first := r.writes == 1
	r.mu.Unlock()
	if first {
		r.dev.DropAll()
	}
	return code
}

// A write script the router ran before the link dropped is not sent
// again: RouterOS has no transactions, so a second run would apply it
// twice. The driver's write goes through RunWrite, which no transport
// retries, and the error says that the write may or may not have been
// applied (device.Session then reads the router again).
func TestDriverWriteNotRepeatedAfterDroppedConnection(t *testing.T) {
	r := &lossyRouter{sim: rossim.New(rossim.Options{Version: "7.13.4", Model: "RB750Gr3"})}
	r.dev = devicesim.New(t, r, devicesim.Options{User: "admin", LoginFlags: true})
	c := sshx.NewClient("rb", sshx.Config{Endpoint: r.dev.Endpoint(), Dialect: drivers.Dialect(device.RouterOS), KeepAliveInterval: -1}, nil)
	t.Cleanup(func() { c.Close() })
	drv := routeros.New(c)
	if _, err := drv.Snapshot(ctx(t)); err != nil { // connect, read the version
		t.Fatal(err)
	}
	err := drv.DeleteFirewall(ctx(t), device.FirewallState{})
	if err == nil || !strings.Contains(err.Error(), "may or may not have been applied") {
		t.Errorf("DeleteFirewall = %v, want the lost connection and an unknown outcome", err)
	}
	r.mu.Lock()
	writes := r.writes
	r.mu.Unlock()
	if writes != 1 {
		t.Fatalf("the router ran the write script %d times, want once", writes)
	}
}
