package rtx

import (
	"strings"
	"testing"
)

// TestReportingDateNeverDigested (issue 23, point 9): the header's clock
// changes on every read, so however the header is wrapped or masked the
// digest of the configuration must not move with it.
func TestReportingDateNeverDigested(t *testing.T) {
	body := "ip lan1 address 198.18.1.1/24\nip route default gateway 198.18.1.254\n"
	head := "# RTX1210 Rev.14.01.42 (Fri Jan 15 17:49:56 2021)\n" +
		"# MAC Address : 00:a0:de:00:12:10, 00:a0:de:00:12:11, 00:a0:de:00:12:12\n" +
		"# Memory 256Mbytes, 3LAN, 1BRI\n"
	mainLine := "# main:  RTX1210 ver=00 serial=S4K000121 MAC-Address=00:a0:de:00:12:10 MAC-Address=00:a0:de:00:12:11 MAC-Address=00:a0:de:00:12:12\n"
	variants := map[string]string{
		"plain":      head + mainLine + "# Reporting Date: Nov 30 13:40:00 2026\n" + body,
		"other date": head + mainLine + "# Reporting Date: Dec  2 09:01:59 2026\n" + body,
		"masked":     head + mainLine + "# Reporting Date: *** ** **:**:** ****\n" + body,
		// wrapped at 80 columns, a full row (79 columns): dewrap joins it
		"main wrapped at 80": head + mainLine[:79] + "\n" + mainLine[79:] + "# Reporting Date: Jan  1 00:00:00 2027\n" + body,
		// wrapped one column short of a full row (as a double-width
		// character that did not fit leaves it): the rest starts no command
		"main wrapped short": head + mainLine[:78] + "\n" + mainLine[78:] + "# Reporting Date: Jan  1 00:00:00 2027\n" + body,
		"no date":            head + mainLine + body,
	}
	want := ""
	for name, text := range variants {
		part, err := readConfig(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(part.snap.Text, "Reporting") || strings.Contains(part.snap.Text, "serial") {
			t.Errorf("%s: the header reached the configuration text:\n%s", name, part.snap.Text)
		}
		if part.snap.Text != body {
			t.Errorf("%s: text = %q, want %q", name, part.snap.Text, body)
		}
		if want == "" {
			want = part.snap.SHA256
		} else if part.snap.SHA256 != want {
			t.Errorf("%s: digest %s differs from another variant's %s", name, part.snap.SHA256, want)
		}
		if part.snap.Facts.Serial != "S4K000121" {
			t.Errorf("%s: serial = %q, want S4K000121 (the header read whole)", name, part.snap.Facts.Serial)
		}
	}
}
