//go:build unix

package ledger

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

const lockName = "LOCK"

// lockDir takes the ledger's lock: an flock(2) on DIR/LOCK, created if
// missing. unlockDir removes the file before it lets go of the lock, so a
// process that opened the file just before the removal may hold a lock on
// a name that no longer exists: the lock counts only when DIR/LOCK is still
// the file locked (same inode), else it tries again on the new file.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, lockName)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("ledger: %w", err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%w: %s", ErrLocked, dir)
			}
			return nil, fmt.Errorf("ledger: lock %s: %w", dir, err)
		}
		held, err1 := f.Stat()
		named, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			return f, nil
		}
		f.Close() // the holder removed it in between: lock the new one
		if err1 != nil {
			return nil, fmt.Errorf("ledger: lock %s: %w", dir, err1)
		}
		if err2 != nil && !errors.Is(err2, os.ErrNotExist) {
			return nil, fmt.Errorf("ledger: lock %s: %w", dir, err2)
		}
	}
}

// unlockDir removes DIR/LOCK, then releases the lock: a closed ledger
// leaves no lock file. (A process killed with SIGKILL leaves the file, and
// the kernel releases its lock: the next Open takes it.)
func unlockDir(f *os.File) error {
	err := os.Remove(f.Name())
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("ledger: unlock: %w", err)
	}
	return nil
}

func killSelf() {
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // the signal is delivered asynchronously
}
