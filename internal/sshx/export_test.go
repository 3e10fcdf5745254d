package sshx

import "testing"

// SetStdoutBufferLimit lowers the output limit for one test of the
// external test package.
func SetStdoutBufferLimit(t testing.TB, n int) {
	old := stdoutBufferLimit
	stdoutBufferLimit = n
	t.Cleanup(func() { stdoutBufferLimit = old })
}
