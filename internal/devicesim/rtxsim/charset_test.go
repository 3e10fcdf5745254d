package rtxsim

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Every Japanese character the console prints has its Shift_JIS bytes in
// the table (a new message needs the table regenerated).
func TestShiftJISTableCoversMessages(t *testing.T) {
	var texts []string
	for _, m := range messages {
		texts = append(texts, m[0])
	}
	texts = append(texts, environmentLabels...)
	for _, s := range texts {
		for _, r := range s {
			if _, ok := shiftJIS[r]; r >= 0x80 && !ok {
				t.Errorf("%q of %q has no Shift_JIS bytes in sjis_table.go", r, s)
			}
		}
	}
}

// The table agrees with iconv (where the machine has it).
func TestShiftJISTableMatchesIconv(t *testing.T) {
	if _, err := exec.LookPath("iconv"); err != nil {
		t.Skip("iconv is not installed")
	}
	var runes []rune
	for r := range shiftJIS {
		runes = append(runes, r)
	}
	slices.Sort(runes)
	cmd := exec.Command("iconv", "-f", "UTF-8", "-t", "SHIFT_JIS")
	cmd.Stdin = strings.NewReader(string(runes))
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("iconv: %v", err)
	}
	if got := charsetSJIS.encode(string(runes)); !bytes.Equal(got, want) {
		t.Errorf("the table's Shift_JIS bytes\n% x\ndiffer from iconv's\n% x", got, want)
	}
}

func TestEncodeByCharset(t *testing.T) {
	msg := "エラー: コマンド名を確認してください"
	if got, want := charsetSJIS.encode(msg), []byte("\x83\x47\x83\x89\x81\x5b: "); !bytes.HasPrefix(got, want) {
		t.Errorf("Shift_JIS of %q starts % x, want % x", msg, got[:8], want)
	}
	if got := charsetUTF8.encode(msg); string(got) != msg {
		t.Errorf("ja.utf8 changed the text: %q", got)
	}
	// A typed Japanese description comes back in Shift_JIS (iconv -t
	// SHIFT_JIS: 説 90 e0, 明 96 be); what Shift_JIS cannot hold is "?".
	if got := string(charsetSJIS.encode("説明 lan")); got != "\x90\xe0\x96\xbe lan" {
		t.Errorf("characters outside the table: %q, want \"\\x90\\xe0\\x96\\xbe lan\"", got)
	}
	if got := string(charsetSJIS.encode("😀 lan")); got != "? lan" {
		t.Errorf("a character outside Shift_JIS: %q, want \"? lan\"", got)
	}
}

func TestWrapAtTheConsoleWidth(t *testing.T) {
	line := strings.Repeat("a", 100)
	rows := wrap(line, 0, 80)
	if len(rows) != 2 || len(rows[0]) != 79 || rows[0]+rows[1] != line {
		t.Errorf("100 columns at width 80: rows of %d and %d", len(rows[0]), len(rows[1]))
	}
	if rows := wrap(strings.Repeat("a", 79), 0, 80); len(rows) != 1 {
		t.Errorf("79 columns wrapped at width 80: %q", rows)
	}
	// The echo's first row shares the prompt's columns.
	if rows := wrap(strings.Repeat("b", 78), 2, 80); len(rows) != 2 || len(rows[0]) != 77 {
		t.Errorf("78 columns after a 2-column prompt: %q", rows)
	}
	// A Japanese character is two columns and is not cut.
	if rows := wrap(strings.Repeat("あ", 40), 0, 80); len(rows) != 2 || displayWidth(rows[0]) != 78 {
		t.Errorf("40 double-width characters: %q", rows)
	}
}
