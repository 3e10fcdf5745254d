package iperf3

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// These tests run the real iperf3 on 127.0.0.1 through testHost.

func startServer(t *testing.T, h *testHost, port int) *Server {
	t.Helper()
	s, err := StartServer(context.Background(), h, port)
	if err != nil {
		t.Fatalf("StartServer: %v", err)
	}
	t.Cleanup(func() { _ = s.Stop(context.Background()) })
	if s.PID() <= 1 || !pidAlive(s.PID()) {
		t.Fatalf("server PID %d not alive", s.PID())
	}
	return s
}

func TestRunClientTCP(t *testing.T) {
	needIperf3(t)
	h := newTestHost(t, "local-test")
	port := freePort(t)
	srv := startServer(t, h, port)
	if srv.Port() != port {
		t.Errorf("Port() = %d", srv.Port())
	}

	r, err := RunClient(context.Background(), h, ClientOptions{Target: "127.0.0.1", Port: port, Duration: time.Second, MSS: 1200})
	if err != nil {
		t.Fatalf("RunClient: %v", err)
	}
	s := r.Result()
	if s.ReceiverMbps <= 0 || s.SenderMbps <= 0 {
		t.Fatalf("summary %+v: want Mbps > 0", s)
	}
	if s.MSS != 1200 {
		t.Errorf("MSS = %d, want 1200", s.MSS)
	}
	if s.ReceiverMbps > s.SenderMbps*1.05 {
		t.Errorf("receiver %.1f > sender %.1f", s.ReceiverMbps, s.SenderMbps)
	}
	// The raw output, kept for the archive, is iperf3's whole document
	// (without the PID line), and says what the parsed report says.
	raw, err := Parse(r.Raw)
	if err != nil || !bytes.HasPrefix(r.Raw, []byte("{")) || !bytes.HasSuffix(r.Raw, []byte("}\n")) {
		t.Fatalf("Raw %.60q…: %v", r.Raw, err)
	}
	if len(raw.Intervals) == 0 || len(raw.Intervals) != len(r.Intervals) || raw.Result() != s {
		t.Errorf("Raw has %d intervals, the report %d", len(raw.Intervals), len(r.Intervals))
	}

	// The one-off server exits after its test; Stop copes, twice.
	pid := srv.PID()
	if err := srv.Stop(context.Background()); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if err := srv.Stop(context.Background()); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if !waitGone(pid, time.Second) {
		t.Errorf("server PID %d still exists after Stop", pid)
	}
}

func TestRunClientUDPDownload(t *testing.T) {
	needIperf3(t)
	h := newTestHost(t, "local-test")
	port := freePort(t)
	startServer(t, h, port)
	r, err := RunClient(context.Background(), h, ClientOptions{Target: "127.0.0.1", Port: port, Duration: time.Second,
		Protocol: "udp", UDPBitrate: "20M", Direction: "download"})
	if err != nil {
		t.Fatalf("RunClient: %v", err)
	}
	s := r.Result()
	if s.Protocol != "udp" || s.Packets <= 0 || s.ReceiverMbps <= 0 || r.Start.TestStart.Reverse != 1 {
		t.Fatalf("summary %+v, reverse %d", s, r.Start.TestStart.Reverse)
	}
	if s.LossPercent < 0 || s.LossPercent > 100 || s.JitterMs < 0 {
		t.Errorf("loss %v jitter %v", s.LossPercent, s.JitterMs)
	}
}

