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

// CheckReferences checks published figures against the searched frame
// sizes (frames; empty = RFC 2544's): each names a searched size, at most
// once, with kpps and/or Mbit/s above 0 and, given both, the two agreeing
// within 1 % by Mbit/s = kpps × frame × 8 / 1000. attr names the list,
// e.g. "search.reference".
func CheckReferences(attr string, refs []bench.Reference, frames []int) error {
	if len(frames) == 0 {
		frames = linerate.RFC2544FrameSizes
	}
	searched := map[int]bool{}
	for _, f := range frames {
		searched[f] = true
	}
	seen := map[int]bool{}
	var errs []string
	for i, r := range refs {
		at := fmt.Sprintf("%s[%d]", attr, i)
		switch {
		case !searched[r.Frame]:
			errs = append(errs, fmt.Sprintf("%s frame_size %d: not among the searched frame sizes %v", at, r.Frame, frames))
		case seen[r.Frame]:
			errs = append(errs, fmt.Sprintf("%s frame_size %d: a second reference for it; give one per frame size", at, r.Frame))
		}
		seen[r.Frame] = true
		if math.IsNaN(r.KPPS) || math.IsNaN(r.Mbps) || r.KPPS < 0 || r.Mbps < 0 || (r.KPPS == 0 && r.Mbps == 0) {
			errs = append(errs, fmt.Sprintf("%s: kpps %v, mbps %v: give kpps or mbps (or both), above 0", at, r.KPPS, r.Mbps))
			continue
		}
		if r.KPPS > 0 && r.Mbps > 0 && r.Frame > 0 {
			want := r.KPPS * float64(r.Frame) * 8 / 1000
			if math.Abs(r.Mbps-want) > 0.01*want {
				errs = append(errs, fmt.Sprintf("%s: mbps %v and kpps %v disagree: %v kpps × %d bytes × 8 / 1000 = %.1f Mbit/s", at, r.Mbps, r.KPPS, r.KPPS, r.Frame, want))
			}
		}
		if strings.TrimSpace(r.Source) == "" || strings.ContainsFunc(r.Source, func(c rune) bool { return c < 0x20 || c == 0x7f }) {
			errs = append(errs, fmt.Sprintf("%s: source must name where the figure comes from, on one line", at))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}
