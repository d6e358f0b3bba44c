// Package atomicfile writes an output file under a temporary name in the
// directory of its final path and renames it into place only when it is
// complete and synced. A run killed at any moment (SIGKILL, the OOM killer, a
// cluster's time limit) leaves the previous file or none under the final
// name, never a part of one; at most a hidden ".NAME.*.tmp" file (or
// directory) stays beside it.
//
// File writes one file; Dir fills a new directory (the screen store) and
// renames the whole directory into place.
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
	"strings"
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

// WriteNamed is Write with every error naming path: an error of write
// that does not name it already gets "write PATH: " in front (the
// commands' reports, tables and figures).
func WriteNamed(path string, write func(w io.Writer) error) error {
	if err := Write(path, write); err != nil {
		if strings.Contains(err.Error(), path) {
			return err
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
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
func syncDir(dir string) { SyncDir(dir) }

// SyncDir syncs the directory dir (making the renames and links in it
// durable) and returns the first error of opening, syncing and closing
// it, for a caller that must know (the campaign ledger).
func SyncDir(dir string) error { return syncPath(dir, os.O_RDONLY) }

// SyncFile syncs the file at path, opened for writing (some systems sync
// only a file opened so), and returns the first error of opening, syncing
// and closing it: for a file written in place of a temporary that
// atomicfile does not manage (a resumable download).
func SyncFile(path string) error { return syncPath(path, os.O_WRONLY) }

func syncPath(path string, flag int) error {
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Dir is a new directory being filled under a temporary name beside its
// final path (see CreateDir).
type Dir struct {
	tmp, final string
	done       bool
}

// CreateDir starts the directory path, which must not exist, as a
// temporary directory beside it. Its files are written with WriteFile;
// Commit renames it into place, so that a killed run leaves no directory
// or a complete one under path. Abort (a no-op after Commit) removes it.
func CreateDir(path string) (*Dir, error) {
	parent := filepath.Dir(filepath.Clean(path))
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes 0700
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return &Dir{tmp: tmp, final: path}, nil
}

// WriteFile writes a file named name into the directory and syncs it.
func (d *Dir) WriteFile(name string, data []byte) error {
	f, err := os.OpenFile(filepath.Join(d.tmp, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, Perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(d.final, name), err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(d.final, name), err)
	}
	return nil
}

// Commit syncs the directory and renames it to its final path, then syncs
// the parent. On error the temporary directory is removed.
func (d *Dir) Commit() error {
	if d.done {
		return errors.New("atomicfile: commit of a directory already committed or aborted")
	}
	d.done = true
	syncDir(d.tmp)
	if err := os.Rename(d.tmp, d.final); err != nil {
		os.RemoveAll(d.tmp)
		return fmt.Errorf("write %s: %w", d.final, err)
	}
	syncDir(filepath.Dir(filepath.Clean(d.final)))
	return nil
}

// Abort removes the temporary directory; it does nothing after Commit.
func (d *Dir) Abort() {
	if d.done {
		return
	}
	d.done = true
	os.RemoveAll(d.tmp)
}
