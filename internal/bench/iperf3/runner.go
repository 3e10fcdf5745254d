package iperf3

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

const (
	// serverReadyTimeout bounds the wait for "Server listening on PORT".
	serverReadyTimeout = 5 * time.Second
	// killTimeout bounds a "kill -9 PID" sent through Host.Run.
	killTimeout = 5 * time.Second
	// reapTimeout bounds the wait for a killed command's output to end.
	reapTimeout = 2 * time.Second
	// logLines is how much of a server's output is kept for messages.
	logLines = 20
)

// pidPrefix starts the first line of every command started here: the
// shell prints its PID, then execs iperf3, which keeps that PID. Killing
// by PID works over SSH, where signalling the session often does not.
const pidPrefix = "PID:"

func withPID(cmd string) string { return "echo " + pidPrefix + "$$; exec " + cmd }

func parsePIDLine(line string) int {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), pidPrefix)
	if !ok {
		return 0
	}
	pid, err := strconv.Atoi(rest)
	if err != nil || pid <= 1 {
		return 0
	}
	return pid
}

// killPID sends SIGKILL to pid on h. It runs even when ctx is already
// cancelled (on a context detached from it, bounded by killTimeout).
func killPID(ctx context.Context, h command.Runner, pid int) error {
	kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), killTimeout)
	defer cancel()
	if _, err := h.Run(kctx, fmt.Sprintf("kill -9 %d 2>/dev/null; true", pid)); err != nil {
		return fmt.Errorf("kill iperf3 (PID %d) on %s: %w", pid, h.Name(), err)
	}
	return nil
}

// Server is a one-off iperf3 server (iperf3 -s -1) started by StartServer.
// It serves one test and exits; Stop kills it if it still runs.
type Server struct {
	host command.Runner
	port int
	proc command.Process

	ready chan struct{} // closed at "Server listening on PORT"
	done  chan struct{} // closed when the output ended and Wait returned

	mu      sync.Mutex
	pid     int
	log     []string // last logLines lines of output
	exit    command.Result
	waitErr error

	stopOnce sync.Once
	stopErr  error
}

// StartServer starts a one-off iperf3 server on h listening on port and
// returns once it is ready ("Server listening on PORT"), within 5s. The
// server lives until it has served one test, Stop is called, or ctx is
// cancelled.
//
// Failures: ErrNotInstalled (wrapped with the host and an install hint)
// when h has no iperf3; an *Error of KindPortBusy, in an error naming the
// host and port, when the port is taken.
func StartServer(ctx context.Context, h command.Runner, port int) (*Server, error) {
	if err := validPort(port); err != nil {
		return nil, err
	}
	p, err := h.Start(ctx, withPID(ServerCommand(port))+" 2>&1")
	if err != nil {
		return nil, fmt.Errorf("start iperf3 server on %s port %d: %w", h.Name(), port, err)
	}
	s := &Server{host: h, port: port, proc: p, ready: make(chan struct{}), done: make(chan struct{})}
	go s.drain()

	timer := time.NewTimer(serverReadyTimeout)
	defer timer.Stop()
	select {
	case <-s.ready:
		return s, nil
	case <-s.done:
		select {
		case <-s.ready: // became ready, then exited at once
			return s, nil
		default:
		}
		_ = s.Stop(ctx)
		return nil, s.startFailure()
	case <-timer.C:
		_ = s.Stop(ctx)
		return nil, fmt.Errorf("iperf3 server on %s port %d: not listening after %s (output: %q)",
			h.Name(), port, serverReadyTimeout, s.output())
	case <-ctx.Done():
		_ = s.Stop(ctx)
		return nil, fmt.Errorf("start iperf3 server on %s port %d: %w", h.Name(), port, ctx.Err())
	}
}

// drain reads the server's output to its end, noting the PID and the
// readiness line, then waits for the process.
func (s *Server) drain() {
	listening := fmt.Sprintf("Server listening on %d", s.port)
	isReady := false
	sc := bufio.NewScanner(s.proc.Stdout())
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		s.mu.Lock()
		if s.pid == 0 {
			if pid := parsePIDLine(line); pid > 0 {
				s.pid = pid
				s.mu.Unlock()
				continue
			}
		}
		if len(s.log) == logLines {
			s.log = s.log[1:]
		}
		s.log = append(s.log, line)
		s.mu.Unlock()
		if !isReady && (line == listening || strings.HasPrefix(line, listening+" ")) {
			isReady = true
			close(s.ready)
		}
	}
	_, _ = io.Copy(io.Discard, s.proc.Stdout()) // after a scanner error
	out, err := s.proc.Wait()
	s.mu.Lock()
	s.exit, s.waitErr = out, err
	s.mu.Unlock()
	close(s.done)
}

func (s *Server) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	text := strings.Join(s.log, "\n")
	if st := strings.TrimSpace(s.exit.Stderr); st != "" {
		text += "\n" + st
	}
	return strings.TrimSpace(text)
}

// startFailure explains a server that exited before listening.
func (s *Server) startFailure() error {
	name := s.host.Name()
	text := s.output()
	s.mu.Lock()
	status, waitErr := s.exit.ExitStatus, s.waitErr
	s.mu.Unlock()
	if looksNotInstalled(text, status) {
		return notInstalled(name)
	}
	if strings.Contains(text, "--forceflush") {
		return fmt.Errorf("iperf3 on %s is too old: it lacks --forceflush, which the readiness check needs (3.12 is known to work): %s", name, firstLine(text))
	}
	if err := parseText(text); err != nil {
		var ie *Error
		if errors.As(err, &ie) {
			if ie.Kind == KindPortBusy {
				return fmt.Errorf("iperf3 server on %s cannot listen on port %d: the port is already in use (another iperf3 or service holds it; choose another port): %w", name, s.port, ie)
			}
			return fmt.Errorf("iperf3 server on %s port %d: %w", name, s.port, ie)
		}
	}
	if waitErr != nil {
		return fmt.Errorf("iperf3 server on %s port %d: %w", name, s.port, waitErr)
	}
	return fmt.Errorf("iperf3 server on %s port %d exited (status %d) before listening: %q", name, s.port, status, text)
}

