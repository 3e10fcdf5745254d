package report

import (
	"fmt"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// Chart fixtures: runs shaped to test what the charts must survive (one
// step, twelve series, wide spreads, every panel, failed runs). Their
// figures are made up, not measured.

// stepsOf fills r.Steps from the plan: mbps(step, pair) gives each pair's
// receiver Mbps, halves of a bidirectional step the same less 3%.
func stepsOf(r bench.Run, mbps func(s bench.Step, pair int) float64) bench.Run {
	t := r.Started.Add(5 * time.Second)
	for _, st := range r.Plan.Steps() {
		reported := st.MSS
		if reported == 0 {
			reported = 1460
		}
		lr, err := linerate.Goodput(r.Plan.LinkMbps, reported, r.Plan.Encapsulation)
		if err != nil {
			panic(err)
		}
		s := bench.StepResult{Step: st, Started: t, Finished: t.Add(r.Plan.Duration)}
		for i, p := range r.Plan.Pairs {
			v := mbps(st, i)
			pr := bench.PairResult{Pair: p.Label(), SenderMbps: v + 2, ReceiverMbps: v, MSS: reported,
				LineRateMbps: lr.GoodputMbps, LineRatePercent: 100 * v / lr.GoodputMbps}
			if st.Direction == bench.Bidirectional {
				pr.ReverseReceiverMbps, pr.ReverseSenderMbps = v*0.97, v*0.97+2
			}
			s.Pairs = append(s.Pairs, pr)
			s.TotalReceiverMbps += v + pr.ReverseReceiverMbps
		}
		r.Steps = append(r.Steps, s)
		t = s.Finished.Add(5 * time.Second)
	}
	r.Finished = t
	return r
}

func chartPlan() bench.Plan {
	return bench.Plan{
		Pairs:         []bench.Pair{{Name: "A-B", Client: "a", Server: "b", Target: "198.18.1.2"}},
		DUTs:          []string{"r1"},
		Duration:      30 * time.Second,
		Protocol:      bench.TCP,
		Directions:    []bench.Direction{bench.Upload},
		LinkMbps:      10000,
		Encapsulation: bench.Encapsulation{Timestamps: true},
	}
}

// singleStep is one step on a 10 Gbit/s link: a four-digit label.
func singleStep() bench.Run {
	r := bench.Run{ID: "20261203T000000Z-00000001", Name: "one step at 10G", Iperf3Version: "3.16",
		Started: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC), Plan: chartPlan(),
		DUTs: []bench.DUTInfo{{Device: "r1", Platform: "linux", Model: "x86 router", Firmware: "6.12"}}}
	return stepsOf(r, func(bench.Step, int) float64 { return 9387.4 })
}

// twelveSeries is three pairs × upload, download and both halves of a
// bidirectional step over two MSS on a 40 Gbit/s link: twelve series,
// five-digit labels.
func twelveSeries() bench.Run {
	p := chartPlan()
	p.Pairs = []bench.Pair{
		{Name: "A-B", Client: "a", Server: "b", Target: "198.18.1.2"},
		{Name: "C-D", Client: "c", Server: "d", Target: "198.18.2.2"},
		{Name: "E-F", Client: "e", Server: "f", Target: "198.18.3.2"},
	}
	p.MSS = []int{0, 536}
	p.Directions = []bench.Direction{bench.Upload, bench.Download, bench.Bidirectional}
	p.LinkMbps = 40000
	r := bench.Run{ID: "20261203T010000Z-00000012", Name: "three pairs, every direction", Iperf3Version: "3.16",
		Started: time.Date(2026, 12, 3, 1, 0, 0, 0, time.UTC), Plan: p}
	return stepsOf(r, func(s bench.Step, pair int) float64 {
		v := 12873.0 - 611*float64(pair)
		if s.MSS == 536 {
			v *= 0.55
		}
		if s.Direction == bench.Download {
			v -= 245
		}
		return v
	})
}

