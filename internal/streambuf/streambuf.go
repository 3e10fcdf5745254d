// Package streambuf holds the buffers that carry a running command's
// output: a Pipe whose writer never blocks, so a remote or local command is
// never stalled by a slow reader, and a Locked buffer for output read while
// it is still being written.
package streambuf

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

// ErrOverflow is returned by a Pipe's reader, after the kept output, when
// more than its limit was left unread and the rest was dropped.
var ErrOverflow = errors.New("stdout not read fast enough: unread output exceeded the buffer limit, the rest was discarded")

// Pipe is a pipe whose writer never blocks: what the reader has not
// consumed yet is kept in memory (up to limit bytes, then the rest is
// dropped and the reader eventually gets ErrOverflow). Reads block
// until there is data or the writer side is closed. (Used for a started
// command's stdout, over SSH and locally.)
type Pipe struct {
	mu       sync.Mutex
	cond     sync.Cond
	buf      bytes.Buffer
	limit    int
	closed   bool
	overflow bool
}

// NewPipe returns a Pipe that keeps at most limit unread bytes.
func NewPipe(limit int) *Pipe {
	b := &Pipe{limit: limit}
	b.cond.L = &b.mu
	return b
}

// Write keeps p for the reader. It never fails: after CloseWrite or an
// overflow, data is silently discarded so the producer keeps draining.
func (b *Pipe) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed || b.overflow {
		return len(p), nil
	}
	if room := b.limit - b.buf.Len(); len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		b.overflow = true
	} else {
		b.buf.Write(p)
	}
	b.cond.Broadcast()
	return len(p), nil
}

// Read blocks until there is data, the writer closed, or an overflow.
func (b *Pipe) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.buf.Len() == 0 && !b.closed && !b.overflow {
		b.cond.Wait()
	}
	if b.buf.Len() > 0 {
		return b.buf.Read(p)
	}
	if b.overflow {
		return 0, ErrOverflow
	}
	return 0, io.EOF
}

// CloseWrite ends the stream: the reader gets io.EOF after the kept data.
func (b *Pipe) CloseWrite() {
	b.mu.Lock()
	b.closed = true
	b.cond.Broadcast()
	b.mu.Unlock()
}

// Locked is a bytes.Buffer safe for one writer and concurrent readers: it
// collects output that may be read (after a kill) while a copy
// goroutine still writes.
type Locked struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (b *Locked) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns everything written so far.
func (b *Locked) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
