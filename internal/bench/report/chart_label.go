package report

import "fmt"

// Value labels: the figure of a bar, written where it fits per the font's
// metrics and never across the bar's edges: inside the bar and level
// where it fits; else level above the bar when the column is wide enough
// (a short bar); else inside turned to read upwards (a tall narrow bar);
// else turned above it; failing all (a column narrower than a line of
// text, which the layout avoids) nowhere: the bar's tooltip still has it.
const (
	valuePx  = 11.0 // font size of value labels
	labelPad = 2.0  // space between a label and its bar's edges
)

// placement is where a label went.
type placement string

const (
	placeInside placement = "inside"
	placeAbove  placement = "above"
	placeNone   placement = ""
)

// valueLabel is a placed label: its anchor point, whether it is turned,
// and its box (x0, y0)–(x1, y1) in chart coordinates.
type valueLabel struct {
	text     string
	where    placement
	vertical bool
	x, y     float64 // the text's anchor point
	anchor   string  // text-anchor
	color    string
	plate    bool // a white plate under the text (on a hatched fill)
	box      [4]float64
}

// placeLabel places text for a bar spanning bx … bx+bw across and
// insideTop … base down (insideTop is the bar's top, or the lowest
// repetition when the spread marks cover the top), whose marks reach up to
// clearTop; plotTop is the highest a label may reach.
func placeLabel(text string, bx, bw, insideTop, base, clearTop, plotTop float64, on fill) valueLabel {
	w := textWidth(text, valuePx)
	asc, desc := textAscent(valuePx), textDescent(valuePx)
	h := asc + desc
	cx := bx + bw/2
	l := valueLabel{text: text, color: on.textOn(), plate: on.hatch != hatchNone}
	inH := base - insideTop
	switch {
	case w+2*labelPad <= bw && h+2*labelPad <= inH:
		l.where, l.anchor = placeInside, "middle"
		l.x, l.y = cx, insideTop+labelPad+asc
	case w <= bw && clearTop-labelPad-h >= plotTop:
		l.where, l.anchor, l.color, l.plate = placeAbove, "middle", "#000000", false
		l.x, l.y = cx, clearTop-labelPad-desc
	case h+2*labelPad <= bw && w+2*labelPad <= inH:
		// Turned by -90° about its anchor, a text ending there runs down
		// from it, its ascent to the left of the anchor's x.
		l.where, l.vertical, l.anchor = placeInside, true, "end"
		l.x, l.y = cx+(asc-desc)/2, insideTop+labelPad
	case h <= bw && clearTop-labelPad-w >= plotTop:
		l.where, l.vertical, l.anchor, l.color, l.plate = placeAbove, true, "start", "#000000", false
		l.x, l.y = cx+(asc-desc)/2, clearTop-labelPad
	default:
		return valueLabel{where: placeNone}
	}
	l.box = labelBox(l.x, l.y, w, asc, desc, l.anchor, l.vertical)
	return l
}

// labelBox is the box a text of advance w covers, anchored at (x, y) with
// text-anchor anchor, level or turned by -90° about its anchor.
func labelBox(x, y, w, asc, desc float64, anchor string, vertical bool) [4]float64 {
	var dx0 float64
	switch anchor {
	case "middle":
		dx0 = -w / 2
	case "end":
		dx0 = -w
	}
	if !vertical {
		return [4]float64{x + dx0, y - asc, x + dx0 + w, y + desc}
	}
	// (x+dx, y+dy) turns to (x+dy, y-dx).
	return [4]float64{x - asc, y - dx0 - w, x + desc, y - dx0}
}

// needsRoom reports whether a label that could only go above its bar was
// left out for want of room under plotTop: the axis needs headroom.
func needsRoom(text string, bw, clearTop, plotTop float64) bool {
	w := textWidth(text, valuePx)
	h := textHeight(valuePx)
	return (w <= bw && clearTop-labelPad-h < plotTop) || (w > bw && h <= bw && clearTop-labelPad-w < plotTop)
}

// svg writes the label (and its plate) as SVG.
func (l valueLabel) svg(attrs string) string {
	if l.where == placeNone {
		return ""
	}
	s := ""
	if l.plate {
		s += fmt.Sprintf(`<rect class="plate" x="%s" y="%s" width="%s" height="%s" fill="#ffffff" fill-opacity="0.85"/>`,
			f(l.box[0]-1), f(l.box[1]-1), f(l.box[2]-l.box[0]+2), f(l.box[3]-l.box[1]+2))
	}
	tr := ""
	if l.vertical {
		tr = fmt.Sprintf(` transform="rotate(-90 %s %s)"`, f(l.x), f(l.y))
	}
	s += fmt.Sprintf(`<text class="value" data-placement="%s"%s x="%s" y="%s" font-size="%s" fill="%s" text-anchor="%s"%s>%s</text>`,
		l.where, attrs, f(l.x), f(l.y), f(valuePx), l.color, l.anchor, tr, esc(l.text))
	return s + "\n"
}
