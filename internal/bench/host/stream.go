package host

import (
	"bytes"
	"io"
	"sync"
)

// streamBuffer is a pipe whose writer never blocks: what the reader has not
// consumed yet is kept in memory (up to limit bytes, then the rest is
// dropped and the reader eventually gets ErrStdoutOverflow). Reads block
// until there is data or the writer side is closed. (A twin of the one in
// internal/sshx, which keeps it unexported.)
type streamBuffer struct {
	mu       sync.Mutex
	cond     sync.Cond
	buf      bytes.Buffer
	limit    int
	closed   bool
	overflow bool
}

func newStreamBuffer(limit int) *streamBuffer {
	b := &streamBuffer{limit: limit}
	b.cond.L = &b.mu
	return b
}

// Write keeps p for the reader. It never fails: after closeWrite or an
// overflow, data is silently discarded so the producer keeps draining.
func (b *streamBuffer) Write(p []byte) (int, error) {
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

func (b *streamBuffer) Read(p []byte) (int, error) {
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
		return 0, ErrStdoutOverflow
	}
	return 0, io.EOF
}

// closeWrite ends the stream: the reader gets io.EOF after the kept data.
func (b *streamBuffer) closeWrite() {
	b.mu.Lock()
	b.closed = true
	b.cond.Broadcast()
	b.mu.Unlock()
}

// lockedBuffer collects output that may be read (after a kill) while a copy
// goroutine still writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
