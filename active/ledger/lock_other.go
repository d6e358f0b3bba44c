//go:build !unix

package ledger

import (
	"fmt"
	"os"
	"path/filepath"
)

const lockName = "LOCK"

// lockDir on systems without flock only creates the lock file: two
// processes must not open the same ledger there.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	return f, nil
}

// unlockDir closes and removes the lock file: a closed ledger leaves none.
func unlockDir(f *os.File) error {
	err := f.Close()
	if rerr := os.Remove(f.Name()); err == nil {
		err = rerr
	}
	return err
}

func killSelf() { os.Exit(137) }
