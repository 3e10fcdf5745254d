package rtxsim

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// The rtx driver's parser is tested against files written from YAMAHA's
// documented format; the simulator must print the very same bytes, in
// UTF-8 and as Shift_JIS with CRLF (what the PTY carries).
func TestShowEnvironmentMatchesTheDriversTestdata(t *testing.T) {
	jst := time.FixedZone("JST", 9*3600)
	s := newSim(t, Options{
		CPU: 99, CPU1Min: 98, CPU5Min: 62,
		Boot: time.Date(2019, 12, 20, 10, 4, 51, 0, jst),
		Now:  func() time.Time { return time.Date(2019, 12, 24, 21, 15, 2, 0, jst) },
	})
	want, err := os.ReadFile("../../device/rtx/testdata/rtx810_environment_ja.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.showEnvironment(charsetSJIS); got != string(want) {
		t.Errorf("show environment:\n%s\nwant (internal/device/rtx/testdata):\n%s", got, want)
	}

	s.SetCPU(3, 2, 2)
	wantSJIS, err := os.ReadFile("../../device/rtx/testdata/rtx810_environment_sjis_crlf.txt")
	if err != nil {
		t.Fatal(err)
	}
	// The driver's file has the long main: line whole, as at 200 columns
	// (at the default 80 the device wraps it).
	out := session(t, s, "console columns 200\rconsole lines infinity\rshow environment\r")
	start := bytes.Index([]byte(out), []byte("RTX810 BootROM"))
	end := strings.LastIndex(out, "> ")
	if start < 0 || end < start {
		t.Fatalf("no show environment output in %q", out)
	}
	if got := []byte(out[start:end]); !bytes.Equal(got, wantSJIS) {
		t.Errorf("show environment as Shift_JIS with CRLF:\n%q\nwant\n%q", got, wantSJIS)
	}
}

func TestShowEnvironmentInEnglish(t *testing.T) {
	s := newSim(t, Options{Model: "RTX1210", Language: "en", CPU: 7,
		Boot: time.Date(2026, 11, 28, 6, 30, 0, 0, time.UTC)})
	got := s.showEnvironment(charsetASCII)
	for _, want := range []string{
		"RTX1210 Rev.14.01.38 (Thu Jul  9 10:14:23 2020)\n",
		"  main:  RTX1210 ver=00 serial=S4L012345 MAC-Address=ac:44:f2:12:34:56 MAC-Address=ac:44:f2:12:34:57 MAC-Address=ac:44:f2:12:34:58\n",
		"CPU:   7%(5sec)   7%(1min)   7%(5min)    Memory:  24% used\n",
		"Current time: 2026/11/30 13:40:00 +00:00\n",
		"Elapsed time from boot: 2days 07:10:00\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("show environment lacks %q:\n%s", want, got)
		}
	}
}

func TestHeaderAndBannerPerModel(t *testing.T) {
	s := newSim(t, Options{Model: "RTX1210", Config: []string{}})
	got := s.showConfig()
	want := "# RTX1210 Rev.14.01.38 (Thu Jul  9 10:14:23 2020)\n" +
		"# MAC Address : ac:44:f2:12:34:56, ac:44:f2:12:34:57, ac:44:f2:12:34:58\n" +
		"# Memory 256Mbytes, 3LAN, 1BRI\n" +
		"# main:  RTX1210 ver=00 serial=S4L012345 MAC-Address=ac:44:f2:12:34:56 MAC-Address=ac:44:f2:12:34:57 MAC-Address=ac:44:f2:12:34:58\n" +
		"# Reporting Date: Nov 30 13:40:00 2026\n"
	if got != want {
		t.Errorf("show config of an empty RTX1210:\n%s\nwant\n%s", got, want)
	}
	if b := s.banner(); !strings.Contains(b, "\nMemory 256Mbytes, 3LAN, 1BRI\n") || !strings.Contains(b, "Copyright (c) 1994-2020 Yamaha") {
		t.Errorf("banner: %q", b)
	}
	// MAC addresses count up across a byte boundary.
	if got := New(Options{MAC: "00:a0:de:00:00:ff", LANs: 2}).macs(); got[1] != "00:a0:de:00:01:00" {
		t.Errorf("LAN2's MAC after 00:a0:de:00:00:ff: %s", got[1])
	}
}

// Issue 23 point 10: the RTX1220 and RTX1300 print their headers as the
// published dumps the rtx testdata follows, and a revision given is the
// one the header and show environment print (the snapshot's firmware).
func TestHeaderRTX1220RTX1300AndRevision(t *testing.T) {
	for _, tt := range []struct {
		opts Options
		head []string
	}{
		{Options{Model: "RTX1220"}, []string{"# RTX1220 Rev.15.04.03 (Thu Aug 24 14:10:02 2023)\n", "# Memory 512Mbytes, 3LAN, 1BRI\n", "# main:  RTX1220 ver=00 serial=S6A012345"}},
		{Options{Model: "RTX1300"}, []string{"# RTX1300 Rev.23.00.07 (Wed Oct 23 09:41:55 2024)\n", "# Memory 1024Mbytes, 3LAN\n", "# main:  RTX1300 ver=00 serial=S7B012345"}},
		{Options{Model: "RTX1210", Revision: "Rev.14.01.19"}, []string{"# RTX1210 Rev.14.01.19 (", "# Memory 256Mbytes, 3LAN, 1BRI\n"}},
	} {
		s := newSim(t, tt.opts)
		got := s.showConfig()
		for _, h := range tt.head {
			if !strings.Contains(got, h) {
				t.Errorf("%s %s: show config lacks %q:\n%s", tt.opts.Model, tt.opts.Revision, h, got)
			}
		}
		env := s.showEnvironment(charsetASCII)
		if !strings.Contains(env, tt.opts.Model+" "+strings.Fields(tt.head[0])[2]+" ") {
			t.Errorf("%s: show environment does not name the revision:\n%s", tt.opts.Model, env)
		}
	}
}
