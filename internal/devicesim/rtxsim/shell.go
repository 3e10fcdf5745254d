package rtxsim

import (
	"bufio"
	"io"
	"strings"
)

// Shell implements devicesim.ShellHandler: one console session on a PTY.
// The device echoes each typed line (not a password) followed by "\r\n",
// ends its output lines with "\r\n", wraps lines at the console width,
// pages show output (`console lines`, 24 by default) with its "more"
// prompt and sends Japanese text as Shift_JIS unless `console character`
// says otherwise. `exit` at the "> " prompt ends the session (status 0).
func (s *Sim) Shell(in io.Reader, out io.Writer) int {
	c := s.newConsole()
	defer c.hangUp()
	t := &term{r: bufio.NewReader(in)}
	w := &screen{out: out, c: c, t: t}
	w.lines(s.banner(), false)
	for !c.closed {
		prompt := c.prompt()
		w.text(prompt)
		if c.wait == waitConfirm {
			b, err := t.key()
			if err != nil {
				return 0
			}
			// A client that answers with a line ("N\r") has its line
			// end taken as part of the answer.
			t.skipEnd = true
			w.lines(c.key(b), false)
			continue
		}
		text, err := t.line()
		if err != nil {
			return 0
		}
		if c.wait == waitPassword {
			w.text("\r\n")
		} else {
			s.record(text)
			w.echo(prompt, text)
		}
		w.lines(c.line(text), c.pageable)
	}
	return 0
}

func (s *Sim) record(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.typed = append(s.typed, text)
}

// term reads what the client types: lines end at "\r" (Enter), "\n" or
// "\r\n"; keys (the save question, the pager) are single bytes.
type term struct {
	r       *bufio.Reader
	skipLF  bool // the last line ended in "\r": a "\n" next belongs to it
	skipEnd bool // a line end next answers the last key and is dropped
}

func (t *term) next() (byte, error) {
	for {
		b, err := t.r.ReadByte()
		if err != nil {
			return 0, err
		}
		skipLF, skipEnd := t.skipLF, t.skipEnd
		t.skipLF, t.skipEnd = false, false
		if skipLF && b == '\n' {
			continue
		}
		if skipEnd && (b == '\r' || b == '\n') {
			t.skipLF = b == '\r'
			continue
		}
		return b, nil
	}
}

func (t *term) line() (string, error) {
	var line []byte
	for {
		b, err := t.next()
		if err != nil {
			return string(line), err
		}
		if b == '\r' || b == '\n' {
			t.skipLF = b == '\r'
			return string(line), nil
		}
		line = append(line, b)
	}
}

func (t *term) key() (byte, error) {
	b, err := t.next()
	if b == '\r' {
		t.skipLF = true
	}
	return b, err
}

// screen writes to the PTY as the console does.
type screen struct {
	out io.Writer
	c   *console
	t   *term
}

// text writes s as it is (a prompt, a line end), in the console's charset.
func (w *screen) text(s string) { _, _ = w.out.Write(w.c.cs.encode(s)) }

// echo writes the typed line after prompt, wrapped as the console wraps
// it, and the line end.
func (w *screen) echo(prompt, typed string) {
	rows := wrap(typed, displayWidth(prompt), w.c.columns)
	w.text(strings.Join(rows, "\r\n") + "\r\n")
}

// lines writes output ("\n"-separated lines), wrapped at the console
// width; show output stops for the pager every `console lines`-1 rows.
func (w *screen) lines(output string, pageable bool) {
	if output == "" {
		return
	}
	var rows []string
	for _, l := range strings.Split(strings.TrimSuffix(output, "\n"), "\n") {
		rows = append(rows, wrap(l, 0, w.c.columns)...)
	}
	page := w.c.lines - 1
	left := page
	for i, row := range rows {
		if pageable && w.c.lines > 0 && left == 0 && i < len(rows) {
			more := w.c.cs.text(msgMore)
			w.text(more)
			b, err := w.t.key()
			// The prompt is wiped before the next row.
			w.text("\r" + strings.Repeat(" ", displayWidth(more)) + "\r")
			switch {
			case err != nil || b == 'q' || b == 'Q':
				return
			case b == '\r' || b == '\n':
				left = 1
			default:
				left = page
			}
		}
		w.text(row + "\r\n")
		left--
	}
}
