package report

import (
	"sync"

	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"golang.org/x/image/font/opentype"
	"gonum.org/v1/plot/font"
)

// The charts name Liberation Sans first and measure every text with its
// metrics (through gonum.org/v1/plot/font: advances and kerning from the
// font file), so that a label judged to fit its bar does fit. Arial and
// Helvetica, the next names in the list, are metric-compatible with it, so
// the measure holds wherever one of the three is installed.
const chartFontFamily = "Liberation Sans, Arial, Helvetica, sans-serif"

// Only the two faces the charts use are loaded: gonum's liberation
// collection would parse all twelve Liberation fonts into the provider.
var (
	fontsOnce           sync.Once
	regularTTF, boldTTF *opentype.Font
)

func chartFonts() (regular, bold *opentype.Font) {
	fontsOnce.Do(func() {
		var err error
		// The TTFs are compiled in; a parse error is a broken build.
		if regularTTF, err = opentype.Parse(liberationsansregular.TTF); err != nil {
			panic("report: Liberation Sans Regular: " + err.Error())
		}
		if boldTTF, err = opentype.Parse(liberationsansbold.TTF); err != nil {
			panic("report: Liberation Sans Bold: " + err.Error())
		}
	})
	return regularTTF, boldTTF
}

// face is the font of size px (SVG user units), bold or not.
func face(px float64, bold bool) *font.Face {
	regular, b := chartFonts()
	f := &font.Face{Font: font.Font{Typeface: "Liberation", Variant: "Sans", Size: font.Length(px)}, Face: regular}
	if bold {
		f.Face = b
	}
	return f
}

// textWidth is the advance of s in Liberation Sans of size px.
func textWidth(s string, px float64) float64 { return float64(face(px, false).Width(s)) }

// boldWidth is the advance of s in Liberation Sans Bold of size px.
func boldWidth(s string, px float64) float64 { return float64(face(px, true).Width(s)) }

// textAscent and textDescent are how far Liberation Sans of size px
// reaches above and below the baseline (the font's own ascent and
// descent, so accents and descenders are inside).
func textAscent(px float64) float64 { return float64(face(px, false).Extents().Ascent) }

func textDescent(px float64) float64 { return float64(face(px, false).Extents().Descent) }

// textHeight is a line of text of size px from its ascent to its descent.
func textHeight(px float64) float64 { return textAscent(px) + textDescent(px) }
