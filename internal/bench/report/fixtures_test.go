package report

import (
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// Fixtures: runs whose numbers are the seeds' published tables. Where a
// seed gives one figure per cell (its "Mbps"), the receiver and sender
// Mbps are both that figure; its CPU is the average and the maximum; its
// watts the average and the maximum. The default-MSS rows carry the MSS
// as the runner records it: iperf3's tcp_mss_default (1448 on a 1500-byte
// path with timestamps, "TCP MSS: 1448 (default)") converted to the -M
// scale with linerate.DefaultMSS, i.e. 1460.

// cell is one seed table cell group: a step's figures.
type cell struct {
	mss      int // 0 = no -M
	reported int // PairResult.MSS: the -M value, or the default on the -M scale
	dir      bench.Direction
	mbps     []float64 // per pair, plan order
	cpu      float64
	watts    float64 // 0 = no power meter
}

// build fills r.Steps from cells, in order, the way the engine would:
// line rate from the plan, power per step, times a minute apart.
func build(r bench.Run, idle float64, cells []cell) bench.Run {
	t := r.Started
	for i, c := range cells {
		s := bench.StepResult{
			Step:    bench.Step{Index: i, MSS: c.mss, Direction: c.dir},
			Started: t.Add(5 * time.Second),
		}
		s.Finished = s.Started.Add(r.Plan.Duration)
		t = s.Finished
		lr, err := linerate.Goodput(r.Plan.LinkMbps, c.reported, r.Plan.Encapsulation)
		if err != nil {
			panic(err)
		}
		total := 0.0
		for j, v := range c.mbps {
			s.Pairs = append(s.Pairs, bench.PairResult{
				Pair:            r.Plan.Pairs[j].Label(),
				SenderMbps:      v,
				ReceiverMbps:    v,
				MSS:             c.reported,
				LineRateMbps:    lr.GoodputMbps,
				LineRatePercent: 100 * v / lr.GoodputMbps,
			})
			total += v
		}
		s.TotalReceiverMbps = total
		for _, d := range r.Plan.DUTs {
			s.CPU = append(s.CPU, bench.CPUStats{Device: d, AvgPercent: c.cpu, MaxPercent: c.cpu, Samples: 55})
		}
		if c.watts > 0 {
			s.Power = &bench.PowerStats{IdleWatts: idle, AvgWatts: c.watts, MaxWatts: c.watts, MbpsPerWatt: total / c.watts}
		}
		r.Steps = append(r.Steps, s)
	}
	r.Finished = t
	r.Status = bench.RunComplete
	return r
}

var seedMSS = []int{0, 1200, 800, 400}

// seed000 is the RB750Gr3 L2TP/IPsec table (tunnel MTU 1350, so the
// default MSS is 1310; iperf3 reports 1298). The seed's "receiver" is
// the download to the L2TP client and "sender" the upload from it; the
// pair's client is therefore the L2TP client (Debian 9).
func seed000() bench.Run {
	r := bench.Run{
		ID:            "20190520T090000Z-5eed0000",
		Name:          "RB750Gr3 L2TP/IPsec (tunnel MTU 1350)",
		Iperf3Version: "3.1.3",
		Started:       time.Date(2019, 5, 20, 9, 0, 0, 0, time.UTC),
		Plan: bench.Plan{
			Pairs:      []bench.Pair{{Client: "debian9", Server: "centos7", Target: "198.18.1.10"}},
			DUTs:       []string{"hex"},
			Duration:   60 * time.Second,
			Protocol:   bench.TCP,
			MSS:        seedMSS,
			Directions: []bench.Direction{bench.Download, bench.Upload},
			LinkMbps:   1000,
			Encapsulation: bench.Encapsulation{Timestamps: true, Tunnel: "l2tp_ipsec",
				ESPCipher: "aes128-sha1", ESPMode: "transport"},
		},
		DUTs: []bench.DUTInfo{{Device: "hex", Platform: "routeros", Model: "RB750Gr3", Firmware: "6.44.3",
			ConfigSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}},
		Hosts: []bench.HostInfo{
			{Name: "debian9", Kernel: "4.9.0-9-amd64", Iperf3Version: "3.1.3"},
			{Name: "centos7", Kernel: "3.10.0-957.el7.x86_64", Iperf3Version: "3.1.7"},
		},
	}
	d, u := bench.Download, bench.Upload
	return build(r, 2.7, []cell{
		{0, 1310, d, []float64{139}, 45, 2.9},
		{0, 1310, u, []float64{143}, 40, 2.9},
		{1200, 1200, d, []float64{129}, 46, 2.9},
		{1200, 1200, u, []float64{131}, 40, 2.9},
		{800, 800, d, []float64{88.8}, 48, 2.9},
		{800, 800, u, []float64{87.6}, 40, 2.9},
		{400, 400, d, []float64{46.4}, 46, 2.9},
		{400, 400, u, []float64{43.4}, 38, 2.8},
	})
}

// seed002 is one of the ER-6P PPPoE tables (MSS clamp 1414; iperf3
// reports 1402). receiver = download, sender = upload.
func seed002(n int, name string, cells []cell) bench.Run {
	r := bench.Run{
		ID:            "20190601T1" + string(rune('0'+n)) + "0000Z-5eed0002",
		Name:          name,
		Iperf3Version: "3.1.7",
		Started:       time.Date(2019, 6, 1, 10+n, 0, 0, 0, time.UTC),
		Plan: bench.Plan{
			Pairs:         []bench.Pair{{Name: "A-B", Client: "centos7a", Server: "centos7b", Target: "198.18.2.10"}},
			DUTs:          []string{"er6p"},
			Duration:      60 * time.Second,
			Protocol:      bench.TCP,
			MSS:           seedMSS,
			Directions:    []bench.Direction{bench.Download, bench.Upload},
			LinkMbps:      1000,
			Encapsulation: bench.Encapsulation{Timestamps: true, PPPoE: true},
		},
		DUTs: []bench.DUTInfo{{Device: "er6p", Platform: "edgeos", Model: "EdgeRouter 6P", Firmware: "v1.10.9",
			ConfigSHA256: "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"}},
	}
	return build(r, 7.4, cells)
}

func seed002Runs() []bench.Run {
	d, u := bench.Download, bench.Upload
	rows := func(down, up [4][3]float64) []cell {
		var cs []cell
		for i, m := range seedMSS {
			rep := m
			if m == 0 {
				rep = 1414
			}
			cs = append(cs,
				cell{m, rep, d, []float64{down[i][0]}, down[i][1], down[i][2]},
				cell{m, rep, u, []float64{up[i][0]}, up[i][1], up[i][2]})
		}
		return cs
	}
	return []bench.Run{
		seed002(1, "forwarding=disable pppoe=disable", rows(
			[4][3]float64{{439, 57, 8.2}, {380, 54, 8.3}, {261, 54, 8.3}, {133, 57, 8.3}},
			[4][3]float64{{507, 60, 8.3}, {432, 60, 8.3}, {285, 59, 8.3}, {143, 62, 8.3}})),
		seed002(2, "forwarding=disable pppoe=enable", rows(
			[4][3]float64{{929, 16, 7.7}, {924, 16, 7.7}, {862, 24, 7.7}, {768, 25, 7.7}},
			[4][3]float64{{935, 18, 7.9}, {924, 18, 7.9}, {890, 25, 8.0}, {798, 28, 7.9}})),
		seed002(3, "forwarding=enable pppoe=enable", rows(
			[4][3]float64{{935, 16, 7.7}, {924, 17, 7.7}, {887, 23, 7.7}, {770, 25, 7.7}},
			[4][3]float64{{935, 18, 7.9}, {924, 19, 7.9}, {890, 25, 8.1}, {798, 27, 7.9}})),
	}
}

// seed004 is the ER-6P two-pair table: A-B and C-D at once, ipv4
// forwarding offload on, the seed's "sender" (upload) only.
func seed004() bench.Run {
	r := bench.Run{
		ID:            "20190529T120000Z-5eed0004",
		Name:          "A-B, C-D simultaneous (ipv4 forwarding=enable)",
		Iperf3Version: "3.1.7",
		Started:       time.Date(2019, 5, 29, 12, 0, 0, 0, time.UTC),
		Plan: bench.Plan{
			Pairs: []bench.Pair{
				{Name: "A-B", Client: "a", Server: "b", Target: "198.18.101.10"},
				{Name: "C-D", Client: "c", Server: "d", Target: "198.18.103.10"},
			},
			DUTs:          []string{"er6p"},
			Duration:      60 * time.Second,
			Protocol:      bench.TCP,
			MSS:           seedMSS,
			Directions:    []bench.Direction{bench.Upload},
			LinkMbps:      1000,
			Encapsulation: bench.Encapsulation{Timestamps: true},
		},
		DUTs: []bench.DUTInfo{{Device: "er6p", Platform: "edgeos", Model: "EdgeRouter 6P", Firmware: "v1.10.9",
			ConfigSHA256: "fcde2b2edba56bf408601fb721fe9b5c338d10ee429ea04fae5511b68fbf8fb9"}},
	}
	u := bench.Upload
	return build(r, 8.1, []cell{
		{0, 1460, u, []float64{942, 942}, 23, 8.7},
		{1200, 1200, u, []float64{930, 930}, 24, 8.7},
		{800, 800, u, []float64{898, 898}, 25, 8.7},
		{400, 400, u, []float64{809, 810}, 33, 8.7},
	})
}

// labRun is not from a seed: a namespace-lab run with what the seeds never
// show: three repetitions, a bidirectional direction, two DUTs (one
// reporting cores), retransmits, no power meter, and a name that needs
// escaping. Its times are in JST to show they are written in UTC.
func labRun() bench.Run {
	jst := time.FixedZone("JST", 9*3600)
	r := bench.Run{
		ID:            "20261130T021500Z-1a2b3c4d",
		Name:          "lab <netns> | r1 & r2 *offload* off",
		Status:        bench.RunComplete,
		Iperf3Version: "3.12",
		Started:       time.Date(2026, 11, 30, 11, 15, 0, 0, jst),
		Finished:      time.Date(2026, 11, 30, 11, 22, 30, 0, jst),
		Plan: bench.Plan{
			Pairs:           []bench.Pair{{Client: bench.LocalHost, Server: "h2", Target: "198.18.2.2", Port: 5301}},
			DUTs:            []string{"r1", "r2"},
			Duration:        10 * time.Second,
			Omit:            2 * time.Second,
			Protocol:        bench.TCP,
			MSS:             []int{0, 1200},
			Directions:      []bench.Direction{bench.Upload, bench.Bidirectional},
			ParallelStreams: 2,
			Repeat:          3,
			LinkMbps:        1000,
			Encapsulation:   bench.Encapsulation{Timestamps: true},
		},
		DUTs: []bench.DUTInfo{
			{Device: "r1", Platform: "linux", Model: "netns router", Firmware: "6.18.0", ConfigSHA256: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
			{Device: "r2", Platform: "linux", Model: "netns router", Firmware: "6.18.0", ConfigSHA256: "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"},
		},
		Hosts: []bench.HostInfo{{Name: bench.LocalHost, Kernel: "6.18.0", Iperf3Version: "3.12"}, {Name: "h2", Kernel: "6.18.0", Iperf3Version: "3.12"}},
	}
	type rep struct {
		fwd, rev      float64
		retr, revRetr int
		cpu1, core1   float64
		cpu2          float64
	}
	steps := []struct {
		mss  int
		dir  bench.Direction
		reps [3]rep
	}{
		{0, bench.Upload, [3]rep{{936.2, 0, 12, 0, 35.5, 88, 12}, {937.0, 0, 4, 0, 36.1, 90, 11.5}, {935.4, 0, 20, 0, 34.9, 86.5, 12.5}}},
		{0, bench.Bidirectional, [3]rep{{920.1, 915.2, 30, 25, 61, 99, 20}, {921.5, 914.8, 28, 31, 62.5, 100, 21}, {919.8, 916.0, 35, 22, 60, 98, 19.5}}},
		{1200, bench.Upload, [3]rep{{914.9, 0, 7, 0, 41, 93, 13}, {915.3, 0, 9, 0, 40.5, 92, 13}, {915.1, 0, 8, 0, 41.5, 94, 13.5}}},
		{1200, bench.Bidirectional, [3]rep{{900.2, 898.7, 44, 40, 70, 100, 24}, {899.8, 899.1, 41, 39, 71, 100, 24.5}, {901.0, 897.9, 47, 45, 69.5, 100, 23.5}}},
	}
	t := time.Date(2026, 11, 30, 2, 15, 5, 0, time.UTC)
	for _, st := range steps {
		reported := st.mss
		if reported == 0 {
			reported = 1460
		}
		lr, err := linerate.Goodput(1000, reported, r.Plan.Encapsulation)
		if err != nil {
			panic(err)
		}
		for i, x := range st.reps {
			s := bench.StepResult{
				Step:    bench.Step{Index: len(r.Steps), MSS: st.mss, Direction: st.dir, Repeat: i},
				Started: t, Finished: t.Add(12 * time.Second),
				Pairs: []bench.PairResult{{
					Pair: "local-h2", SenderMbps: x.fwd + 1.5, ReceiverMbps: x.fwd, Retransmits: x.retr, MSS: reported,
					LineRateMbps: lr.GoodputMbps, LineRatePercent: 100 * x.fwd / lr.GoodputMbps,
				}},
				TotalReceiverMbps: x.fwd + x.rev,
				CPU: []bench.CPUStats{
					{Device: "r1", AvgPercent: x.cpu1, MaxPercent: x.cpu1 + 10, MaxCorePercent: x.core1, Samples: 8},
					{Device: "r2", AvgPercent: x.cpu2, MaxPercent: x.cpu2 + 5, Samples: 8},
				},
			}
			if st.dir == bench.Bidirectional {
				p := &s.Pairs[0]
				p.ReverseSenderMbps, p.ReverseReceiverMbps, p.ReverseRetransmits = x.rev+1, x.rev, x.revRetr
			}
			t = t.Add(15 * time.Second)
			r.Steps = append(r.Steps, s)
		}
	}
	return r
}

// udpRun is a UDP run: jitter and loss instead of retransmits, no line
// rate (the TCP formula does not apply).
func udpRun() bench.Run {
	r := bench.Run{
		ID:            "20261201T000000Z-0000udp0",
		Status:        bench.RunComplete,
		Iperf3Version: "3.12",
		Started:       time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		Finished:      time.Date(2026, 12, 1, 0, 0, 30, 0, time.UTC),
		Plan: bench.Plan{
			Pairs:      []bench.Pair{{Name: "A-B", Client: "a", Server: "b", Target: "198.18.0.2"}},
			DUTs:       []string{"rtx810"},
			Duration:   20 * time.Second,
			Protocol:   bench.UDP,
			UDPBitrate: "1G",
			Directions: []bench.Direction{bench.Upload},
			LinkMbps:   1000,
		},
		DUTs: []bench.DUTInfo{{Device: "rtx810", Platform: "rtx", Model: "RTX810", Firmware: "Rev.11.01.33"}},
		Steps: []bench.StepResult{{
			Step:              bench.Step{Direction: bench.Upload},
			Pairs:             []bench.PairResult{{Pair: "A-B", SenderMbps: 1000, ReceiverMbps: 195.4, JitterMs: 0.042, LossPercent: 80.46}},
			TotalReceiverMbps: 195.4,
			CPU:               []bench.CPUStats{{Device: "rtx810", AvgPercent: 99, MaxPercent: 99, Samples: 4}},
			Started:           time.Date(2026, 12, 1, 0, 0, 5, 0, time.UTC),
			Finished:          time.Date(2026, 12, 1, 0, 0, 25, 0, time.UTC),
		}},
	}
	return r
}

// fullRun sets every field of the model to something other than its zero
// value, for the JSON round trip.
func fullRun() bench.Run {
	r := labRun()
	r.Plan.UDPBitrate = "500M"
	r.Plan.Encapsulation = bench.Encapsulation{
		Timestamps: true, VLAN: true, PPPoE: true, Tunnel: "l2tp_ipsec",
		ESPCipher: "aes256gcm16", ESPMode: "transport", NATT: true,
		OpenVPNProto: "tcp", OpenVPNCipher: "AES-256-GCM",
	}
	r.Plan.Duration = 10*time.Second + 1 // a nanosecond that float seconds would lose
	r.Plan.Pairs[0].Name = "L-H2"
	r.Plan.MSS = []int{1460, 1200}
	r.Steps = r.Steps[:1]
	s := &r.Steps[0]
	s.Index, s.MSS, s.Repeat, s.Direction = 7, 1200, 2, bench.Bidirectional
	s.Pairs[0].JitterMs = 0.013
	s.Pairs[0].LossPercent = 0.5
	s.Pairs[0].ReverseSenderMbps = 901.25
	s.Pairs[0].ReverseReceiverMbps = 900.125
	s.Pairs[0].ReverseRetransmits = 3
	s.CPU[1].MaxCorePercent = 30
	s.CPU[0].Dropped, s.CPU[1].Dropped = 1, 2
	s.Power = &bench.PowerStats{IdleWatts: 7.4, AvgWatts: 8.25, MaxWatts: 8.5, MbpsPerWatt: 1832.4 / 8.25, Samples: 9}
	r.Plan.Lengths = []int{64, 1460}
	r.Plan.Role = bench.RoleBaseline
	s.Length = 1460
	s.Pairs[0].BaselineMbps, s.Pairs[0].BaselinePercent = 941.5, 97.5
	for i := range r.DUTs {
		r.DUTs[i].SamplerCPUPercent = 0.25 * float64(i+1)
		r.DUTs[i].SharedCPU = "a network namespace on a shared kernel"
		r.DUTs[i].Offload = map[string]map[string]bool{"eth1": {"gro": i == 0, "tso": true}}
	}
	r.BaselineID = "20261101T000000Z-00000000"
	r.Plan.LinkMTU = 9000
	r.Status, r.Error = bench.RunFailed, "step 2 (bidirectional, mss 1200): pair L-H2: iperf3: unable to connect to server: Connection refused"
	for i := range r.Hosts {
		r.Hosts[i].Environment = labEnvironment()
		p := &r.Hosts[i].Environment.Interfaces[0]
		for _, qs := range [][]bench.Qdisc{p.QdiscsBefore, p.QdiscsAfter} {
			for k := range qs { // every counter set, for the round trip
				q := &qs[k]
				q.SentBytes, q.SentPackets, q.Dropped, q.Overlimits = q.SentBytes+1, q.SentPackets+1, q.Dropped+1, q.Overlimits+1
				q.Requeues, q.BacklogBytes, q.BacklogPackets = q.Requeues+1, q.BacklogBytes+1, q.BacklogPackets+1
			}
		}
	}
	s.Pairs[0].Iperf3JSON = Iperf3Path(r.Plan, s.Step, 0)
	r.CPUSamples = CPUSamplesFile
	s.Warnings = []string{"DUT r1's CPU averaged 97 % of its capacity over the measured window (9 samples; 95 % or more is saturated): the router's CPU, not the path, probably set this step's throughput."}
	r.Started = r.Started.UTC()
	r.Finished = r.Finished.UTC()
	return r
}

// seed003 is seed 003's way of measuring: iperf -l 64 … 1460 (the size
// of each write) at the default MSS through the RB1100 with connection
// tracking and a stateful firewall, compared with the "Direct
// Connection" baseline of the same two PCs. The seed publishes a graph,
// not a table: the figures follow its text (full line rate directly, the
// router "maxes out at around 525Mbps").
func seed003() bench.Run {
	r := bench.Run{
		ID:            "20100301T090000Z-5eed0003",
		Name:          "RB1100 C/t, f/w",
		Iperf3Version: "3.12",
		Started:       time.Date(2010, 3, 1, 9, 0, 0, 0, time.UTC),
		Plan: bench.Plan{
			Pairs:         []bench.Pair{{Name: "A-B", Client: "pc1", Server: "pc2", Target: "198.18.3.10"}},
			DUTs:          []string{"rb1100"},
			Duration:      10 * time.Second,
			Protocol:      bench.TCP,
			Lengths:       []int{64, 512, 1460},
			Directions:    []bench.Direction{bench.Upload},
			LinkMbps:      1000,
			Encapsulation: bench.Encapsulation{Timestamps: true},
		},
		DUTs:       []bench.DUTInfo{{Device: "rb1100", Platform: "routeros", Model: "RB1100", Firmware: "4.5", SamplerCPUPercent: 0.3}},
		BaselineID: "20100301T080000Z-d1ec0003",
	}
	u := bench.Upload
	r = build(r, 0, []cell{
		{0, 1460, u, []float64{182}, 100, 0},
		{0, 1460, u, []float64{525}, 100, 0},
		{0, 1460, u, []float64{524}, 100, 0},
	})
	direct := []float64{627, 941, 941} // the baseline, per length
	for i := range r.Steps {
		s := &r.Steps[i]
		s.Length = r.Plan.Lengths[i]
		p := &s.Pairs[0]
		p.BaselineMbps, p.BaselinePercent = direct[i], 100*p.ReceiverMbps/direct[i]
	}
	return r
}

// udpLengths is a UDP run over two pairs with datagram sizes swept, both
// directions, twice each: the details table's jitter and loss, and line
// rates stored per datagram size (1000 Mbit/s × payload / (payload + UDP
// 8 + IPv4 20 + Ethernet framing 38)). The RTX cannot tell what the CPU
// sampler costs it.
func udpLengths() bench.Run {
	r := bench.Run{
		ID:            "20261202T000000Z-0000udp1",
		Name:          "RTX810 UDP datagram sizes",
		Iperf3Version: "3.12",
		Started:       time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC),
		Plan: bench.Plan{
			Pairs: []bench.Pair{
				{Name: "A-B", Client: "a", Server: "b", Target: "198.18.0.2"},
				{Name: "C-D", Client: "c", Server: "d", Target: "198.18.0.4"},
			},
			DUTs:       []string{"rtx810"},
			Duration:   20 * time.Second,
			Protocol:   bench.UDP,
			UDPBitrate: "500M",
			Lengths:    []int{512, 1472},
			Directions: []bench.Direction{bench.Upload, bench.Download},
			Repeat:     2,
			LinkMbps:   1000,
		},
		DUTs: []bench.DUTInfo{{Device: "rtx810", Platform: "rtx", Model: "RTX810", Firmware: "Rev.11.01.33", SamplerCPUPercent: -1}},
	}
	type pairFig struct{ recv, jitter, loss float64 }
	t := r.Started.Add(5 * time.Second)
	for _, step := range r.Plan.Steps() {
		lr := 1000 * float64(step.Length) / float64(step.Length+8+20+38)
		// Small datagrams cost the router more: fewer Mbit/s, more loss.
		small := step.Length == 512
		figs := []pairFig{{496.1, 0.021, 0.78}, {495.8, 0.025, 0.84}}
		cpu := 62.0
		if small {
			figs = []pairFig{{301.5, 0.094, 39.7}, {298.2, 0.101, 40.4}}
			cpu = 99
		}
		if step.Direction == bench.Download {
			for i := range figs {
				figs[i].recv -= 1.5
			}
		}
		s := bench.StepResult{Step: step, Started: t, Finished: t.Add(r.Plan.Duration)}
		s.Index = len(r.Steps)
		for i, f := range figs {
			recv := f.recv + float64(step.Repeat)*0.4
			s.Pairs = append(s.Pairs, bench.PairResult{
				Pair: r.Plan.Pairs[i].Name, SenderMbps: 500, ReceiverMbps: recv,
				JitterMs: f.jitter + float64(step.Repeat)*0.002, LossPercent: f.loss - float64(step.Repeat)*0.1,
				LineRateMbps: lr, LineRatePercent: 100 * recv / lr,
			})
			s.TotalReceiverMbps += recv
		}
		s.CPU = []bench.CPUStats{{Device: "rtx810", AvgPercent: cpu - float64(step.Repeat), MaxPercent: cpu, Samples: 4}}
		r.Steps = append(r.Steps, s)
		t = s.Finished.Add(5 * time.Second)
	}
	r.Finished = t
	return r
}

// labEnvironment is an iperf3 endpoint of the namespace lab as
// internal/bench/hostenv reads it (figures from its testdata): a veth
// shaped by a tbf that dropped during the run, offloads the lab turned
// off, a sysctl it could not read, and a change between the reads.
func labEnvironment() *bench.HostEnvironment {
	return &bench.HostEnvironment{
		CPUModel: "AMD EPYC", CPUCount: 2,
		Sysctls: bench.HostSysctls{
			CongestionControl: "bbr", DefaultQdisc: "pfifo_fast", RmemMax: 4194304, WmemMax: 4194304,
			TCPRmem: [3]int64{4096, 131072, 33554432}, TCPWmem: [3]int64{4096, 16384, 4194304},
		},
		Interfaces: []bench.PathInterface{{
			Name:     "eth1",
			Targets:  []string{"198.18.2.2"},
			Link:     bench.LinkInfo{Speed: "10000Mb/s", Duplex: "Full", Driver: "veth", DriverVersion: "1.0", Firmware: "n/a"},
			Offloads: map[string]bool{"tso": false, "gso": false, "gro": false, "lro": false, "rx": true, "tx": true},
			QdiscsBefore: []bench.Qdisc{
				{Kind: "tbf", Handle: "1:", Parent: "root", Params: "rate 50Mbit burst 64Kb lat 10ms", SentBytes: 12830906, SentPackets: 8501, Dropped: 1886, Overlimits: 4164, Requeues: 1, BacklogBytes: 1514, BacklogPackets: 1},
				{Kind: "pfifo", Handle: "10:", Parent: "1:1", Params: "limit 1000p"},
			},
			QdiscsAfter: []bench.Qdisc{
				{Kind: "tbf", Handle: "1:", Parent: "root", Params: "rate 50Mbit burst 64Kb lat 10ms", SentBytes: 25998544, SentPackets: 17226, Dropped: 1886, Overlimits: 11241, Requeues: 1},
				{Kind: "pfifo", Handle: "10:", Parent: "1:1", Params: "limit 1000p", SentBytes: 13167638, SentPackets: 8725, Dropped: 12},
			},
		}},
		Changed: []string{"eth1: gro off → on"},
		Missing: []string{"eth1: ethtool -i: Cannot get driver information: Operation not supported"},
	}
}
