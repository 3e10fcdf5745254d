package runner

import (
	"context"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
)

// finishRecording completes what the run keeps beyond its figures once
// its last step is over (or it failed): the hosts' environment after the
// run, and each measured step's CPU readings into rec.
func finishRecording(ctx context.Context, run *bench.Run, env Env, envs hostReads, samplers []*cpu.Sampler, rec *bench.Recording) {
	recordEnvironments(ctx, run, env, envs)
	rec.CPU = cpuSamples(run, env, samplers)
}

// cpuSamples lists, per measured step and DUT, every reading whose
// period overlaps the step, marking those inside its measured window
// (after the warm-up) as the step's CPUStats counted them.
func cpuSamples(run *bench.Run, env Env, samplers []*cpu.Sampler) []bench.CPUSample {
	var out []bench.CPUSample
	all := make([][]cpu.Reading, len(samplers))
	for i, s := range samplers {
		if s != nil {
			all[i] = s.Readings()
		}
	}
	for _, st := range run.Steps {
		for i, readings := range all {
			if readings == nil {
				continue
			}
			measured := map[int64]bool{} // by At, as Between returns the same readings
			for _, r := range cpu.Between(readings, st.Started.Add(run.Plan.Omit), st.Finished) {
				measured[r.At.UnixNano()] = true
			}
			for _, r := range cpu.Between(readings, st.Started, st.Finished) {
				s := bench.CPUSample{
					Step: st.Index, Device: env.DUTs[i].Info.Device,
					Offset: r.At.Sub(st.Started), Percent: r.Percent, Cores: r.Cores, Measured: measured[r.At.UnixNano()],
				}
				if !r.Since.IsZero() {
					s.Period = r.At.Sub(r.Since)
				}
				out = append(out, s)
			}
		}
	}
	return out
}
