package rtxsim

import (
	"fmt"
	"net"
	"strings"
	"time"
)

// macs are the LAN interfaces' MAC addresses: LAN1's, counting up.
func (s *Sim) macs() []string {
	base, err := net.ParseMAC(s.hw.mac)
	if err != nil {
		panic(fmt.Sprintf("rtxsim: MAC %q: %v", s.hw.mac, err))
	}
	out := make([]string, s.hw.lans)
	for i := range out {
		m := append(net.HardwareAddr(nil), base...)
		carry := i
		for j := len(m) - 1; j >= 0 && carry > 0; j-- {
			sum := int(m[j]) + carry
			m[j], carry = byte(sum), sum>>8
		}
		out[i] = m.String()
	}
	return out
}

func (s *Sim) version() string {
	return fmt.Sprintf("%s %s (%s)", s.name, s.hw.revision, s.hw.date)
}

// hardware is "Memory 128Mbytes, 2LAN" (", 1BRI" on models with ISDN).
func (s *Sim) hardware() string {
	h := fmt.Sprintf("Memory %dMbytes, %dLAN", s.hw.memoryMB, s.hw.lans)
	if s.hw.bri > 0 {
		h += fmt.Sprintf(", %dBRI", s.hw.bri)
	}
	return h
}

// mainLine is the "main:" line of show environment and of show config's
// header: model, board version, serial, every MAC address.
func (s *Sim) mainLine() string {
	var b strings.Builder
	fmt.Fprintf(&b, "main:  %s ver=00 serial=%s", s.name, s.hw.serial)
	for _, m := range s.macs() {
		b.WriteString(" MAC-Address=" + m)
	}
	return b.String()
}

// banner is what the console prints after the SSH login, before the
// first prompt (as RTX1210/RTX830 sessions published it).
func (s *Sim) banner() string {
	year := s.hw.date[len(s.hw.date)-4:]
	return "\n" + s.version() + "\n" +
		"Copyright (c) 1994-" + year + " Yamaha Corporation. All Rights Reserved.\n" +
		"To display the software copyright statement, use 'show copyright' command.\n" +
		strings.Join(s.macs(), ", ") + "\n" +
		s.hardware() + "\n"
}

// showConfig is the output of show config: the header comments, then the
// running configuration (no blank line between).
func (s *Sim) showConfig() string {
	s.mu.Lock()
	body := s.body(s.running)
	now := s.now()
	s.mu.Unlock()
	var b strings.Builder
	b.WriteString("# " + s.version() + "\n")
	b.WriteString("# MAC Address : " + strings.Join(s.macs(), ", ") + "\n")
	b.WriteString("# " + s.hardware() + "\n")
	b.WriteString("# " + s.mainLine() + "\n")
	b.WriteString("# Reporting Date: " + now.Format("Jan 2 15:04:05 2006") + "\n")
	for _, l := range body {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// ShowConfig is what show config prints now (header and configuration,
// not wrapped), for tests that compare the whole output.
func (s *Sim) ShowConfig() string { return s.showConfig() }

// showEnvironment is the output of show environment, in the console's
// language, in the format of internal/device/rtx/testdata.
func (s *Sim) showEnvironment(cs charset) string {
	s.mu.Lock()
	cpu, now := s.cpu, s.now()
	s.mu.Unlock()
	up := now.Sub(s.boot)
	days := int(up / (24 * time.Hour))
	rest := up - time.Duration(days)*24*time.Hour
	clock := fmt.Sprintf("%02d:%02d:%02d", int(rest/time.Hour), int(rest/time.Minute)%60, int(rest/time.Second)%60)
	const stamp = "2006/01/02 15:04:05 -07:00"
	boot, current := s.boot.In(now.Location()).Format(stamp), now.Format(stamp)

	var b strings.Builder
	fmt.Fprintf(&b, "%s BootROM Ver. %s\n", s.name, s.hw.bootROM)
	fmt.Fprintf(&b, "%s FlashROM Table Ver. %s\n", s.name, s.hw.flashROM)
	b.WriteString(s.version() + "\n")
	b.WriteString("  " + s.mainLine() + "\n")
	load := fmt.Sprintf("CPU: %3d%%(5sec) %3d%%(1min) %3d%%(5min)", cpu[0], cpu[1], cpu[2])
	l := environmentLabels
	if cs.english() {
		fmt.Fprintf(&b, "%s    Memory: %3d%% used\n", load, 24)
		b.WriteString("Packet Buffer:   0%(small)   0%(middle)   5%(large)   0%(huge) used\n")
		b.WriteString("Firmware: exec0  Config. file: config0\n")
		b.WriteString("Boot time: " + boot + "\n")
		b.WriteString("Current time: " + current + "\n")
		fmt.Fprintf(&b, "Elapsed time from boot: %ddays %s\n", days, clock)
		b.WriteString("Security Class Level: 1, Forget: ON, Telnet: OFF\n")
		b.WriteString("Temperature (C): 47\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%s    %s: %3d%% used\n", load, l[0], 24)
	fmt.Fprintf(&b, "%s:   0%%(small)   0%%(middle)   5%%(large)   0%%(huge) used\n", l[1])
	fmt.Fprintf(&b, "%s: exec0  %s: config0\n", l[2], l[3])
	fmt.Fprintf(&b, "%s: exec0  %s: config0\n", l[4], l[5])
	fmt.Fprintf(&b, "%s: %s\n", l[6], boot)
	fmt.Fprintf(&b, "%s: %s\n", l[7], current)
	fmt.Fprintf(&b, "%s: %d%s %s\n", l[8], days, l[9], clock)
	fmt.Fprintf(&b, "%s: 1, FORGET: ON, TELNET: OFF\n", l[10])
	fmt.Fprintf(&b, "%s: 47\n", l[11])
	return b.String()
}
