//go:build !linux

package command

// waitExited cannot wait without reaping here: the group stays killable
// until exec.Cmd.Wait has reaped the shell (a tiny window in which its pid
// could in theory be reused).
func waitExited(int) bool { return false }
