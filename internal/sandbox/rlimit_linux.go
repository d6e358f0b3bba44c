package sandbox

import "syscall"

// Supported reports whether Run and Apply can cap a process's memory here.
const Supported = true

func setAddressLimit(n uint64) error {
	return syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: n, Max: n})
}