// PID is the server's process ID on its host (0 if it never printed one).
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pid
}

// Port is the port the server listens on.
func (s *Server) Port() int { return s.port }

// Stop kills the server by PID (unless it already exited), closes its
// process and waits briefly for its output to end. Calling it again
// returns the first call's result.
func (s *Server) Stop(ctx context.Context) error {
	s.stopOnce.Do(func() { s.stopErr = s.stop(ctx) })
	return s.stopErr
}

func (s *Server) stop(ctx context.Context) error {
	var err error
	select {
	case <-s.done: // exited by itself: its PID may already belong to another process
	default:
		if pid := s.PID(); pid > 0 {
			err = killPID(ctx, s.host, pid)
		}
	}
	_ = s.proc.Close() // errors here only say the session already ended
	t := time.NewTimer(reapTimeout)
	defer t.Stop()
	select {
	case <-s.done:
	case <-t.C:
	}
	return err
}

// RunClient runs one iperf3 client on h and parses its JSON report.
// Cancelling ctx kills the client by PID (through a fresh h.Run) and
// returns ctx's error promptly.
//
// Failures: ErrNotInstalled (wrapped with the host and an install hint);
// an *Error, wrapped in an error naming the host and target:port — of
// KindUnreachable when the server cannot be reached.
func RunClient(ctx context.Context, h command.Runner, o ClientOptions) (*Report, error) {
	cmd, err := ClientCommand(o)
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort(o.Target, strconv.Itoa(o.Port))
	p, err := h.Start(ctx, withPID(cmd))
	if err != nil {
		return nil, fmt.Errorf("start iperf3 client on %s to %s: %w", h.Name(), addr, err)
	}

	type result struct {
		stdout  []byte
		out     command.Result
		readErr error
		waitErr error
	}
	pidc := make(chan int, 1)
	resc := make(chan result, 1)
	go func() {
		var r result
		br := bufio.NewReader(p.Stdout())
		first, _ := br.ReadString('\n')
		pid := parsePIDLine(first)
		pidc <- pid
		r.stdout, r.readErr = io.ReadAll(br)
		if pid == 0 {
			r.stdout = append([]byte(first), r.stdout...)
		}
		r.out, r.waitErr = p.Wait()
		resc <- r
	}()

	var res result
	select {
	case res = <-resc:
	case <-ctx.Done():
		select {
		case res = <-resc: // finished anyway
		default:
			var pid int // the PID line comes first, normally long before now
			select {
			case pid = <-pidc:
			case <-time.After(time.Second):
			}
			if pid > 0 {
				_ = killPID(ctx, h, pid)
			}
			_ = p.Close()
			t := time.NewTimer(reapTimeout)
			defer t.Stop()
			select {
			case <-resc:
			case <-t.C:
			}
			return nil, fmt.Errorf("iperf3 client on %s to %s: %w", h.Name(), addr, ctx.Err())
		}
	}
	_ = p.Close()

	stdout := bytes.TrimSpace(res.stdout)
	isJSON := len(stdout) > 0 && jsonStart(stdout) >= 0
	if !isJSON && looksNotInstalled(res.out.Stderr+"\n"+string(stdout), res.out.ExitStatus) {
		return nil, notInstalled(h.Name())
	}
	if len(stdout) == 0 && strings.TrimSpace(res.out.Stderr) == "" {
		switch {
		case res.waitErr != nil:
			return nil, fmt.Errorf("iperf3 client on %s to %s: %w", h.Name(), addr, res.waitErr)
		case res.readErr != nil:
			return nil, fmt.Errorf("iperf3 client on %s to %s: reading output: %w", h.Name(), addr, res.readErr)
		}
	}
	data := stdout
	if !isJSON {
		// Parameter errors go to stderr as "iperf3: ..." (with the usage
		// text on stdout): look there first.
		data = []byte(res.out.Stderr + "\n" + string(stdout))
	}
	rep, err := Parse(data)
	if err != nil {
		var ie *Error
		switch {
		case errors.As(err, &ie) && ie.Kind == KindUnreachable:
			return nil, fmt.Errorf("iperf3 client on %s cannot reach %s: %w", h.Name(), addr, err)
		case errors.As(err, &ie):
			return nil, fmt.Errorf("iperf3 client on %s to %s: %w", h.Name(), addr, err)
		default:
			return nil, fmt.Errorf("iperf3 client on %s to %s (exit status %d): %w", h.Name(), addr, res.out.ExitStatus, err)
		}
	}
	rep.Raw = res.stdout // what iperf3 printed after the PID line, untrimmed
	return rep, nil
}

var versionRE = regexp.MustCompile(`(?m)^iperf ([0-9]+\.[0-9]+(?:\.[0-9]+)?)`)

// parseVersion extracts "3.12" from "iperf 3.12 (cJSON 1.7.15)".
func parseVersion(text string) (string, error) {
	m := versionRE.FindStringSubmatch(text)
	if m == nil {
		return "", fmt.Errorf("unrecognised iperf3 --version output %q", firstLine(text))
	}
	return m[1], nil
}

// Version returns the iperf3 version on h, e.g. "3.12".
func Version(ctx context.Context, h command.Runner) (string, error) {
	f, err := HostFeatures(ctx, h)
	return f.Version, err
}
