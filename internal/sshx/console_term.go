package sshx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// consoleTerm is the client's side of a console device's terminal: it
// types lines and reads what the device prints until a pattern matches
// the last line. It knows no vendor: the patterns come from the dialect's
// command.Console.
type consoleTerm struct {
	con    *command.Console
	decode func([]byte) ([]byte, error) // nil: UTF-8 already
	idle   time.Duration
	secret string // the enable password: redacted from any device text put in an error

	stdin  io.Writer
	chunks chan []byte   // what the device printed, in order; closed when its output ends
	stop   chan struct{} // closed by close: the reader gives up sending
	// readErr is why the device's output ended; set before chunks is closed.
	readErr error
	eof     bool // chunks was found closed

	raw      []byte // everything printed since mark
	total    int    // bytes printed in the whole session, for the output limit
	answered int    // start (in raw) of the last line a Confirm answer was typed on; -1 none
}

// promptSettle is how long a matched prompt must stay the last thing
// printed before it counts: output arrives in chunks, and a chunk may end
// in the middle of a line that looks like a prompt ("# " of a "# RTX810"
// comment line in show config). A real prompt is followed by silence.
const promptSettle = 25 * time.Millisecond

// lastLineMax bounds the last line that patterns are matched against: a
// prompt or a question is short, and a longer line is output still coming.
const lastLineMax = 1024

func newConsoleTerm(con *command.Console, decode func([]byte) ([]byte, error), idle time.Duration, secret string, stdin io.Writer, stdout io.Reader) *consoleTerm {
	t := &consoleTerm{
		con: con, decode: decode, idle: idle, secret: secret,
		stdin: stdin, chunks: make(chan []byte, 16), stop: make(chan struct{}), answered: -1,
	}
	go t.read(stdout)
	return t
}

func (t *consoleTerm) read(stdout io.Reader) {
	defer close(t.chunks)
	for {
		buf := make([]byte, 32<<10)
		n, err := stdout.Read(buf)
		if n > 0 {
			select {
			case t.chunks <- buf[:n]:
			case <-t.stop:
				return
			}
		}
		if err != nil {
			t.readErr = err
			return
		}
	}
}

// close stops the reader; the session's Close ends its Read.
func (t *consoleTerm) close() { close(t.stop) }

// mark starts a new output: what is printed from now on is what the next
// line printed.
func (t *consoleTerm) mark() {
	t.raw = t.raw[:0]
	t.answered = -1
}

