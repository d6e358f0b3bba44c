//go:build !linux

package sandbox

import "errors"

// Supported reports whether Run and Apply can cap a process's memory here.
const Supported = false

func setAddressLimit(uint64) error {
	return errors.New("not supported on this platform")
}
