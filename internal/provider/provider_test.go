package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// testProviders serves the provider in-process to the Terraform CLI that
// terraform-plugin-testing runs.
var testProviders = map[string]func() (tfprotov6.ProviderServer, error){
	"routerlab": providerserver.NewProtocol6WithError(New("test")()),
}

// inventoryRecorder serves a provider that hands every inventory it
// configures to the test, to count SSH connections per operation.
type inventoryRecorder struct {
	mu   sync.Mutex
	invs []*Inventory
}

func (r *inventoryRecorder) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	p := &routerlabProvider{version: "test", configured: func(inv *Inventory) {
		r.mu.Lock()
		r.invs = append(r.invs, inv)
		r.mu.Unlock()
	}}
	return map[string]func() (tfprotov6.ProviderServer, error){"routerlab": providerserver.NewProtocol6WithError(p)}
}

func (r *inventoryRecorder) inventories() []*Inventory {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Inventory(nil), r.invs...)
}

func (r *inventoryRecorder) closeAll() {
	for _, inv := range r.inventories() {
		_ = inv.Close()
	}
}

// requireAcc is the pre-check of every acceptance test: in CI an
// acceptance tier that does not run is a failure, not a skip.
func requireAcc(t *testing.T) {
	t.Helper()
	testenv.RequireEnv(t, "TF_ACC", "the acceptance tier (Terraform against the provider; make test-all sets it)")
}

// startLab brings up the A — R — B namespace lab for one test.
func startLab(t *testing.T, name string, mgmtNet int) *lab.Lab {
	t.Helper()
	s := lab.DefaultSpec(name)
	s.MgmtNet = mgmtNet
	return startLabSpec(t, s)
}

// startLabSpec brings up the lab s for one test (a spec of its own: a
// node that lacks a command, say).
func startLabSpec(t *testing.T, s lab.Spec) *lab.Lab {
	t.Helper()
	requireAcc(t)
	labtest.RequireRoot(t)
	return labtest.Start(t, s)
}

// labProvider renders a provider block for the lab's three nodes, using the
// lab's generated client key and known_hosts file.
func labProvider(l *lab.Lab) string {
	// A UML lab's nodes are slow routers: every process they start costs
	// 70-130 ms inside the UML kernel, several times that while the rest
	// of the suite runs beside it, and an L2TP/IPsec client's create (IKE,
	// xl2tpd, pppd, then the wait for its session) once ran past the
	// default one-minute command_timeout. As one would for a slow router.
	// The SSH handshake with a UML node's sshd ran past 5 s too in a CI
	// run.
	timeouts := "    connect_timeout = \"5s\"\n"
	if l.UML() != nil {
		timeouts = "    connect_timeout = \"30s\"\n    command_timeout = \"3m\"\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "provider \"routerlab\" {\n  ssh {\n    username = \"root\"\n    private_key = file(%q)\n    known_hosts_file = %q\n%s  }\n",
		l.ClientKeyPath(), l.KnownHostsPath(), timeouts)
	for _, n := range l.Nodes() {
		b.WriteString(linuxDevice(n.Name, n.MgmtAddr))
	}
	b.WriteString("}\n")
	return b.String()
}

// labExec runs a command on a lab node as "someone at the console" would.
func labExec(t *testing.T, l *lab.Lab, node string, args ...string) string {
	t.Helper()
	limit := 20 * time.Second
	if l.UML() != nil {
		limit = 2 * time.Minute // slow routers (labProvider)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	out, err := l.Exec(ctx, node, args...)
	if err != nil {
		t.Fatalf("%s: %v: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

// linuxDevice is a provider device block for a Linux device at host.
func linuxDevice(name, host string) string {
	return fmt.Sprintf("  device {\n    name     = %q\n    platform = \"linux\"\n    host     = %q\n  }\n", name, host)
}
