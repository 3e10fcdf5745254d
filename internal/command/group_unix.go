//go:build unix

package command

import (
	"os"
	"os/exec"
	"syscall"
)

// newProcessGroup makes the command the leader of a new process group whose
// id is its pid.
func newProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup sends SIGKILL to every process of group pgid.
func killProcessGroup(_ *os.Process, pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// exitStatus is the exit code, or 128+N for a process killed by signal N
// (what a shell reports, and what OpenSSH reports over SSH).
func exitStatus(st *os.ProcessState) int {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return st.ExitCode()
}
