package command

import (
	"errors"
	"syscall"
	"unsafe"
)

// waitExited blocks until process pid has exited, without reaping it
// (waitid with WNOWAIT), so that its pid, and the process group id it
// leads, stay reserved until exec.Cmd.Wait reaps it. It reports false if it
// could not tell.
func waitExited(pid int) bool {
	const pPID = 1 // P_PID
	var siginfo [16]uint64
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&siginfo[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno == 0 {
			return true
		}
		if !errors.Is(errno, syscall.EINTR) {
			return false
		}
	}
}
