package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/iperf3"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/search"
)

// SearchOptions turn a plan into a zero-loss (or partial-drop) throughput
// search: the plan's one pair, protocol (UDP), direction, link speed
// and MTU, searched per frame size.
type SearchOptions struct {
	FrameSizes  []int   // Ethernet frame bytes; empty = RFC 2544's
	LossPercent float64 // 0 = NDR
	// PrecisionMbps is the search's stopping width; 0 = 1 % of the link.
	PrecisionMbps float64
	// TrialDuration is each search trial's length (whole seconds); 0 = 1 s.
	// The confirmation trial runs the plan's Duration.
	TrialDuration time.Duration
	// AllowPublicTargets lifts the RFC 6815 check of the target address.
	AllowPublicTargets bool
}

// ValidateSearch checks a search without touching any host, with the
// rules the provider applies at plan.
func ValidateSearch(p bench.Plan, o SearchOptions) error {
	var errs []error
	if len(p.Pairs) != 1 {
		errs = append(errs, fmt.Errorf("a search runs one pair, not %d: the loss of several flows is not one device's", len(p.Pairs)))
	}
	if len(p.Directions) > 1 || (len(p.Directions) == 1 && p.Directions[0] == bench.Bidirectional) {
		errs = append(errs, fmt.Errorf("a search runs one direction, upload or download, not %v", p.Directions))
	}
	if p.LinkMbps <= 0 {
		errs = append(errs, errors.New("a search needs the link speed: its line rate is the highest rate offered"))
	}
	if slices.ContainsFunc(p.MSS, func(m int) bool { return m != 0 }) || slices.ContainsFunc(p.Lengths, func(l int) bool { return l != 0 }) {
		errs = append(errs, errors.New("a search sets each datagram's size from search.frame_sizes (iperf3 -l = frame − 46): remove mss and lengths"))
	}
	if p.ParallelStreams > 1 || p.Repeat > 1 {
		errs = append(errs, fmt.Errorf("a search runs one stream once per trial: parallel_streams %d and repeat %d must be 1", p.ParallelStreams, p.Repeat))
	}
	if p.Duration%time.Second != 0 || o.TrialDuration%time.Second != 0 {
		errs = append(errs, fmt.Errorf("search trials run whole seconds (iperf3 -t): duration %s, trial duration %s", p.Duration, o.TrialDuration))
	}
	mtu := p.LinkMTU
	if mtu == 0 {
		mtu = bench.DefaultLinkMTU
	}
	errs = append(errs,
		search.CheckProtocol("protocol", p.Protocol),
		search.CheckFrameSizes("search.frame_sizes", o.FrameSizes, mtu),
		search.CheckLossPercent("search.loss_percent", o.LossPercent))
	if p.Search != nil {
		errs = append(errs, search.CheckReferences("search.reference", p.Search.References, o.FrameSizes))
	}
	for _, pair := range p.Pairs {
		errs = append(errs, search.CheckTarget("pair "+pair.Name+" target", pair.Target, o.AllowPublicTargets, "search.allow_public_target"))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return searchOptions(p, o).Check()
}

func searchOptions(p bench.Plan, o SearchOptions) search.Options {
	return search.Options{
		LineRateBps:    p.LinkMbps * 1e6,
		LossPercent:    o.LossPercent,
		PrecisionBps:   o.PrecisionMbps * 1e6,
		SearchDuration: o.TrialDuration,
		Duration:       p.Duration,
	}
}

// Search runs one search per frame size between the plan's pair, with
// --fq-rate pacing where the client's iperf3 has socket pacing (each
// result says which pacing its trials used).
func Search(ctx context.Context, p bench.Plan, o SearchOptions, env Env) ([]search.FrameResult, error) {
	if err := ValidateSearch(p, o); err != nil {
		return nil, err
	}
	pair := p.Pairs[0]
	if pair.Port == 0 {
		pair.Port = 5201
	}
	clients, servers, err := resolveHosts(env, bench.Plan{Pairs: []bench.Pair{pair}})
	if err != nil {
		return nil, err
	}
	feats, err := iperf3.HostFeatures(ctx, clients[0])
	if err != nil {
		return nil, err
	}
	if _, err := iperf3.Version(ctx, servers[0]); err != nil {
		return nil, err
	}
	dir := bench.Upload
	if len(p.Directions) == 1 {
		dir = p.Directions[0]
	}
	build := func(frame int) (search.Trial, string, error) {
		env.logf("search: frame size %d bytes, loss at most %g %%", frame, o.LossPercent)
		trial, pacing, err := iperf3.UDPTrial(iperf3.UDPTrialOptions{
			Client: clients[0], Server: servers[0], Target: pair.Target, Port: pair.Port,
			Frame: frame, Direction: dir, FQPacing: feats.SocketPacing, ClientFeatures: feats,
		})
		return trial, string(pacing), err
	}
	return search.FrameSizes(ctx, o.FrameSizes, build, searchOptions(p, o))
}
