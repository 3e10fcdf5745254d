package linux_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// On a real router without nftables (lab.NodeSpec.Lacks hides nft from
// its PATH), the apply script's guard stops it with its own message and
// exit status where connection tracking needs nft, after the commands
// before it ran: the plan refuses this earlier
// (TestAccRouter_missingNftAtPlan), the guard is for a router that lost
// nft between plan and apply.
func TestApplyRouterWithoutNftLab(t *testing.T) {
	t.Parallel()
	s := lab.DefaultSpec("lxnft")
	s.MgmtNet = 215
	s.Nodes[1].Lacks = []string{"nft"} // r
	l, c := labRouter(t, s)
	drv := linux.New(c)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	snap, err := drv.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !snap.Router.ConnectionTracking {
		t.Fatal("a router without nftables reads as not tracking connections")
	}
	err = drv.ApplyRouter(ctx, device.RouterConfig{Hostname: ptr("lxnft-x"), ConnectionTracking: ptr(false)}, snap.Router)
	if err == nil || !strings.Contains(err.Error(), "exit status 127") ||
		!strings.Contains(err.Error(), "nftables is not installed on the device (nft not found): apt-get install nftables") {
		t.Fatalf("ApplyRouter without nft: %v", err)
	}
	if out, err := l.Exec(ctx, "r", "cat", "/proc/sys/kernel/hostname"); err != nil || strings.TrimSpace(out) != "lxnft-x" {
		t.Errorf("host name %q (%v): the commands before the guard did not run", out, err)
	}
}

// An IPsec tunnel on a router whose charon does not answer: the real
// swanctl fails to connect, and the apply says what to look at. The
// router's charon runs; a stand-in swanctl in its BinDir runs the real one
// against a socket no charon listens on.
func TestApplyIPsecWithoutCharonLab(t *testing.T) {
	t.Parallel()
	testenv.RequireCommand(t, "swanctl", "apt-get install strongswan-swanctl")
	s := lab.DefaultSpec("lxnoc")
	s.MgmtNet = 217
	l, c := labRouter(t, s)
	swanctl, err := exec.LookPath("swanctl")
	if err != nil {
		t.Fatal(err)
	}
	stand := fmt.Sprintf("#!/bin/sh\nexec %s \"$@\" --uri unix:///run/routerlab-no-charon.vici\n", shell.Quote(swanctl))
	if err := os.WriteFile(filepath.Join(l.Node("r").BinDir, "swanctl"), []byte(stand), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = linux.New(c).ApplyTunnel(ctx, hostileIPsec(), nil)
	// The error keeps the end of stderr: swanctl's usage, which it prints
	// after "connecting to ... failed", and the driver's hint.
	if err == nil || !strings.Contains(err.Error(), "swanctl --load-all failed (see above): is the strongSwan daemon running") {
		t.Fatalf("ApplyTunnel without a charon: %v", err)
	}
}
