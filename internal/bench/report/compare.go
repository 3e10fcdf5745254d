package report

import (
	"sort"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// comparison lines up several runs: the union of their rows (MSS ×
// length) and directions, in the order the runs first name them.
type comparison struct {
	runs   []bench.Run
	grids  []*grid
	labels []string
	rows   []rowKey
	dirs   []bench.Direction
	keys   keyer
}

func newComparison(runs []bench.Run) *comparison {
	c := &comparison{runs: runs}
	seenRow := map[rowKey]bool{}
	seenDir := map[bench.Direction]bool{}
	count := map[string]int{}
	for _, r := range runs {
		count[runLabel(r)]++
	}
	for _, r := range runs {
		g := newGrid(r)
		c.grids = append(c.grids, g)
		label := runLabel(r)
		if count[label] > 1 && label != r.ID {
			label += " (" + r.ID + ")"
		}
		c.labels = append(c.labels, label)
		for _, row := range g.rows {
			if !seenRow[row] {
				seenRow[row] = true
				c.rows = append(c.rows, row)
			}
		}
		for _, d := range g.dirs {
			if !seenDir[d] {
				seenDir[d] = true
				c.dirs = append(c.dirs, d)
			}
		}
	}
	c.keys = newKeyer(c.rows, c.mssLabel)
	return c
}

// mssLabel names a row; the default MSS row names what the runs reported,
// all of them if they differ.
func (c *comparison) mssLabel(m int) string {
	if m > 0 {
		return strconv.Itoa(m)
	}
	var defs []int
	seen := map[int]bool{}
	for _, g := range c.grids {
		if g.defaultMSS > 0 && !seen[g.defaultMSS] {
			seen[g.defaultMSS] = true
			defs = append(defs, g.defaultMSS)
		}
	}
	switch len(defs) {
	case 0:
		return "default"
	case 1:
		return mssLabel(0, defs[0])
	default:
		sort.Ints(defs)
		var s []string
		for _, d := range defs {
			s = append(s, strconv.Itoa(d))
		}
		return "default (" + strings.Join(s, ", ") + ")"
	}
}

// runDirs is the directions a run measured, in the comparison's order.
func (c *comparison) runDirs(g *grid) []bench.Direction {
	var ds []bench.Direction
	for _, d := range c.dirs {
		for _, x := range g.dirs {
			if x == d {
				ds = append(ds, d)
				break
			}
		}
	}
	return ds
}
