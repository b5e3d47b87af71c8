//go:build !linux

package devdb

import "syscall"

// sysProcAttr puts the server in its own process group, so that Stop can
// signal all of its processes. Only Linux has a parent-death signal: elsewhere
// a server whose starter is killed outright keeps running until the next
// Start sweeps its directory.
func sysProcAttr(a *syscall.SysProcAttr, _ syscall.Signal) *syscall.SysProcAttr {
	if a == nil {
		a = &syscall.SysProcAttr{}
	}
	a.Setpgid = true
	return a
}
