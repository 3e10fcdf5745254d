package routeros

import (
	"fmt"
	"strconv"
	"strings"
)

// RouterOS prints time intervals in its own units ("1d", "8h", "1h30m",
// "45s", "1w2d"); durations travel as whole seconds in the domain.

var durationUnits = []struct {
	unit    string
	seconds int
}{{"w", 7 * 86400}, {"d", 86400}, {"h", 3600}, {"m", 60}, {"s", 1}}

// FormatDuration writes seconds as RouterOS prints them.
func FormatDuration(seconds int) string {
	if seconds == 0 {
		return "0s"
	}
	var b strings.Builder
	for _, u := range durationUnits {
		if n := seconds / u.seconds; n > 0 {
			b.WriteString(strconv.Itoa(n) + u.unit)
			seconds -= n * u.seconds
		}
	}
	return b.String()
}

// ParseDuration reads a RouterOS interval, also "hh:mm:ss" (v6 prints
// some intervals that way), as whole seconds.
func ParseDuration(s string) (int, error) {
	if h, rest, ok := strings.Cut(s, ":"); ok {
		m, sec, ok := strings.Cut(rest, ":")
		hh, e1 := strconv.Atoi(h)
		mm, e2 := strconv.Atoi(m)
		ss, e3 := strconv.Atoi(sec)
		if !ok || e1 != nil || e2 != nil || e3 != nil {
			return 0, fmt.Errorf("interval %q: want e.g. 1d, 8h, 30m or 00:30:00", s)
		}
		return hh*3600 + mm*60 + ss, nil
	}
	total, num := 0, ""
	for _, r := range s {
		if r >= '0' && r <= '9' {
			num += string(r)
			continue
		}
		mult := 0
		for _, u := range durationUnits {
			if string(r) == u.unit {
				mult = u.seconds
			}
		}
		n, err := strconv.Atoi(num)
		if mult == 0 || err != nil {
			return 0, fmt.Errorf("interval %q: want e.g. 1d, 8h, 30m or 45s", s)
		}
		total += n * mult
		num = ""
	}
	if num != "" {
		n, err := strconv.Atoi(num)
		if err != nil {
			return 0, fmt.Errorf("interval %q: want e.g. 1d, 8h, 30m or 45s", s)
		}
		total += n // a bare number is seconds
	}
	return total, nil
}
