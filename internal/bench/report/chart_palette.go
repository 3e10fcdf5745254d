package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// palette is Tableau 10 with a dark navy and a lime added: twelve colours
// that stay apart (no two closer than ΔE*76 25 in CIELAB) so that 2 pairs
// × 3 directions × 2 halves, or a dozen runs side by side, never share a
// colour. Beyond twelve the colours come round again with a hatching
// (stripes, then a cross-hatch), so up to 36 series stay distinct.
var palette = []string{
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#17324d", "#a6d854",
}

// greys tell DUTs apart in the CPU panel, whose bars line up under the
// throughput bars of their direction and so must not take the series'
// colours.
var greys = []string{"#4d4d4d", "#a3a3a3", "#7a7a7a", "#cfcfcf"}

// hatching of a fill: none, diagonal stripes, cross-hatch.
const (
	hatchNone = iota
	hatchStripes
	hatchCross
	hatchKinds
)

// fill is the paint of a bar: a colour, perhaps hatched in white.
type fill struct {
	color string
	hatch int
}

// seriesFill is the fill of the i-th series of a chart.
func seriesFill(i int) fill {
	return fill{palette[i%len(palette)], (i / len(palette)) % hatchKinds}
}

// greyFill is the fill of the i-th DUT in the CPU panel.
func greyFill(i int) fill {
	return fill{greys[i%len(greys)], (i / len(greys)) % hatchKinds}
}

// paint is the SVG fill attribute's value.
func (f fill) paint() string {
	if f.hatch == hatchNone {
		return f.color
	}
	return "url(#" + f.patternID() + ")"
}

func (f fill) patternID() string {
	return fmt.Sprintf("hatch%d-%s", f.hatch, strings.TrimPrefix(f.color, "#"))
}

// pattern is the <pattern> element a hatched fill refers to.
func (f fill) pattern() string {
	var lines string
	switch f.hatch {
	case hatchStripes:
		lines = `<path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" stroke="#ffffff" stroke-width="1.6"/>`
	case hatchCross:
		lines = `<path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2 M-1,5 l2,2 M0,0 l6,6 M5,-1 l2,2" stroke="#ffffff" stroke-width="1.2"/>`
	}
	return fmt.Sprintf(`<pattern id="%s" patternUnits="userSpaceOnUse" width="6" height="6"><rect width="6" height="6" fill="%s"/>%s</pattern>`,
		f.patternID(), f.color, lines)
}

// textOn is the colour of text written on the fill: white on the darker
// colours (relative luminance under 0.2, where white reads at least as
// well as black: the blue, brown and navy), else black. Hatched fills put
// a white plate under the text (see valueLabel), so the text is black.
func (f fill) textOn() string {
	if f.hatch == hatchNone && luminance(f.color) < 0.2 {
		return "#ffffff"
	}
	return "#000000"
}

// luminance is the WCAG relative luminance of "#rrggbb".
func luminance(hex string) float64 {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil {
		return 1
	}
	lin := func(c uint64) float64 {
		s := float64(c) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(v>>16) + 0.7152*lin(v>>8&0xff) + 0.0722*lin(v&0xff)
}
