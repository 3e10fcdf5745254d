package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// SchemaVersion is the version of the JSON document JSON writes. A reader
// refuses other versions rather than guess. Version 2 counts a step's
// "step" and "repeat" from 1, as the tables, the CSV and Terraform state
// do; version 1 (still read) had a 0-based "index" and "repeat".
const SchemaVersion = 2

// oldestSchemaVersion is the oldest document FromJSON still reads.
const oldestSchemaVersion = 1

// The export structs fix the JSON field names (snake_case) independently
// of the Go names in package bench. Times are RFC 3339 in UTC with
// nanoseconds ("" for a zero time); durations are exact decimal seconds.
// Slices keep the difference between absent (null) and empty ([]).

type runJSON struct {
	SchemaVersion int        `json:"schema_version"`
	ID            string     `json:"id"`
	Name          string     `json:"name"`
	Started       string     `json:"started"`
	Finished      string     `json:"finished"`
	Iperf3Version string     `json:"iperf3_version"`
	Plan          planJSON   `json:"plan"`
	DUTs          []dutJSON  `json:"duts"`
	Hosts         []hostJSON `json:"hosts"`
	Steps         []stepJSON `json:"steps"`
	BaselineID    string     `json:"baseline_id,omitempty"`
	// Status and Error: absent in runs archived before they were
	// recorded, which FromJSON reads as complete when every step of
	// the plan is there (see statusFromJSON).
	Status string `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	// CPUSamples names the archive's cpu.csv; absent when there is none.
	CPUSamples string `json:"cpu_samples,omitempty"`
	// Search: a search run's results per frame size; absent otherwise.
	Search []frameSearchJSON `json:"search,omitempty"`
}

type planJSON struct {
	Pairs           []pairJSON        `json:"pairs"`
	DUTs            []string          `json:"duts"`
	DurationSeconds durationSeconds   `json:"duration_seconds"`
	OmitSeconds     durationSeconds   `json:"omit_seconds"`
	Protocol        string            `json:"protocol"`
	UDPBitrate      string            `json:"udp_bitrate"`
	MSS             []int             `json:"mss"`
	Lengths         []int             `json:"lengths,omitempty"`
	Directions      []string          `json:"directions"`
	ParallelStreams int               `json:"parallel_streams"`
	Repeat          int               `json:"repeat"`
	LinkMbps        float64           `json:"link_mbps"`
	Encapsulation   encapsulationJSON `json:"encapsulation"`
	Role            string            `json:"role,omitempty"`
	LinkMTU         int               `json:"link_mtu,omitempty"` // absent: bench.DefaultLinkMTU
	LatencyProbe    bool              `json:"latency_probe,omitempty"`
	Search          *searchSpecJSON   `json:"search,omitempty"` // absent: not a search
}

type pairJSON struct {
	Name   string `json:"name"`
	Client string `json:"client"`
	Server string `json:"server"`
	Target string `json:"target"`
	Port   int    `json:"port"`
}

type encapsulationJSON struct {
	Timestamps    bool   `json:"timestamps"`
	VLAN          bool   `json:"vlan"`
	PPPoE         bool   `json:"pppoe"`
	Tunnel        string `json:"tunnel"`
	ESPCipher     string `json:"esp_cipher"`
	ESPMode       string `json:"esp_mode"`
	NATT          bool   `json:"nat_t"`
	OpenVPNProto  string `json:"openvpn_proto"`
	OpenVPNCipher string `json:"openvpn_cipher"`
}

type dutJSON struct {
	Device       string `json:"device"`
	Platform     string `json:"platform"`
	Model        string `json:"model"`
	Firmware     string `json:"firmware"`
	ConfigSHA256 string `json:"config_sha256"`
	// Offload: absent in runs archived before it was recorded.
	Offload map[string]map[string]bool `json:"offload,omitempty"`
	// SamplerCPUPercent: absent in runs archived before it was measured.
	SamplerCPUPercent float64 `json:"sampler_cpu_percent,omitempty"`
	// SharedCPU: absent where the DUT's CPU is its own, and in runs
	// archived before it was recorded.
	SharedCPU string `json:"shared_cpu,omitempty"`
}

type hostJSON struct {
	Name          string `json:"name"`
	Kernel        string `json:"kernel"`
	Iperf3Version string `json:"iperf3_version"`
	// Environment: absent for a host that is not Linux, and in runs
	// archived before it was recorded.
	Environment *hostEnvJSON `json:"environment,omitempty"`
}

type stepJSON struct {
	// Step and Repeat count from 1. Index is version 1's 0-based step,
	// only read.
	Step              int              `json:"step"`
	Index             int              `json:"index,omitempty"`
	MSS               int              `json:"mss"`
	Length            int              `json:"length,omitempty"`
	Direction         string           `json:"direction"`
	Repeat            int              `json:"repeat"`
	Started           string           `json:"started"`
	Finished          string           `json:"finished"`
	Pairs             []pairResultJSON `json:"pairs"`
	TotalReceiverMbps float64          `json:"total_receiver_mbps"`
	CPU               []cpuJSON        `json:"cpu"`
	Power             *powerJSON       `json:"power"`
	// Warnings: absent when there are none (and in runs archived before
	// they were recorded).
	Warnings []string `json:"warnings,omitempty"`
}

type pairResultJSON struct {
	Pair                string  `json:"pair"`
	SenderMbps          float64 `json:"sender_mbps"`
	ReceiverMbps        float64 `json:"receiver_mbps"`
	Retransmits         int     `json:"retransmits"`
	JitterMs            float64 `json:"jitter_ms"`
	LossPercent         float64 `json:"loss_percent"`
	MSS                 int     `json:"mss"`
	ReverseSenderMbps   float64 `json:"reverse_sender_mbps"`
	ReverseReceiverMbps float64 `json:"reverse_receiver_mbps"`
	ReverseRetransmits  int     `json:"reverse_retransmits"`
	LineRateMbps        float64 `json:"line_rate_mbps"`
	LineRatePercent     float64 `json:"line_rate_percent"`
	BaselineMbps        float64 `json:"baseline_mbps,omitempty"`
	BaselinePercent     float64 `json:"baseline_percent,omitempty"`
	// Iperf3JSON names the archived iperf3 report; absent without one.
	Iperf3JSON string `json:"iperf3_json,omitempty"`
	// Latency: RTT idle and under load; absent without latency_probe.
	Latency *latencyJSON `json:"latency,omitempty"`
}

type cpuJSON struct {
	Device         string  `json:"device"`
	AvgPercent     float64 `json:"avg_percent"`
	MaxPercent     float64 `json:"max_percent"`
	MaxCorePercent float64 `json:"max_core_percent"`
	Samples        int     `json:"samples"`
	Dropped        int     `json:"dropped,omitempty"` // absent: none (and in runs archived before it was counted)
}

type powerJSON struct {
	IdleWatts   float64 `json:"idle_watts"`
	AvgWatts    float64 `json:"avg_watts"`
	MaxWatts    float64 `json:"max_watts"`
	MbpsPerWatt float64 `json:"mbps_per_watt"`
	Samples     int     `json:"samples"`
}

// JSON renders a run as an indented JSON document with stable snake_case
// field names. FromJSON reads it back: every field survives, times as the
// same instant in UTC. It fails on values JSON cannot hold (NaN, ±Inf).
func JSON(r bench.Run) ([]byte, error) {
	out, err := json.MarshalIndent(toJSON(r), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode run %s as JSON: %w", r.ID, err)
	}
	return append(out, '\n'), nil
}

// FromJSON reads a document written by JSON.
func FromJSON(data []byte) (bench.Run, error) {
	var v runJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&v); err != nil {
		return bench.Run{}, fmt.Errorf("decode run JSON: %w", err)
	}
	if v.SchemaVersion < oldestSchemaVersion || v.SchemaVersion > SchemaVersion {
		return bench.Run{}, fmt.Errorf("run JSON has schema_version %d; this provider reads versions %d to %d", v.SchemaVersion, oldestSchemaVersion, SchemaVersion)
	}
	if v.SchemaVersion == 1 {
		for i := range v.Steps {
			s := &v.Steps[i]
			s.Step, s.Repeat, s.Index = s.Index+1, s.Repeat+1, 0
		}
	}
	return fromJSON(v)
}

func toJSON(r bench.Run) runJSON {
	v := runJSON{
		SchemaVersion: SchemaVersion,
		ID:            r.ID,
		Name:          r.Name,
		Started:       timeJSON(r.Started),
		Finished:      timeJSON(r.Finished),
		Iperf3Version: r.Iperf3Version,
		Plan:          planToJSON(r.Plan),
		BaselineID:    r.BaselineID,
		Status:        string(r.Status),
		Error:         r.Error,
		CPUSamples:    r.CPUSamples,
	}
	v.DUTs = mapSlice(r.DUTs, func(d bench.DUTInfo) dutJSON { return dutJSON(d) })
	v.Hosts = mapSlice(r.Hosts, hostToJSON)
	v.Steps = mapSlice(r.Steps, stepToJSON)
	v.Search = mapSlice(r.Search, frameSearchToJSON)
	return v
}

func planToJSON(p bench.Plan) planJSON {
	v := planJSON{
		DUTs:            p.DUTs,
		DurationSeconds: durationSeconds(p.Duration),
		OmitSeconds:     durationSeconds(p.Omit),
		Protocol:        string(p.Protocol),
		UDPBitrate:      p.UDPBitrate,
		MSS:             p.MSS,
		Lengths:         lengthsJSON(p.Lengths),
		ParallelStreams: p.ParallelStreams,
		Repeat:          p.Repeat,
		LinkMbps:        p.LinkMbps,
		Encapsulation:   encapsulationJSON(p.Encapsulation),
		Role:            roleJSON(p.Role),
		LinkMTU:         p.LinkMTU,
		LatencyProbe:    p.LatencyProbe,
	}
	v.Pairs = mapSlice(p.Pairs, func(pr bench.Pair) pairJSON { return pairJSON(pr) })
	if p.Search != nil {
		v.Search = searchSpecToJSON(*p.Search)
	}
	v.Directions = mapSlice(p.Directions, func(d bench.Direction) string { return string(d) })
	return v
}

func stepToJSON(s bench.StepResult) stepJSON {
	v := stepJSON{
		Step:              s.Index + 1,
		MSS:               s.MSS,
		Length:            s.Length,
		Direction:         string(s.Direction),
		Repeat:            s.Repeat + 1,
		Started:           timeJSON(s.Started),
		Finished:          timeJSON(s.Finished),
		TotalReceiverMbps: s.TotalReceiverMbps,
		Warnings:          s.Warnings,
	}
	v.Pairs = mapSlice(s.Pairs, pairResultToJSON)
	v.CPU = mapSlice(s.CPU, func(c bench.CPUStats) cpuJSON { return cpuJSON(c) })
	if s.Power != nil {
		p := powerJSON(*s.Power)
		v.Power = &p
	}
	return v
}

func fromJSON(v runJSON) (bench.Run, error) {
	var errs []error
	parse := func(field, s string) time.Time {
		t, err := parseTimeJSON(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", field, err))
		}
		return t
	}
	r := bench.Run{
		ID:            v.ID,
		Name:          v.Name,
		Iperf3Version: v.Iperf3Version,
		Started:       parse("started", v.Started),
		Finished:      parse("finished", v.Finished),
		BaselineID:    v.BaselineID,
		CPUSamples:    v.CPUSamples,
		Plan: bench.Plan{
			DUTs:            v.Plan.DUTs,
			Duration:        time.Duration(v.Plan.DurationSeconds),
			Omit:            time.Duration(v.Plan.OmitSeconds),
			Protocol:        bench.Protocol(v.Plan.Protocol),
			UDPBitrate:      v.Plan.UDPBitrate,
			MSS:             v.Plan.MSS,
			Lengths:         v.Plan.Lengths,
			ParallelStreams: v.Plan.ParallelStreams,
			Repeat:          v.Plan.Repeat,
			LinkMbps:        v.Plan.LinkMbps,
			Encapsulation:   bench.Encapsulation(v.Plan.Encapsulation),
			Role:            bench.Role(v.Plan.Role),
			LinkMTU:         v.Plan.LinkMTU,
			LatencyProbe:    v.Plan.LatencyProbe,
		},
	}
	r.Plan.Pairs = mapSlice(v.Plan.Pairs, func(p pairJSON) bench.Pair { return bench.Pair(p) })
	r.Plan.Directions = mapSlice(v.Plan.Directions, func(d string) bench.Direction { return bench.Direction(d) })
	r.DUTs = mapSlice(v.DUTs, func(d dutJSON) bench.DUTInfo { return bench.DUTInfo(d) })
	r.Hosts = mapSlice(v.Hosts, hostFromJSON)
	if v.Plan.Search != nil {
		r.Plan.Search = searchSpecFromJSON(*v.Plan.Search)
	}
	for i, fs := range v.Search {
		r.Search = append(r.Search, frameSearchFromJSON(fs, func(field, s string) time.Time {
			return parse(fmt.Sprintf("search[%d].%s", i, field), s)
		}))
	}
	if v.Steps != nil {
		r.Steps = make([]bench.StepResult, len(v.Steps))
		for i, s := range v.Steps {
			st := bench.StepResult{
				Step:              bench.Step{Index: s.Step - 1, MSS: s.MSS, Length: s.Length, Direction: bench.Direction(s.Direction), Repeat: s.Repeat - 1},
				TotalReceiverMbps: s.TotalReceiverMbps,
				Started:           parse(fmt.Sprintf("steps[%d].started", i), s.Started),
				Finished:          parse(fmt.Sprintf("steps[%d].finished", i), s.Finished),
				Warnings:          s.Warnings,
			}
			if s.Pairs != nil {
				st.Pairs = make([]bench.PairResult, len(s.Pairs))
				for j, p := range s.Pairs {
					st.Pairs[j] = pairResultFromJSON(p)
				}
			}
			if s.CPU != nil {
				st.CPU = make([]bench.CPUStats, len(s.CPU))
				for j, c := range s.CPU {
					st.CPU[j] = bench.CPUStats(c)
				}
			}
			if s.Power != nil {
				p := bench.PowerStats(*s.Power)
				st.Power = &p
			}
			r.Steps[i] = st
		}
	}
	if err := errors.Join(errs...); err != nil {
		return bench.Run{}, fmt.Errorf("run JSON %s: %w", v.ID, err)
	}
	r.Status, r.Error = statusFromJSON(v, r)
	return r, nil
}

// statusFromJSON is the run's status and error as written, or for a run
// archived before they were recorded, what its steps show: complete when
// it measured every step of its plan, else failed (routerlab archived
// failed runs then too, without saying so), so that such a run is never
// compared as if it were whole.
func statusFromJSON(v runJSON, r bench.Run) (bench.RunStatus, string) {
	if v.Status != "" {
		return bench.RunStatus(v.Status), v.Error
	}
	planned := len(r.Plan.Normalized().Steps())
	if len(r.Steps) >= planned {
		return bench.RunComplete, v.Error
	}
	why := v.Error
	if why == "" {
		why = fmt.Sprintf("archived before routerlab recorded a run's status; it measured %d of the plan's %d steps, so it stopped early for a reason not recorded", len(r.Steps), planned)
	}
	return bench.RunFailed, why
}

// lengthsJSON leaves out a length sweep that is only the default, so runs
// without one read as they did before lengths existed.
func lengthsJSON(l []int) []int {
	if len(l) == 1 && l[0] == 0 {
		return nil
	}
	return l
}

// roleJSON leaves out the default role, for the same reason.
func roleJSON(r bench.Role) string {
	if r == bench.RoleMeasurement {
		return ""
	}
	return string(r)
}

func timeJSON(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func parseTimeJSON(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, err
	}
	return t.UTC(), nil
}

// durationSeconds is a duration written as exact decimal seconds: 60,
// 1.5, 0.000000001.
type durationSeconds time.Duration

func (d durationSeconds) MarshalJSON() ([]byte, error) {
	ns := int64(d)
	r := new(big.Rat).SetFrac(big.NewInt(ns), big.NewInt(int64(time.Second)))
	s := r.FloatString(9)
	// Trim the fraction to what it needs.
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return []byte(s), nil
}

func (d *durationSeconds) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*d = 0
		return nil
	}
	r, ok := new(big.Rat).SetString(string(b))
	if !ok {
		return fmt.Errorf("duration %s is not a number of seconds", b)
	}
	r.Mul(r, new(big.Rat).SetInt64(int64(time.Second)))
	if !r.IsInt() || !r.Num().IsInt64() {
		return fmt.Errorf("duration %s s is not a whole number of nanoseconds that fits", b)
	}
	*d = durationSeconds(r.Num().Int64())
	return nil
}

// mapSlice converts every element, keeping nil as nil and empty as empty so
// the JSON round trip is exact.
func mapSlice[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