// send types s followed by Enter ("\r", what a terminal sends). The write
// runs aside so that a device that stopped reading cannot hold it past
// ctx: the caller then closes the session, which ends the write.
func (t *consoleTerm) send(ctx context.Context, s string) error {
	done := make(chan error, 1)
	go func() {
		_, err := io.WriteString(t.stdin, s+"\r")
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%w: typing a line failed: %w", ErrConsoleClosed, err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errIdle is wait's own timeout, which callers turn into ErrPromptTimeout
// with what they were waiting for.
var errIdle = errors.New("idle")

// wait reads until the last line printed matches Prompt or, if password is
// set, the PasswordPrompt, and reports which (true: the password prompt).
// Questions (Confirm) are answered on the way. It fails with errIdle when
// the device prints nothing for the idle timeout, with ErrConsoleClosed
// when its output ends, with ctx's error, and with ErrOutputLimit.
func (t *consoleTerm) wait(ctx context.Context, password bool) (bool, error) {
	idle := time.NewTimer(t.idle)
	defer idle.Stop()
	for {
		// Judge what was printed so far before waiting for more: a prompt
		// already there counts once it has settled.
		if isPassword, ok := t.matchLast(password); ok {
			settled, err := t.settle(ctx)
			if err != nil {
				return false, err
			}
			if settled {
				return isPassword, nil
			}
			continue
		}
		if err := t.confirm(ctx); err != nil {
			return false, err
		}
		if err := t.page(ctx); err != nil {
			return false, err
		}
		if t.eof {
			return false, t.ended()
		}
		select {
		case b, ok := <-t.chunks:
			if !ok {
				t.eof = true
				return false, t.ended()
			}
			if err := t.add(b); err != nil {
				return false, err
			}
			idle.Reset(t.idle) // no stale tick to drain since Go 1.23
		case <-idle.C:
			return false, errIdle
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
}

// settle waits promptSettle for more output: true if none came (the
// prompt stands), false if some did (it is added; match again).
func (t *consoleTerm) settle(ctx context.Context) (bool, error) {
	timer := time.NewTimer(promptSettle)
	defer timer.Stop()
	select {
	case b, ok := <-t.chunks:
		if !ok {
			// The device printed its prompt and hung up: the prompt
			// stands, and the next wait finds the end.
			t.eof = true
			return true, nil
		}
		return false, t.add(b)
	case <-timer.C:
		return true, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

func (t *consoleTerm) add(b []byte) error {
	t.total += len(b)
	if t.total > stdoutBufferLimit {
		return fmt.Errorf("%w: the console printed more than %d bytes in one session", ErrOutputLimit, stdoutBufferLimit)
	}
	t.raw = append(t.raw, b...)
	return nil
}

func (t *consoleTerm) ended() error {
	if t.readErr == nil || errors.Is(t.readErr, io.EOF) {
		return fmt.Errorf("%w by the device", ErrConsoleClosed)
	}
	return fmt.Errorf("%w: %w", ErrConsoleClosed, t.readErr)
}

// lastLine returns where the last line printed starts in raw and its
// text, decoded and without "\r" (bounded by lastLineMax).
func (t *consoleTerm) lastLine() (int, string) {
	start := bytes.LastIndexByte(t.raw, '\n') + 1
	line := t.raw[start:]
	if len(line) > lastLineMax {
		line = line[len(line)-lastLineMax:]
	}
	return start, t.text(line)
}

func (t *consoleTerm) matchLast(password bool) (isPassword, ok bool) {
	_, line := t.lastLine()
	if password && t.con.PasswordPrompt != nil && t.con.PasswordPrompt.MatchString(line) {
		return true, true
	}
	return false, t.con.Prompt.MatchString(line)
}

// confirm answers a question the last line asks (Confirm), once per line.
func (t *consoleTerm) confirm(ctx context.Context) error {
	start, line := t.lastLine()
	if start == t.answered {
		return nil
	}
	line = strings.TrimRight(line, " \t")
	for question, answer := range t.con.Confirm {
		if question != "" && strings.HasSuffix(line, question) {
			t.answered = start
			return t.send(ctx, answer)
		}
	}
	return nil
}

// page answers the pager (Pager): the prompt is cut from the output and
// PagerKey typed, without Enter. What the device prints next on that line
// (RTX wipes its prompt with a carriage return and spaces) is read as a
// terminal shows it (text).
func (t *consoleTerm) page(ctx context.Context) error {
	if t.con.Pager == nil {
		return nil
	}
	start, line := t.lastLine()
	if !t.con.Pager.MatchString(line) {
		return nil
	}
	t.raw = t.raw[:start]
	done := make(chan error, 1)
	go func() {
		_, err := io.WriteString(t.stdin, t.con.PagerKey)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%w: answering the pager failed: %w", ErrConsoleClosed, err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// text decodes device output to UTF-8 with "\n" line ends, as a terminal
// shows it: "\r\n" is a line end, and a lone "\r" returns to the start of
// the line, so what follows it overwrites what was printed before (a
// pager prompt wiped with spaces leaves the row printed over it, not the
// spaces). Bytes that do not decode are kept as they are.
func (t *consoleTerm) text(b []byte) string {
	if t.decode != nil {
		if d, err := t.decode(b); err == nil {
			b = d
		}
	}
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	if !strings.Contains(s, "\r") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = overprint(l)
	}
	return strings.Join(lines, "\n")
}

// overprint is one terminal line whose pieces, split at carriage returns,
// were printed over each other from its start: a later piece replaces
// the characters under it, and what an earlier piece leaves visible past
// the last piece's end stays unless it is blank (a wipe).
func overprint(l string) string {
	pieces := strings.Split(l, "\r")
	var shown []rune
	for _, p := range pieces {
		r := []rune(p)
		if len(r) >= len(shown) {
			shown = r
			continue
		}
		copy(shown, r)
	}
	last := len([]rune(pieces[len(pieces)-1]))
	if rest := shown[last:]; strings.TrimSpace(string(rest)) == "" {
		shown = shown[:last]
	}
	return string(shown)
}

// output is what was printed since mark, decoded, without the prompt it
// ends with (its last line) and without the echo of typed, if that is how
// it starts.
func (t *consoleTerm) output(typed string) string {
	s := t.text(t.raw)
	s = s[:strings.LastIndexByte(s, '\n')+1]
	return stripEcho(s, typed)
}

// lastPrinted says, for an error, what the device printed since mark after
// the echo of typed: trimmed, its end only, the enable password redacted.
func (t *consoleTerm) lastPrinted(typed string) string {
	s := strings.TrimSpace(stripEcho(t.text(t.raw), typed))
	if s == "" {
		return "nothing"
	}
	s = t.redact(s)
	const maxLen = 300
	if r := []rune(s); len(r) > maxLen {
		s = "…" + string(r[len(r)-maxLen:])
	}
	return fmt.Sprintf("%q", s)
}

// stripEcho removes the device's echo of typed from the start of out: the
// characters of typed, in order, then the end of that line. Whitespace is
// not compared, so an echo the device wrapped onto several lines goes too.
// Output that does not start with the echo is returned as it is.
func stripEcho(out, typed string) string {
	want := strings.Join(strings.Fields(typed), "")
	if want == "" {
		return out
	}
	i := 0
	for _, r := range want {
		for i < len(out) && (out[i] == ' ' || out[i] == '\t' || out[i] == '\n') {
			i++
		}
		if !strings.HasPrefix(out[i:], string(r)) {
			return out
		}
		i += len(string(r))
	}
	rest := strings.TrimLeft(out[i:], " \t")
	switch {
	case rest == "":
		return ""
	case rest[0] == '\n':
		return rest[1:]
	}
	return out
}

// firstError returns the first line of out that matches one of patterns.
func firstError(out string, patterns []*regexp.Regexp) (string, bool) {
	for line := range strings.SplitSeq(out, "\n") {
		for _, re := range patterns {
			if re.MatchString(line) {
				return strings.TrimSpace(line), true
			}
		}
	}
	return "", false
}
