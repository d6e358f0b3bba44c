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

func unlockDir(f *os.File) error { return f.Close() }

func killSelf() { os.Exit(137) }
