package sshtest

import (
	"bufio"
	"errors"
	"io"

	"golang.org/x/crypto/ssh"
)

// PTY is a pseudo-terminal a client asked for ("pty-req", RFC 4254 6.2).
type PTY struct {
	Term       string // e.g. "vt100"
	Cols, Rows int    // in characters
	// Modes are the encoded terminal modes, as sent.
	Modes string
}

// ShellSession records one "shell" request served by Options.Shell.
type ShellSession struct {
	// PTY is the terminal requested before the shell, nil if none was.
	PTY *PTY
	// WindowChanges are the sizes of "window-change" requests, in order
	// ([2]int{cols, rows}); PTY keeps the size asked for first.
	WindowChanges [][2]int
	ClientClosed  bool // the client closed the channel before Shell returned
	// StdinEnded: Shell read the end of its stdin, which comes when the
	// client closes the channel (or sends EOF): a hang-up as Shell sees
	// it, whether or not Shell returned before the close was recorded.
	StdinEnded bool
	Done       bool // Shell returned
	Exit       int  // what Shell returned
}

// Shells returns a snapshot of the shell sessions served so far.
func (s *Server) Shells() []ShellSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ShellSession, len(s.shells))
	for i, sh := range s.shells {
		out[i] = *sh
		if sh.PTY != nil {
			p := *sh.PTY
			out[i].PTY = &p
		}
		out[i].WindowChanges = append([][2]int(nil), sh.WindowChanges...)
	}
	return out
}

func parsePTY(payload []byte) (PTY, bool) {
	var p struct {
		Term                      string
		Cols, Rows, Width, Height uint32
		Modes                     string
	}
	if ssh.Unmarshal(payload, &p) != nil {
		return PTY{}, false
	}
	return PTY{Term: p.Term, Cols: int(p.Cols), Rows: int(p.Rows), Modes: p.Modes}, true
}

func (s *Server) newShell(pty *PTY) *ShellSession {
	sh := &ShellSession{PTY: pty}
	s.mu.Lock()
	s.shells = append(s.shells, sh)
	s.mu.Unlock()
	return sh
}

// windowChange records a "window-change" request (RFC 4254 6.7): on the
// shell's record once it runs, else on the PTY still to be used.
func (s *Server) windowChange(sh *ShellSession, pty *PTY, req *ssh.Request) {
	var p struct{ Cols, Rows, Width, Height uint32 }
	ok := ssh.Unmarshal(req.Payload, &p) == nil && (sh != nil || pty != nil)
	if req.WantReply {
		req.Reply(ok, nil)
	}
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sh != nil {
		sh.WindowChanges = append(sh.WindowChanges, [2]int{int(p.Cols), int(p.Rows)})
		return
	}
	pty.Cols, pty.Rows = int(p.Cols), int(p.Rows)
}

// runShell serves a shell request. The channel is its stdin and stdout as
// they are: a PTY has no separate stderr, and sshtest's PTY neither echoes
// nor translates line endings (see Options.Shell).
func (s *Server) runShell(ch ssh.Channel, sh *ShellSession) {
	code := s.opts.Shell(shellStdin{ch, s, sh}, ch)
	s.mu.Lock()
	sh.Done, sh.Exit = true, code
	s.mu.Unlock()
	_ = ch.CloseWrite()
	_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(code)}))
	ch.Close()
}

// shellStdin is a shell's stdin: it records the end of it.
type shellStdin struct {
	r  io.Reader
	s  *Server
	sh *ShellSession
}

func (in shellStdin) Read(p []byte) (int, error) {
	n, err := in.r.Read(p)
	if errors.Is(err, io.EOF) {
		in.s.mu.Lock()
		in.sh.StdinEnded = true
		in.s.mu.Unlock()
	}
	return n, err
}

// TermReader reads the lines a client types on a terminal, as a device's
// CLI does on its PTY: a line ends at "\r" (what Enter sends) or "\n", and
// "\r\n" counts as one end.
type TermReader struct {
	r      *bufio.Reader
	skipLF bool // the last line ended in "\r": a "\n" right after it is part of that end
}

// NewTermReader reads lines from r (a shell's stdin).
func NewTermReader(r io.Reader) *TermReader {
	return &TermReader{r: bufio.NewReader(r)}
}

// ReadLine returns the next line without its end. If echo is non-nil, the
// line is echoed to it followed by "\r\n", as a CLI echoes what is typed
// (pass nil at a password prompt). At the end of the input it returns
// io.EOF, with whatever was typed after the last line end.
func (t *TermReader) ReadLine(echo io.Writer) (string, error) {
	var line []byte
	for {
		b, err := t.r.ReadByte()
		if err != nil {
			return string(line), err
		}
		if t.skipLF {
			t.skipLF = false
			if b == '\n' {
				continue
			}
		}
		if b == '\r' || b == '\n' {
			t.skipLF = b == '\r'
			if echo != nil {
				_, _ = echo.Write(append(line, '\r', '\n'))
			}
			return string(line), nil
		}
		line = append(line, b)
	}
}

// ReadKey returns the next byte typed, a key pressed without Enter (a
// pager's space).
func (t *TermReader) ReadKey() (byte, error) {
	b, err := t.r.ReadByte()
	t.skipLF = false
	return b, err
}
