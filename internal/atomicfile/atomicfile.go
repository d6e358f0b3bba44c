// Package atomicfile writes an output file under a temporary name in the
// directory of its final path and renames it into place only when it is
// complete and synced. A run killed at any moment (SIGKILL, the OOM killer, a
// cluster's time limit) leaves the previous file or none under the final
// name, never a part of one; at most a hidden ".NAME.*.tmp" file stays beside
// it.
//
// It is the one atomic writer of the project: every command's outputs, the
// screen store and the reports go through it.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Perm is the mode of every file this package writes: outputs hold no
// secrets, and os.CreateTemp alone would make them 0600.
const Perm = 0o644

// File is an output being written. Write to it, then Commit to put it in
// place, or Abort to drop it. Abort after Commit does nothing, so
// `defer f.Abort()` is the usual pattern.
type File struct {
	*os.File
	final string
	done  bool
}

// TempPattern is the os.CreateTemp pattern of the temporary file beside path.
func TempPattern(path string) string { return "." + filepath.Base(path) + ".*.tmp" }

// Create opens a temporary file beside path.
func Create(path string) (*File, error) {
	f, err := os.CreateTemp(filepath.Dir(path), TempPattern(path))
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if err := f.Chmod(Perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return &File{File: f, final: path}, nil
}

// Path is the final path the file is renamed to on Commit.
func (f *File) Path() string { return f.final }

// Commit syncs the file, closes it and renames it to its final path, then
// syncs the directory so that the rename survives a crash of the machine.
// On error the temporary file is removed and the final path is untouched.
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: commit of a file already committed or aborted")
	}
	f.done = true
	tmp := f.File.Name()
	err := f.File.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, f.final)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", f.final, err)
	}
	syncDir(filepath.Dir(f.final))
	return nil
}

// Abort closes and removes the temporary file; the final path is untouched.
// It does nothing after Commit or a previous Abort.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.File.Name())
}

// Write creates path atomically with what write writes to a buffered writer.
// If write fails, nothing is put in place and its error is returned.
func Write(path string, write func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// WriteFile is os.WriteFile made atomic.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// syncDir makes a rename durable. Some file systems refuse to sync a
// directory; the rename itself has happened, so that is not an error.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
