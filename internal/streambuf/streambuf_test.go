package streambuf

import (
	"fmt"
	"io"
	"testing"
)

// A Pipe keeps what the reader has not taken up to its limit, then
// reports the overflow after the kept bytes; writes never block or fail.
func TestPipe(t *testing.T) {
	b := NewPipe(10)
	got := make(chan string, 1)
	go func() {
		out, err := io.ReadAll(b)
		got <- fmt.Sprintf("%s|%v", out, err)
	}()
	b.Write([]byte("hello "))
	b.Write([]byte("world!"))  // overflows: 4 bytes kept
	b.Write([]byte("dropped")) // discarded
	b.CloseWrite()
	if s := <-got; s != "hello worl|"+ErrOverflow.Error() {
		t.Fatalf("got %q", s)
	}

	b = NewPipe(100)
	if n, err := b.Read(nil); n != 0 || err != nil {
		t.Fatalf("empty read = %d, %v", n, err)
	}
	b.Write([]byte("abc"))
	b.CloseWrite()
	if n, _ := b.Write([]byte("late")); n != 4 {
		t.Fatalf("write after close = %d", n)
	}
	if out, err := io.ReadAll(b); string(out) != "abc" || err != nil {
		t.Fatalf("got %q, %v", out, err)
	}
}
