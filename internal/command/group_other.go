//go:build !unix

package command

import (
	"os"
	"os/exec"
)

func newProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the shell only: there are no process groups here.
func killProcessGroup(p *os.Process, _ int) { _ = p.Kill() }

func exitStatus(st *os.ProcessState) int { return st.ExitCode() }
