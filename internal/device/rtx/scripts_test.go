package rtx

import (
	"strings"
	"testing"
)

// Environment variables (`set name=value`, RTX command reference
// Rev.23.02.02, 4.90 環境変数の設定) often carry a Lua script's
// credentials: the value never reaches a Config or the normalised text.
func TestParseConfigRedactsEnvironmentValues(t *testing.T) {
	out := "# RTX1220 Rev.15.04.04 (Wed Jan  1 00:00:00 2025)\n" +
		"set PP1=sentinel-env-secret\n" +
		"set PP2=\"sentinel two words\"\n" +
		"ip lan1 address 198.18.0.1/24\n"
	c, err := ParseShowConfig(out)
	if err != nil {
		t.Fatal(err)
	}
	text := c.Normalise()
	if strings.Contains(text, "sentinel") {
		t.Fatalf("a secret reached the normalised text:\n%s", text)
	}
	for _, want := range []string{"set PP1=" + RedactedMarker + "\n", "set PP2=" + RedactedMarker + "\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("normalised text lacks %q:\n%s", want, text)
		}
	}
	for _, l := range c.Lines {
		if strings.Contains(strings.Join(l.Words, " "), "sentinel") {
			t.Errorf("a secret reached the words of %q", l.Text)
		}
	}
}