func TestStartServerPortBusy(t *testing.T) {
	needIperf3(t)
	h := newTestHost(t, "busyhost")
	port := freePort(t)
	first := startServer(t, h, port)

	s, err := StartServer(context.Background(), h, port)
	if err == nil {
		_ = s.Stop(context.Background())
		t.Fatal("second server on the same port started")
	}
	var ie *Error
	if !errors.As(err, &ie) || ie.Kind != KindPortBusy {
		t.Fatalf("error %v: want *Error of KindPortBusy", err)
	}
	t.Log(err)
	for _, want := range []string{"busyhost", "port " + strconv.Itoa(port), "already in use"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if !pidAlive(first.PID()) {
		t.Error("the first server died")
	}
}

func TestRunClientUnreachable(t *testing.T) {
	needIperf3(t)
	h := newTestHost(t, "clienthost")
	port := freePort(t) // nothing listens there
	_, err := RunClient(context.Background(), h, ClientOptions{Target: "127.0.0.1", Port: port, Duration: time.Second, ConnectTimeout: time.Second})
	var ie *Error
	if !errors.As(err, &ie) || ie.Kind != KindUnreachable {
		t.Fatalf("error %v: want *Error of KindUnreachable", err)
	}
	t.Log(err)
	for _, want := range []string{"clienthost", "127.0.0.1:" + strconv.Itoa(port)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestRunClientMinMSS(t *testing.T) {
	needIperf3(t)
	h := newTestHost(t, "clienthost")
	// MinMSS is what the kernel accepts (87 fails, see error_mss.json).
	port := freePort(t)
	srv := startServer(t, h, port)
	_, err := RunClient(context.Background(), h, ClientOptions{Target: "127.0.0.1", Port: port, Duration: time.Second, MSS: MinMSS})
	if err != nil {
		t.Fatalf("MSS %d should work: %v", MinMSS, err)
	}
	_ = srv.Stop(context.Background())
}

func TestNotInstalled(t *testing.T) {
	h := newTestHost(t, "bare-host")
	h.env = []string{"PATH=" + t.TempDir()} // no iperf3 (nor anything else) on PATH
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrNotInstalled) {
			t.Fatalf("%s: error %v is not ErrNotInstalled", what, err)
		}
		t.Logf("%s: %v", what, err)
		for _, want := range []string{"iperf3 is not installed on bare-host", "apt-get install iperf3", "dnf install iperf3", "RouterOS"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q lacks %q", what, err, want)
			}
		}
	}
	s, err := StartServer(context.Background(), h, freePort(t))
	if err == nil {
		_ = s.Stop(context.Background())
	}
	check("StartServer", err)
	_, err = RunClient(context.Background(), h, ClientOptions{Target: "127.0.0.1", Port: freePort(t), Duration: time.Second})
	check("RunClient", err)
	_, err = Version(context.Background(), h)
	check("Version", err)
}

func TestRunClientCancel(t *testing.T) {
	needIperf3(t)
	// detached: ctx cancellation and Close do not end the commands, as over
	// SSH — only the kill by PID does.
	h := newTestHost(t, "sshlike")
	h.detached = true
	port := freePort(t)
	srv := startServer(t, h, port)
	srvPID := srv.PID()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { time.Sleep(1500 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err := RunClient(ctx, h, ClientOptions{Target: "127.0.0.1", Port: port, Duration: 30 * time.Second})
	elapsed := time.Since(start)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v: want context.Canceled", err)
	}
	t.Logf("%v after %s", err, elapsed)
	if elapsed > 1500*time.Millisecond+2*time.Second {
		t.Errorf("RunClient returned %s after start, %s after cancel", elapsed, elapsed-1500*time.Millisecond)
	}
	pids := h.started()
	if len(pids) < 2 {
		t.Fatalf("started %v", pids)
	}
	clientPID := pids[1] // [0] is the server; kills via Run come after
	if clientPID == srvPID {
		t.Fatal("client PID is the server's")
	}
	if !waitGone(clientPID, 500*time.Millisecond) {
		t.Errorf("client PID %d still exists after cancel", clientPID)
	}

	if err := srv.Stop(context.Background()); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if !waitGone(srvPID, time.Second) {
		t.Errorf("server PID %d still exists after Stop", srvPID)
	}
}

func TestStartServerCancelledContextStillStops(t *testing.T) {
	needIperf3(t)
	h := newTestHost(t, "sshlike")
	h.detached = true
	srv := startServer(t, h, freePort(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Stop with a cancelled ctx still kills by PID.
	if err := srv.Stop(ctx); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if !waitGone(srv.PID(), time.Second) {
		t.Errorf("server PID %d still exists after Stop", srv.PID())
	}
}

func TestVersion(t *testing.T) {
	needIperf3(t)
	h := newTestHost(t, "local-test")
	v, err := Version(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := exec.Command("iperf3", "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^3\.[0-9]+`).MatchString(v) || !strings.HasPrefix(string(raw), "iperf "+v) {
		t.Errorf("Version = %q, iperf3 --version says %q", v, raw)
	}
}

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]string{
		"iperf 3.12 (cJSON 1.7.15)\nLinux vm 6.1 x86_64\n": "3.12",
		"iperf 3.1.3\n":                "3.1.3",
		"iperf 3.17.1+ (cJSON 1.7.15)": "3.17.1",
	} {
		got, err := parseVersion(in)
		if err != nil || got != want {
			t.Errorf("parseVersion(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if v, err := parseVersion("iperf version 2.1.8 (12 August 2022) pthreads"); err == nil {
		t.Errorf("iperf2 accepted as %q", v)
	}
}
