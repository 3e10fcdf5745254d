package search

import (
	"fmt"
	"math"
	"net/netip"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// Plan-time rules of a search, as pure functions the provider's
// validators adapt. Each error names the attribute, the value and what is
// allowed.

// CheckFrameSizes checks every frame size against the path's IP MTU (1500
// on plain Ethernet): 64 to MTU + 18, since a frame includes the 14-byte
// MAC header and the 4-byte FCS. An empty list means the RFC 2544 sizes,
// which are checked too (1518 needs MTU 1500). attr names the attribute,
// e.g. "search.frame_sizes".
func CheckFrameSizes(attr string, frames []int, mtu int) error {
	if len(frames) == 0 {
		frames = linerate.RFC2544FrameSizes
		attr += " (default, RFC 2544)"
	}
	seen := map[int]bool{}
	for _, f := range frames {
		if err := linerate.CheckFrame(attr, f, mtu); err != nil {
			return err
		}
		if seen[f] {
			return fmt.Errorf("%s lists %d twice: each frame size is searched once", attr, f)
		}
		seen[f] = true
	}
	return nil
}

// CheckLossPercent: 0 (NDR) up to but not including 100.
func CheckLossPercent(attr string, loss float64) error {
	if math.IsNaN(loss) || loss < 0 || loss >= 100 {
		return fmt.Errorf("%s %v: allowed are 0 (zero loss, NDR) up to but not including 100, e.g. 0.5 for a partial-drop rate", attr, loss)
	}
	return nil
}

// CheckProtocol: a search counts lost datagrams, which only UDP has.
func CheckProtocol(attr string, p bench.Protocol) error {
	if p != bench.UDP {
		return fmt.Errorf("%s %q: a throughput search needs %q (it counts lost datagrams; TCP retransmits instead of losing)", attr, p, bench.UDP)
	}
	return nil
}

// benchmarkingRanges are the targets a search may flood without being
// told it may: private (RFC 1918, IPv6 ULA RFC 4193), loopback, and the
// ranges set aside for benchmarking (RFC 2544's 198.18.0.0/15, RFC 5180's
// 2001:2::/48), as RFC 6815 asks of tests that must not leak into
// production networks. Link-local addresses (169.254.0.0/16, fe80::/10)
// never leave their link, so they may be flooded too.
var benchmarkingRanges = []netip.Prefix{
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("::1/128"),
	netip.MustParsePrefix("fc00::/7"),
	netip.MustParsePrefix("2001:2::/48"),
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("fe80::/10"),
}

// AllowedRanges describes benchmarkingRanges for messages and docs.
func AllowedRanges() string {
	s := make([]string, len(benchmarkingRanges))
	for i, p := range benchmarkingRanges {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}

// CheckTarget refuses a search target outside the private and
// benchmarking ranges unless allowPublic is set (allowAttr names that
// flag). A hostname is refused too: which address it stands for is not
// known at plan.
func CheckTarget(attr, target string, allowPublic bool, allowAttr string) error {
	if allowPublic {
		return nil
	}
	addr, err := netip.ParseAddr(target)
	if err != nil {
		return fmt.Errorf("%s %q is not an IP address: a search floods its target, so it must be an address in %s (RFC 6815), or set %s = true", attr, target, AllowedRanges(), allowAttr)
	}
	a := addr.WithZone("").Unmap()
	for _, p := range benchmarkingRanges {
		if p.Contains(a) {
			return nil
		}
	}
	return fmt.Errorf("%s %s is outside the private and benchmarking ranges a search may flood (%s; RFC 6815): set %s = true if this network is yours to test", attr, target, AllowedRanges(), allowAttr)
}
