package report

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// Where the archive keeps a run's Recording, inside the run's directory.
const (
	Iperf3Dir      = "iperf3"
	CPUSamplesFile = "cpu.csv"
)

// Iperf3Path is the archive path of iperf3's report for pair (its index
// in p.Pairs) in step s, relative to the run's directory:
// "iperf3/step-01-pair-A-B-repeat-1.json". The pair's label is kept to
// letters, digits, '.', '_' and '-' (others become '_'); when that makes
// two pairs' names alike, the pair's position is added to tell them
// apart.
func Iperf3Path(p bench.Plan, s bench.Step, pair int) string {
	width := max(2, len(strconv.Itoa(len(p.Steps()))))
	name := fileSafe(p.Pairs[pair].Label())
	for i, other := range p.Pairs {
		if i != pair && fileSafe(other.Label()) == name {
			name += "-" + strconv.Itoa(pair+1)
			break
		}
	}
	return path.Join(Iperf3Dir, fmt.Sprintf("step-%0*d-pair-%s-repeat-%d.json", width, s.Index+1, name, s.Repeat+1))
}

func fileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
	if s == "" || strings.HasPrefix(s, ".") {
		s = "_" + s // never a hidden file, "." or ".."
	}
	return s
}

// AttachRecording names rec's files in run (each step's PairResult.Iperf3JSON,
// Run.CPUSamples), so that run.json references them, and returns them
// for the archive. Only what rec holds is named: a step that failed
// before iperf3 printed anything has no file.
func AttachRecording(run *bench.Run, rec bench.Recording) []File {
	var files []File
	for _, o := range rec.Iperf3 {
		for k := range run.Steps {
			s := &run.Steps[k]
			if s.Index != o.Step || o.Pair >= len(s.Pairs) || o.Pair >= len(run.Plan.Pairs) {
				continue
			}
			name := Iperf3Path(run.Plan, s.Step, o.Pair)
			s.Pairs[o.Pair].Iperf3JSON = name
			files = append(files, File{Name: name, Data: o.JSON})
		}
	}
	if len(rec.CPU) > 0 {
		run.CPUSamples = CPUSamplesFile
		files = append(files, File{Name: CPUSamplesFile, Data: CPUSamplesCSV(rec.CPU)})
	}
	return files
}
