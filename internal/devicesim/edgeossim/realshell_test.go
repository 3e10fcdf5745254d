package edgeossim

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Without CMD_WRAPPER_SESSION_ID the wrapper's session is the calling
// shell's: its id is the pid the script sees as $$, and a second shell
// (another exec, or `sh -c` inside this one) has a session of its own.
func TestSessionIsTheCallingShells(t *testing.T) {
	s := newSim(t, Options{})
	out, code := s.run(t, CfgWrapper+" begin\n"+CfgWrapper+" set system host-name x\necho $$\nsh -c '"+CfgWrapper+" commit >/dev/null; echo inner $?'\n")
	pid, rest, _ := strings.Cut(out, "\n")
	if _, err := strconv.Atoi(pid); err != nil || code != 0 || rest != "inner 1\n" {
		t.Fatalf("exit %d, %q: want the shell's pid, then the inner shell's commit refused", code, out)
	}
	if got := s.d.Sessions(); !slices.Equal(got, []string{pid}) {
		t.Errorf("sessions %v, want the shell's pid %s", got, pid)
	}
	if s.d.Commits() != 0 {
		t.Error("another shell committed the session")
	}
}

// What a script writes lands in the device's root, never on the host:
// an absolute path names the device's file.
func TestRedirectionsStayInTheRoot(t *testing.T) {
	s := newSim(t, Options{})
	const name = "/tmp/edgeossim-root-probe"
	host, err := os.Stat(name)
	if err == nil {
		t.Skipf("%s exists on this host: %v", name, host.ModTime())
	}
	if out, code := s.run(t, "echo x >"+name+" && cat "+name+" && echo y >>/config/probe && cd /config && cat probe"); code != 0 || out != "x\ny\n" {
		t.Fatalf("exit %d, %q", code, out)
	}
	if _, err := os.Stat(name); err == nil {
		t.Errorf("%s was written on the host", name)
	}
	if data, _, ok := s.d.File(name); !ok || string(data) != "x\n" {
		t.Errorf("the device's %s: %q %v", name, data, ok)
	}
	if files := s.d.Files(); !slices.Equal(files, []string{"/config/probe", name}) {
		t.Errorf("files %v", files)
	}
	// A path in an error message is the device's.
	if out, code := s.run(t, "cat /config/missing 2>&1"); code != 1 || out != "cat: /config/missing: No such file or directory\n" {
		t.Errorf("exit %d, %q", code, out)
	}
}

// The interface counters are real files in the device's root: the
// probe's cd enters the root's /sys/class/net (the host's has other
// interfaces and counters), its glob is the shell's and its grep is
// Debian's. They are not among the device's Files.
func TestInterfaceCountersAreFilesInTheRoot(t *testing.T) {
	s := newSim(t, Options{Ethernets: []string{"eth0", "eth1"}})
	s.d.SetInterfaceStats("eth1", IfStats{RxPackets: 424242, TxDropped: 7})
	out, code := s.run(t, "cd /sys/class/net && echo */statistics && grep -r . -- eth1/statistics/rx_packets eth1/statistics/tx_dropped eth0/statistics/rx_errors")
	want := "eth0/statistics eth1/statistics lo/statistics\n" +
		"eth1/statistics/rx_packets:424242\neth1/statistics/tx_dropped:7\neth0/statistics/rx_errors:0\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, %q, want %q", code, out, want)
	}
	if files := s.d.Files(); len(files) != 0 {
		t.Errorf("files %v", files)
	}
}
