package routeros

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// The IPsec peers are printed by the menu the version has: remote-peers
// until 6.44, active-peers from 6.45 (its changelog renamed them) and on
// v7. On 6.45-6.49, the most widely run v6, the old name failed the whole
// snapshot (issue 21, point 1).
func TestPeersCommandFollowsTheVersion(t *testing.T) {
	for _, c := range []struct {
		version, want string
	}{
		{"6.44.6 (long-term)", "/ip ipsec remote-peers print terse"},
		{"6.45.1 (stable)", "/ip ipsec active-peers print terse"},
		{"6.49.10 (long-term)", "/ip ipsec active-peers print terse"},
		{"7.11.2 (stable)", "/ip ipsec active-peers print terse"},
	} {
		if got := peersCommand(MajorVersion(c.version), MinorVersion(c.version)); got != c.want {
			t.Errorf("RouterOS %s: %q, want %q", c.version, got, c.want)
		}
		// The simulator, which records the rename with its source, runs
		// the script the driver sends that version.
		v, _, _ := strings.Cut(c.version, " ")
		sim := rossim.New(rossim.Options{Version: v})
		if _, err := sim.Run(snapshotScript(MajorVersion(v), MinorVersion(v), true)); err != nil {
			t.Errorf("RouterOS %s: the snapshot script fails: %v", v, err)
		}
	}
}