// repeatSpread is three repeats that disagree: the spread is the story.
func repeatSpread() bench.Run {
	p := chartPlan()
	p.MSS = []int{0, 1200, 400}
	p.Directions = []bench.Direction{bench.Upload, bench.Download}
	p.Repeat = 3
	p.LinkMbps = 1000
	r := bench.Run{ID: "20261203T020000Z-00000003", Name: "repeats that disagree", Iperf3Version: "3.12",
		Started: time.Date(2026, 12, 3, 2, 0, 0, 0, time.UTC), Plan: p,
		DUTs: []bench.DUTInfo{{Device: "r1", Platform: "edgeos", Model: "ER-X", Firmware: "v2.0.9"}}}
	spread := [3]float64{-85, 12, 31}
	return stepsOf(r, func(s bench.Step, _ int) float64 {
		v := map[int]float64{0: 702, 1200: 655, 400: 301}[s.MSS]
		if s.Direction == bench.Download {
			v -= 40
		}
		return v + spread[s.Repeat]*float64(1+s.Index%2)
	})
}

// everyPanel has two DUTs (one reporting cores), a power meter and
// retransmits: every panel a TCP run can have.
func everyPanel() bench.Run {
	p := chartPlan()
	p.DUTs = []string{"r1", "sw1"}
	p.MSS = []int{0, 1200, 800, 400}
	p.Directions = []bench.Direction{bench.Download, bench.Upload}
	p.LinkMbps = 1000
	r := bench.Run{ID: "20261203T030000Z-00000004", Name: "CPU, watts and retransmits", Iperf3Version: "3.12",
		Started: time.Date(2026, 12, 3, 3, 0, 0, 0, time.UTC), Plan: p,
		DUTs: []bench.DUTInfo{
			{Device: "r1", Platform: "routeros", Model: "RB5009", Firmware: "7.16"},
			{Device: "sw1", Platform: "linux", Model: "switch", Firmware: "6.6"},
		}}
	r = stepsOf(r, func(s bench.Step, _ int) float64 {
		return map[int]float64{0: 941, 1200: 924, 800: 712, 400: 366}[s.MSS]
	})
	for i := range r.Steps {
		s := &r.Steps[i]
		load := 30 + 0.05*float64(1000-s.MSS%1000)
		s.CPU = []bench.CPUStats{
			{Device: "r1", AvgPercent: load, MaxPercent: load + 8, MaxCorePercent: load + 35, Samples: 28},
			{Device: "sw1", AvgPercent: 4.5, MaxPercent: 6, Samples: 28},
		}
		w := 9.8 + load/40
		s.Power = &bench.PowerStats{IdleWatts: 8.1, AvgWatts: w, MaxWatts: w + 0.4, MbpsPerWatt: s.TotalReceiverMbps / w, Samples: 30}
		s.Pairs[0].Retransmits = 3 + i*17
	}
	return r
}

// failedCompare is seed 002's three runs with the last one failed after
// five of its eight steps and a warning on one of the others' steps.
func failedCompare() []bench.Run {
	runs := seed002Runs()
	runs[1].Steps[2].Warnings = []string{"DUT CPU saturated (100% on one core)"}
	f := &runs[2]
	f.Status, f.Error = bench.RunFailed, "step 6 (MSS 800, upload): iperf3 on centos7a: unable to connect to server: Connection refused"
	f.Steps = f.Steps[:5]
	for i := range runs[:2] {
		runs[i].Status = bench.RunComplete
	}
	return runs
}

// manySeries is n pairs uploading at once: n series.
func manySeries(n int) bench.Run {
	p := chartPlan()
	p.Pairs = nil
	for i := range n {
		p.Pairs = append(p.Pairs, bench.Pair{Name: fmt.Sprintf("P%02d", i+1), Client: "c", Server: "s", Target: "198.18.0.2"})
	}
	r := bench.Run{ID: "20261203T040000Z-000000" + fmt.Sprintf("%02d", n), Plan: p}
	return stepsOf(r, func(_ bench.Step, pair int) float64 { return 900 - 11*float64(pair) })
}
