package drugcomb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DirProblem is what keeps a directory from being a readable screen.
type DirProblem uint8

const (
	// DirMissing: the directory does not exist.
	DirMissing DirProblem = iota + 1
	// DirIsFile: the path is a file.
	DirIsFile
	// DirNoMeta: a directory without MetaFile.
	DirNoMeta
	// DirUnreadable: a screen directory whose screen cannot be read
	// (DirError.Err says why).
	DirUnreadable
)

// DirError is a path that OpenDir cannot open as a screen directory. It
// says what is wrong; what to run about it is the command layer's to add.
type DirError struct {
	Dir     string
	Problem DirProblem
	Err     error // for DirUnreadable: Open's error
}

func (e *DirError) Error() string {
	switch e.Problem {
	case DirMissing:
		return fmt.Sprintf("screen directory %s does not exist", e.Dir)
	case DirIsFile:
		return fmt.Sprintf("%s is a file, not a screen directory", e.Dir)
	case DirNoMeta:
		return fmt.Sprintf("%s is not a screen directory (no %s)", e.Dir, MetaFile)
	}
	return fmt.Sprintf("%v (the screen in %s cannot be read)", e.Err, e.Dir)
}

func (e *DirError) Unwrap() error { return e.Err }

// OpenDir opens the screen directory dir as Open does, with a *DirError
// when dir is not one: it does not exist, it is a file, it holds no
// MetaFile, or its screen cannot be read.
func OpenDir(dir string) (*Screen, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &DirError{Dir: dir, Problem: DirMissing}
	case err == nil && !fi.IsDir():
		return nil, &DirError{Dir: dir, Problem: DirIsFile}
	}
	if _, err := os.Stat(filepath.Join(dir, MetaFile)); errors.Is(err, fs.ErrNotExist) {
		return nil, &DirError{Dir: dir, Problem: DirNoMeta}
	}
	sc, err := Open(dir)
	if err != nil {
		return nil, &DirError{Dir: dir, Problem: DirUnreadable, Err: err}
	}
	return sc, nil
}
