package cpu

import "time"

// Between returns the readings whose period overlaps the window from..to
// by the rule Summarise counts them with (invalid ones included, for the
// record), each with Since set to the start of its period, which
// Summarise otherwise takes from the reading before (zero for a first
// reading, an instant). It lets the archive list exactly the readings
// behind a step's figures.
func Between(readings []Reading, from, to time.Time) []Reading {
	var out []Reading
	var prev time.Time
	for _, r := range readings {
		if r.Since.IsZero() {
			r.Since = prev
		}
		prev = r.At
		if overlaps(r.Since, r.At, from, to) {
			out = append(out, r)
		}
	}
	return out
}
