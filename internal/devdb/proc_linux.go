package devdb

import "syscall"

// sysProcAttr puts the server in its own process group, so that Stop can
// signal all of its processes and a Ctrl-C at the terminal does not kill it
// before devdb has stopped it cleanly, and has the kernel send it deathSig if
// the process that started it dies first (a test binary killed by a signal or
// a timeout). The signal is tied to the thread that forked; Go does not end
// its threads while they are in use, so in practice that is the process.
func sysProcAttr(a *syscall.SysProcAttr, deathSig syscall.Signal) *syscall.SysProcAttr {
	if a == nil {
		a = &syscall.SysProcAttr{}
	}
	a.Setpgid = true
	a.Pdeathsig = deathSig
	return a
}
