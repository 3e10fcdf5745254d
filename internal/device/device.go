// Package device holds what every platform driver shares: the Driver
// interface, the domain types a driver reads and writes, and the sentinel
// errors. It knows nothing of Terraform: internal/provider converts its own
// models to and from these types.
package device

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// ErrNotFound means the thing asked for does not exist on the device. A
// resource whose Read meets it is removed from state.
var ErrNotFound = errors.New("not found on device")

// ErrInterfaceAbsent means a configuration names an interface the device
// does not have now, on a platform that matches interfaces by name when
// they appear (nftables' iifname/oifname): a PPP session's or a tunnel's
// interface that the same apply creates is such a name. Plan warns; the
// check before the write refuses it if it is still absent then.
var ErrInterfaceAbsent = errors.New("interface not on the device now")

// ErrUnsupported means the platform cannot do what was asked. Wrapped errors
// name the platform and the feature.
var ErrUnsupported = errors.New("not supported by this platform")

// Platform names a device family. The values are the ones users write in the
// provider's devices map.
type Platform string

// The platforms the provider knows.
const (
	RouterOS Platform = "routeros"
	EdgeOS   Platform = "edgeos"
	RTX      Platform = "rtx"
	Linux    Platform = "linux"
	// VyOS shares EdgeOS's Vyatta CLI and driver; what differs is in its
	// own, narrower set of capabilities.
	VyOS Platform = "vyos"
)

// Platforms lists every known platform, sorted, for validators and messages.
func Platforms() []string {
	p := []string{string(RouterOS), string(EdgeOS), string(RTX), string(Linux), string(VyOS)}
	sort.Strings(p)
	return p
}

// Unsupported builds an error that says which platform lacks which feature.
func Unsupported(p Platform, feature string) error {
	return fmt.Errorf("platform %q: %s: %w", p, feature, ErrUnsupported)
}

// Facts are read-only properties of a device.
type Facts struct {
	Platform Platform
	Model    string
	Firmware string // OS or firmware version; the kernel release on Linux
	Serial   string
	Hostname string
	CPUCount int
	// Missing lists the tools the driver uses that the device lacks (on
	// Linux: nft), so a configuration needing one fails at plan.
	Missing []string
	// SharedKernel, when not empty, says that the device is no machine of
	// its own but shares its kernel with processes outside it, and how the
	// driver knows (Linux: its network namespace is not init's, as in
	// routerlab's namespace lab). Its CPU counters (/proc/stat) are then
	// the whole machine's, and no per-device figure exists: forwarding runs
	// in softirq context, charged to whichever task is on the CPU. "" when
	// the driver saw no sign of it or cannot tell.
	SharedKernel string
	// BootID identifies the running kernel (Linux: /proc/sys/kernel/random/boot_id,
	// the same in every namespace): two devices with one BootID are one
	// machine, so the CPU read on one counts the other's processes too
	// (an iperf3 endpoint on the DUT's kernel). "" where unknown.
	BootID string
}

// Snapshot is everything one read of a device yields: its facts, a parsed
// section per resource kind, the operational status, and the normalised
// configuration text with its digest. A snapshot is taken once per
// Terraform operation and shared by every resource on the device (see
// Session).
type Snapshot struct {
	Facts Facts
	// Router is the section routerlab_router reads; each resource kind
	// has its section, all filled by the same single read.
	Router RouterState
	// Tunnels are the tunnels routerlab owns, by name, without secrets.
	Tunnels map[string]TunnelState
	// Firewall is routerlab's firewall.
	Firewall FirewallState
	// Offload holds every offload switch the platform reports, by group
	// (on Linux: every interface's gro, gso and tso).
	Offload OffloadState
	// PPPoE are the PPPoE sessions routerlab owns, by name, without
	// secrets.
	PPPoE map[string]PPPoEState
	// Status is operational state (links up or down, tunnels established,
	// PPPoE addresses, counters): it is reported, never configured, and
	// is kept out of Text so that it never changes the digest.
	Status Status
	// Text is the normalised running configuration: stable line order, no
	// timestamps, counters or operational state, and no secrets (parsers
	// redact them), so that its digest changes only when the configuration
	// does.
	Text string
	// SHA256 is the hex digest of Text.
	SHA256 string
	// Warnings are what the read found that the user should know but
	// that is no part of the configuration (EdgeOS: what an interrupted
	// change left on the router, which the next apply puts right). The
	// provider shows each once per operation; they never reach Text.
	Warnings []string
	// Parsed is the platform's own parse of the configuration (RouterOS:
	// its *routeros.Export), for that platform's plan checks and
	// renderers, which need more than the sections above. Nothing outside
	// the platform package reads it.
	Parsed any
}

// Status is a device's operational state at snapshot time.
type Status struct {
	// Links maps an interface name to its operational state as the
	// platform reports it ("UP", "DOWN", "UNKNOWN" on Linux).
	Links map[string]string
	// Tunnels and PPPoE report each owned object's state by name.
	Tunnels map[string]TunnelStatus
	PPPoE   map[string]PPPoEStatus
}

// CPUSample is one reading of a device's CPU counters. Platforms that report
// cumulative jiffies (Linux, EdgeOS) fill Busy/Total per core; platforms that
// report a load percentage directly fill Percent.
type CPUSample struct {
	Percent     float64   // overall load, when the platform reports it directly
	CorePercent []float64 // per-core load, when reported directly
	Busy, Total []uint64  // cumulative counters: index 0 is all cores, then core 0..n-1
}

// Driver is what every platform has: its name and a snapshot of the
// device. Features beyond that are capabilities (capability.go) a driver
// implements or not. Implementations are thin executors over the command
// path around pure render/parse functions.
type Driver interface {
	Platform() Platform
	// Snapshot reads facts and running configuration in as few round trips
	// as the platform allows (one on Linux). A platform that cannot read
	// its configuration yet returns an ErrUnsupported error.
	Snapshot(ctx context.Context) (*Snapshot, error)
}

// CommandError reports a device command that exited non-zero, with the tail
// of what it printed on stderr.
func CommandError(what string, r command.Result) error {
	msg := strings.TrimSpace(r.Stderr)
	if lines := strings.Split(msg, "\n"); len(lines) > 12 {
		msg = strings.Join(lines[len(lines)-12:], "\n")
	}
	return fmt.Errorf("%s: exit status %d: %s", what, r.ExitStatus, msg)
}
