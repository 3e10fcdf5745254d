package bench

import (
	"fmt"
	"strings"
)

// A baseline is a run of the same hosts without the device under test
// (seed 003's "Direct Connection"): other runs are read as a share of it,
// and a lab's CI can demand that a firmware keeps, say, 95 % of it.

// stepKey is what makes two runs' steps comparable.
type stepKey struct {
	MSS, Length int
	Direction   Direction
}

func (k stepKey) String() string {
	s := fmt.Sprintf("%s at MSS %s", k.Direction, orDefault(k.MSS))
	if k.Length != 0 {
		s += fmt.Sprintf(", length %d", k.Length)
	}
	return s
}

func orDefault(v int) string {
	if v == 0 {
		return "default"
	}
	return fmt.Sprint(v)
}

// CheckBaseline reports why baseline cannot serve as the baseline of plan:
// another protocol, or (when every step must be compared, as
// expect.min_percent_of_baseline needs) steps it never measured.
func CheckBaseline(plan Plan, baseline Run, needEveryStep bool) error {
	want, have := plan.Protocol, baseline.Plan.Protocol
	if want == "" {
		want = TCP
	}
	if have == "" {
		have = TCP
	}
	if want != have {
		return fmt.Errorf("baseline run %s measured %s, this run measures %s: a baseline must use the same protocol", baseline.ID, have, want)
	}
	if len(baseline.Steps) == 0 {
		return fmt.Errorf("baseline run %s has no measured steps", baseline.ID)
	}
	if !needEveryStep {
		return nil
	}
	measured := map[stepKey]bool{}
	for _, s := range baseline.Steps {
		measured[stepKey{s.MSS, s.Length, s.Direction}] = true
	}
	var missing []string
	seen := map[stepKey]bool{}
	for _, s := range plan.Normalized().Steps() {
		k := stepKey{s.MSS, s.Length, s.Direction}
		if !measured[k] && !seen[k] {
			missing = append(missing, k.String())
		}
		seen[k] = true
	}
	if len(missing) > 0 {
		return fmt.Errorf("baseline run %s did not measure %s: measure the baseline with the same mss, lengths and directions", baseline.ID, strings.Join(missing, "; "))
	}
	return nil
}

// CompareWithBaseline fills each pair's BaselineMbps and BaselinePercent
// from the baseline's step with the same MSS, length and direction (the
// mean over its repeats), matching pairs by name, else by position: the
// baseline pair usually has another name ("direct") than the pair through
// the router.
func CompareWithBaseline(r *Run, baseline Run) {
	r.BaselineID = baseline.ID
	byName := map[stepKey]map[string]*mean{}
	byIndex := map[stepKey]map[int]*mean{}
	for _, s := range baseline.Steps {
		k := stepKey{s.MSS, s.Length, s.Direction}
		if byName[k] == nil {
			byName[k], byIndex[k] = map[string]*mean{}, map[int]*mean{}
		}
		for i, p := range s.Pairs {
			for _, a := range []*mean{get(byName[k], p.Pair), get(byIndex[k], i)} {
				a.sum += p.ReceiverMbps + p.ReverseReceiverMbps
				a.n++
			}
		}
	}
	for si := range r.Steps {
		s := &r.Steps[si]
		k := stepKey{s.MSS, s.Length, s.Direction}
		for pi := range s.Pairs {
			p := &s.Pairs[pi]
			a, ok := byName[k][p.Pair]
			if !ok {
				a, ok = byIndex[k][pi]
			}
			if !ok || a.n == 0 || a.sum <= 0 {
				continue
			}
			p.BaselineMbps = a.sum / a.n
			p.BaselinePercent = 100 * (p.ReceiverMbps + p.ReverseReceiverMbps) / p.BaselineMbps
		}
	}
}

// mean accumulates receiver Mbps over a baseline step's repeats.
type mean struct{ sum, n float64 }

func get[K comparable](m map[K]*mean, k K) *mean {
	a, ok := m[k]
	if !ok {
		a = &mean{}
		m[k] = a
	}
	return a
}
