package routeros

import (
	"strings"
	"testing"
)

// Formats: RouterOS `/system health print`, v7 table (help.mikrotik.com
// Health page, CCR1072 example) and v6 list (wiki Manual:System/Health);
// see testdata/README.md.
func TestParseHealth(t *testing.T) {
	tests := []struct {
		file string
		want float64
	}{
		{"routeros_v7_health_ccr1072.txt", 50.8},
		{"routeros_v6_health_crlf.txt", 12.3},
		{"routeros_v7_health_voltage_current.txt", 24.2 * 0.350},
	}
	for _, tt := range tests {
		w, err := ParseHealth(readTestdata(t, tt.file))
		if err != nil || !near(w, tt.want) {
			t.Errorf("%s: ParseHealth = %v, %v; want %v", tt.file, w, err, tt.want)
		}
	}
}

func TestParseHealthUnits(t *testing.T) {
	for out, want := range map[string]float64{
		"power-consumption: 12.3W\n":   12.3,
		"power-consumption: 12300mW\n": 12.3,
		"power-consumption: 7\n":       7,
		"voltage: 12V\ncurrent: 2A\n":  24,
	} {
		if w, err := ParseHealth(out); err != nil || !near(w, want) {
			t.Errorf("ParseHealth(%q) = %v, %v; want %v", out, w, err, want)
		}
	}
}

func TestParseHealthErrors(t *testing.T) {
	for _, tt := range []struct {
		out   string
		parts []string
	}{
		{readTestdata(t, "routeros_v7_health_hex.txt"), []string{"no power-consumption", "voltage, temperature", "use another meter type"}},
		{"Columns: NAME, VALUE, TYPE\n#  NAME  VALUE  TYPE\n", []string{"no sensors"}},
		{"", []string{"no sensors"}},
		{"power-consumption: 3kW\n", []string{`in "kW", not W`}},
	} {
		_, err := ParseHealth(tt.out)
		for _, p := range tt.parts {
			if err == nil || !strings.Contains(err.Error(), p) {
				t.Errorf("ParseHealth(%q) error = %v, want it to mention %q", tt.out, err, p)
			}
		}
	}
}
