package device

import (
	"context"
	"fmt"
	"time"
)

// Capabilities: every platform has a Driver (platform, snapshot); each
// feature beyond that is a small interface a driver implements or not.
// Callers ask for a feature with Capability, which makes the one error a
// missing feature produces, naming platform and feature, so the provider
// reports it at plan time instead of every resource inventing its own.

// RouterSettings is the base router configuration (routerlab_router):
// host name, interfaces, owned static routes, forwarding, conntrack.
type RouterSettings interface {
	// ValidateRouter checks a desired router configuration against the
	// platform's limits without touching the device.
	ValidateRouter(desired RouterConfig) error
	// CheckRouter checks desired against the device as it is (snap), at
	// plan time: what the configuration needs that the device lacks.
	CheckRouter(desired RouterConfig, snap *Snapshot) error
	// ApplyRouter moves the device from observed to desired, changing only
	// the keys desired manages.
	ApplyRouter(ctx context.Context, desired RouterConfig, observed RouterState) error
	// RestoreRouter puts back values the device itself had (saved
	// originals). They are not held to today's validation rules (the
	// device accepted them once; values are still quoted), and what
	// vanished from the device since is dropped with a warning
	// (DropVanished): restoring must always be possible.
	RestoreRouter(ctx context.Context, original RouterConfig, observed RouterState) (warnings []string, err error)
}

// CPUReader is a platform whose CPU load the benchmark can sample.
type CPUReader interface {
	// CPUProbe says which commands read the load and how to parse them.
	CPUProbe() CPUProbe
}

// CPUProbe describes how to read a device's CPU load; the benchmark engine
// (internal/bench/cpu) runs it on a schedule and turns the samples into
// per-step figures. Exactly one of Stream and Poll is set.
type CPUProbe struct {
	// Stream returns a command that runs until it is ended and prints one
	// block of counters every interval, each block ended by a line "END".
	// One persistent session per DUT costs the device least (Linux and
	// EdgeOS /proc/stat).
	Stream func(every time.Duration) string
	// Poll lists read-only commands run once per interval, each as its own
	// exec (vendor CLIs without a shell loop).
	Poll []string
	// Parse reads one sample: a Stream block, or the outputs of the Poll
	// commands in order. Samples may be cumulative counters (Busy/Total,
	// turned into loads by differences) or loads (Percent/CorePercent).
	Parse func(outputs ...string) (CPUSample, error)
	// SelfCPU, where the platform can tell, reads from one Stream block
	// the CPU time the Stream command itself has used on the device so
	// far: cumulative, every process of it together (on Linux the loop's
	// shell and the children it waited for). The engine reports its growth
	// over wall time as the sampler's own cost. nil: the platform cannot
	// tell (Poll probes). An error makes that block's cost unknown; it
	// does not stop the stream.
	SelfCPU func(block string) (time.Duration, error)
}

// PowerReader is a platform that reports its own power draw (RouterOS
// boards with a power-consumption sensor in /system health).
type PowerReader interface {
	// PowerProbe says which command reads the draw and how to parse it.
	PowerProbe() PowerProbe
}

// PowerProbe describes one read of a device's own power sensor.
type PowerProbe struct {
	Command string
	// Parse returns the draw in watts.
	Parse func(output string) (float64, error)
}

// Capability returns drv's implementation of the feature interface T, or
// an ErrUnsupported error naming the platform and what asked for it
// (typically the resource and attribute, e.g. "routerlab_router").
func Capability[T any](drv Driver, what string) (T, error) {
	if c, ok := drv.(T); ok {
		return c, nil
	}
	var zero T
	return zero, fmt.Errorf("platform %q does not support %s: %w", drv.Platform(), what, ErrUnsupported)
}

// TunnelEndpoints is a platform that runs tunnels (routerlab_tunnel). A
// tunnel is an owned object: created and deleted by name. Which types a
// platform has, and what of each, its ValidateTunnel says at plan time.
type TunnelEndpoints interface {
	// ValidateTunnel checks desired against the platform without the
	// device: unsupported types and attributes are errors naming them.
	ValidateTunnel(desired TunnelConfig) error
	// CheckTunnel checks desired against the device as it is: tools or
	// kernel support it lacks, interfaces that do not exist.
	CheckTunnel(desired TunnelConfig, snap *Snapshot) error
	// ApplyTunnel creates the tunnel, or changes it to desired when
	// observed (its current state) is not nil, and starts it.
	ApplyTunnel(ctx context.Context, desired TunnelConfig, observed *TunnelState) error
	// DeleteTunnel stops the tunnel and removes everything it owns; a
	// tunnel already gone is not an error.
	DeleteTunnel(ctx context.Context, observed TunnelState) error
}

// FirewallSettings is a platform with routerlab_firewall: one per device,
// owning all of routerlab's filter, NAT and mangle rules there.
type FirewallSettings interface {
	ValidateFirewall(desired FirewallConfig) error
	CheckFirewall(desired FirewallConfig, snap *Snapshot) error
	ApplyFirewall(ctx context.Context, desired FirewallConfig, observed FirewallState) error
	// DeleteFirewall removes every rule routerlab's firewall added.
	DeleteFirewall(ctx context.Context, observed FirewallState) error
}

// OffloadSettings is a platform with routerlab_offload: settings whose
// originals are saved before the first write and put back by Delete.
type OffloadSettings interface {
	// OffloadKeys lists the keys the platform knows, for messages.
	OffloadKeys() []string
	ValidateOffload(desired OffloadConfig) error
	CheckOffload(desired OffloadConfig, snap *Snapshot) error
	// ApplyOffload sets every key of desired (also to restore originals).
	ApplyOffload(ctx context.Context, desired OffloadConfig) error
}

// PPPoESessions is a platform with routerlab_pppoe_session: owned
// objects, like tunnels.
type PPPoESessions interface {
	ValidatePPPoE(desired PPPoEConfig) error
	CheckPPPoE(desired PPPoEConfig, snap *Snapshot) error
	ApplyPPPoE(ctx context.Context, desired PPPoEConfig, observed *PPPoEState) error
	DeletePPPoE(ctx context.Context, observed PPPoEState) error
}

// InterfaceCounters is a platform whose interfaces' packet, drop and
// error counters can be read: the benchmark reads them before and after
// each search trial on every DUT, to tell frames the router dropped from
// frames a host's socket buffer did.
type InterfaceCounters interface {
	// CounterProbe says which read-only commands read the counters of
	// ifaces and how to parse their outputs. Empty ifaces: every
	// interface the platform can list itself; a platform whose CLI
	// reads one interface per command and cannot list them (RTX) needs
	// names and says so in its error.
	CounterProbe(ifaces []string) (CounterProbe, error)
}

// CounterProbe describes one read of a device's interface counters.
type CounterProbe struct {
	// Commands are run in order, each as its own exec (one where the
	// platform has a shell).
	Commands []string
	// Parse reads the outputs of Commands, in order.
	Parse func(outputs ...string) ([]IfCounters, error)
}

// IfCounters are one interface's cumulative counters as the device
// reports them.
type IfCounters struct {
	Name                 string
	RxPackets, TxPackets int64
	// RxLosses and TxLosses are the interface's drop and error counters
	// by the platform's own names (Linux rx_dropped, rx_missed_errors;
	// RouterOS rx-drop, tx-queue-drop; RTX 受信エラー …), on the side
	// they count: frames that came in and went nowhere, and frames that
	// were to go out and did not. A platform's counters on one side may
	// overlap (Linux folds rx_fifo_errors into rx_errors), so a reader
	// takes the largest growth per side, never the sum.
	RxLosses, TxLosses map[string]int64
}
