package command

import (
	"context"
	"time"
)

type timeoutKey struct{}

// WithTimeout returns ctx carrying d as the timeout of the commands run
// with it, in place of the transport's own (sshx's command_timeout): for
// a command a driver knows to take longer than most, such as an EdgeOS
// commit, which a 60 s timeout would kill halfway (its process group is
// sent SIGKILL, so no clean-up of the command's own runs). ctx's deadline
// still applies. d <= 0 leaves the transport's timeout.
func WithTimeout(ctx context.Context, d time.Duration) context.Context {
	if d <= 0 {
		return ctx
	}
	return context.WithValue(ctx, timeoutKey{}, d)
}

// TimeoutOf is the timeout WithTimeout put in ctx, ok false for none.
func TimeoutOf(ctx context.Context) (d time.Duration, ok bool) {
	d, ok = ctx.Value(timeoutKey{}).(time.Duration)
	return d, ok
}
