package drugcomb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// OpenDir opens the screen directory dir as Open does, with errors that
// say what to do when dir is not one: it does not exist, it holds no
// MetaFile, it is a file, or its screen cannot be read (import it again).
// The errors name deup data import, which writes screen directories.
func OpenDir(dir string) (*Screen, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("screen directory %s does not exist: create it with deup data import --out %s (or leave out --screen for the synthetic default)", dir, dir)
	case err == nil && !fi.IsDir():
		return nil, fmt.Errorf("%s is a file, not a screen directory: give the directory deup data import --out wrote (the one holding %s)", dir, MetaFile)
	}
	if _, err := os.Stat(filepath.Join(dir, MetaFile)); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s is not a screen directory (no %s): screen directories are written by deup data import --out DIR", dir, MetaFile)
	}
	sc, err := Open(dir)
	if err != nil {
		return nil, fmt.Errorf("%w (the screen in %s cannot be read: import it again with deup data import --out %s)", err, dir, dir)
	}
	return sc, nil
}
