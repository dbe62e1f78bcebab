package mcpfake

import "syscall"

// setParentDeathSignal has the kernel send SIGKILL to this process when
// the thread that started it ends (prctl PR_SET_PDEATHSIG).
func setParentDeathSignal() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0)
}
