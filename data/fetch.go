package data

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/digest"
)

// Source is one downloadable public file.
type Source struct {
	Name        string `json:"name"`             // unique short name, e.g. "drugcomb-summary"
	Group       string `json:"group"`            // "drugcomb", "almanac", "lincs": the cache subdirectory
	URL         string `json:"url"`              // official address
	File        string `json:"file"`             // file name in the cache
	Size        int64  `json:"size,omitempty"`   // expected bytes; 0 when not pinned
	SHA256      string `json:"sha256,omitempty"` // expected SHA-256 (hex); "" when not pinned
	Default     bool   `json:"default"`          // fetched when no source is named
	Description string `json:"description"`
}

//go:embed manifest.json
var manifestJSON []byte

// Manifest returns the built-in list of public sources (data/manifest.json).
// Sizes and checksums are not pinned there: the sources were not reachable
// when it was written, so Fetch checks the size the server announces and
// records the SHA-256 it computes beside each file.
func Manifest() []Source {
	m, err := ReadManifest(bytes.NewReader(manifestJSON))
	if err != nil {
		panic("data: built-in manifest: " + err.Error()) // a build defect, caught by the tests
	}
	return m
}

// ReadManifest reads a manifest: {"sources": [Source...]}.
func ReadManifest(r io.Reader) ([]Source, error) {
	var m struct {
		Sources []Source `json:"sources"`
	}
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("data: manifest: %w", err)
	}
	seen := map[string]bool{}
	for i, s := range m.Sources {
		switch {
		case s.Name == "" || s.URL == "" || s.File == "" || s.Group == "":
			return nil, fmt.Errorf("data: manifest: source %d: name, group, url and file are required", i)
		case seen[s.Name]:
			return nil, fmt.Errorf("data: manifest: source %q listed twice", s.Name)
		case strings.ContainsAny(s.File, `/\`) || s.File == "." || s.File == ".." || strings.ContainsAny(s.Group, `/\`) || s.Group == "." || s.Group == "..":
			return nil, fmt.Errorf("data: manifest: source %q: file and group must be plain names", s.Name)
		case s.Size < 0:
			return nil, fmt.Errorf("data: manifest: source %q: negative size", s.Name)
		case s.SHA256 != "":
			if b, err := hex.DecodeString(s.SHA256); err != nil || len(b) != sha256.Size {
				return nil, fmt.Errorf("data: manifest: source %q: sha256 must be 64 hex digits", s.Name)
			}
		}
		seen[s.Name] = true
	}
	return m.Sources, nil
}

// DefaultCacheDir is where fetched files go by default:
// os.UserCacheDir()/deup.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("data: cache directory: %w", err)
	}
	return filepath.Join(d, "deup"), nil
}

// Fetcher downloads sources into a cache directory. Downloads are
// resumable: bytes go to FILE.part, a later Fetch continues it with an HTTP
// Range request, and the file is renamed into place only once its size
// (and SHA-256, when pinned) check out. FILE.sha256 records the SHA-256 of
// every completed file.
type Fetcher struct {
	Dir    string       // cache directory; files go to Dir/Group/File
	Client *http.Client // nil means http.DefaultClient
	Force  bool         // download again even when a complete file is cached
	// Progress, if set, is called as bytes arrive (total is -1 when the
	// server does not say).
	Progress func(src Source, done, total int64)
}

// Result describes one fetch.
type Result struct {
	Path    string // the cached file
	Bytes   int64  // its size
	SHA256  string // its SHA-256, hex
	Cached  bool   // it was already complete; nothing was downloaded
	Resumed int64  // bytes kept from an earlier partial download
}

// ErrChecksum and ErrSize report a downloaded file that does not match
// the manifest or the server's own announced length.
var (
	ErrChecksum = errors.New("checksum mismatch")
	ErrSize     = errors.New("size mismatch")
)

// Path is where src is cached.
func (f *Fetcher) Path(src Source) string { return filepath.Join(f.Dir, src.Group, src.File) }

// Fetch downloads src unless a complete copy is cached.
func (f *Fetcher) Fetch(ctx context.Context, src Source) (Result, error) {
	dest := f.Path(src)
	res := Result{Path: dest}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return res, fmt.Errorf("data: fetch %s: %w", src.Name, err)
	}
	if !f.Force {
		if fi, err := os.Stat(dest); err == nil && (src.Size == 0 || fi.Size() == src.Size) {
			sum, err := cachedSHA256(dest, src.SHA256 == "")
			if err != nil {
				return res, fmt.Errorf("data: fetch %s: %w", src.Name, err)
			}
			if src.SHA256 == "" || strings.EqualFold(sum, src.SHA256) {
				res.Bytes, res.SHA256, res.Cached = fi.Size(), sum, true
				return res, nil
			}
		}
	}
	part := dest + ".part"
	if f.Force {
		os.Remove(part)
	}
	var off int64
	if fi, err := os.Stat(part); err == nil {
		off = fi.Size()
	}
	total, err := f.download(ctx, src, part, off, &res)
	if err != nil {
		return res, err
	}
	fi, err := os.Stat(part)
	if err != nil {
		return res, fmt.Errorf("data: fetch %s: %w", src.Name, err)
	}
	if total >= 0 && fi.Size() != total {
		return res, fmt.Errorf("data: fetch %s: %w: got %d bytes of %d (the connection ended early; run again to resume)", src.Name, ErrSize, fi.Size(), total)
	}
	if src.Size > 0 && fi.Size() != src.Size {
		os.Remove(part)
		return res, fmt.Errorf("data: fetch %s: %w: %d bytes, the manifest says %d", src.Name, ErrSize, fi.Size(), src.Size)
	}
	sum, err := digest.File(part)
	if err != nil {
		return res, fmt.Errorf("data: fetch %s: %w", src.Name, err)
	}
	if src.SHA256 != "" && !strings.EqualFold(sum, src.SHA256) {
		os.Remove(part)
		return res, fmt.Errorf("data: fetch %s: %w: sha256 %s, the manifest says %s (partial file removed)", src.Name, ErrChecksum, sum, src.SHA256)
	}
	// The .part file is the resumable temporary beside dest: synced, then
	// renamed into place as atomicfile does.
	if err := atomicfile.SyncFile(part); err != nil {
		return res, fmt.Errorf("data: fetch %s: %w", src.Name, err)
	}
	if err := os.Rename(part, dest); err != nil {
		return res, fmt.Errorf("data: fetch %s: %w", src.Name, err)
	}
	if err := atomicfile.WriteFile(dest+".sha256", []byte(sum+"  "+src.File+"\n")); err != nil {
		return res, fmt.Errorf("data: fetch %s: %w", src.Name, err)
	}
	res.Bytes, res.SHA256 = fi.Size(), sum
	return res, nil
}

// download appends the bytes from off onward to part and returns the full
// length of the file (-1 if unknown).
func (f *Fetcher) download(ctx context.Context, src Source, part string, off int64, res *Result) (int64, error) {
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src.URL, nil)
	if err != nil {
		return 0, fmt.Errorf("data: fetch %s: %w", src.Name, err)
	}
	if off > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", off))
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("data: fetch %s: %w", src.Name, err)
	}
	defer resp.Body.Close()
	total := int64(-1)
	flags := os.O_WRONLY | os.O_CREATE
	switch {
	case resp.StatusCode == http.StatusPartialContent && off > 0:
		start, size, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != off {
			return 0, fmt.Errorf("data: fetch %s: %s: bad Content-Range %q for a request from byte %d", src.Name, src.URL, resp.Header.Get("Content-Range"), off)
		}
		total = size
		flags |= os.O_APPEND
		res.Resumed = off
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && off > 0:
		// The partial file may already be complete ("bytes */N" with N == off).
		if _, size, ok := parseContentRange(resp.Header.Get("Content-Range")); ok && size == off {
			res.Resumed = off
			return off, nil
		}
		os.Remove(part)
		return 0, fmt.Errorf("data: fetch %s: %s: the server refused to resume from byte %d (partial file removed; run again)", src.Name, src.URL, off)
	case resp.StatusCode == http.StatusOK:
		// A fresh download, or a server that ignores Range: start over.
		flags |= os.O_TRUNC
		off = 0
		if resp.ContentLength >= 0 {
			total = resp.ContentLength
		}
	default:
		return 0, fmt.Errorf("data: fetch %s: %s: %s", src.Name, src.URL, resp.Status)
	}
	if src.Size > 0 && total >= 0 && total != src.Size {
		return 0, fmt.Errorf("data: fetch %s: %w: the server announces %d bytes, the manifest says %d", src.Name, ErrSize, total, src.Size)
	}
	out, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return 0, fmt.Errorf("data: fetch %s: %w", src.Name, err)
	}
	done := off
	buf := make([]byte, 256<<10)
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			if _, err := out.Write(buf[:n]); err != nil {
				out.Close()
				return 0, fmt.Errorf("data: fetch %s: %w", src.Name, err)
			}
			done += int64(n)
			if f.Progress != nil {
				f.Progress(src, done, total)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			out.Close()
			return 0, fmt.Errorf("data: fetch %s: %w (got %d bytes; run again to resume)", src.Name, rerr, done)
		}
	}
	if err := out.Close(); err != nil {
		return 0, fmt.Errorf("data: fetch %s: %w", src.Name, err)
	}
	return total, nil
}

// parseContentRange parses "bytes START-END/SIZE" or "bytes */SIZE"; size
// is -1 for "*".
func parseContentRange(h string) (start, size int64, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(h), "bytes ")
	if !found {
		return 0, 0, false
	}
	rng, sz, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, false
	}
	size = -1
	if sz != "*" {
		n, err := strconv.ParseInt(sz, 10, 64)
		if err != nil || n < 0 {
			return 0, 0, false
		}
		size = n
	}
	if rng == "*" {
		return 0, size, true
	}
	a, _, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, false
	}
	start, err := strconv.ParseInt(a, 10, 64)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	return start, size, true
}

// cachedSHA256 is the SHA-256 of a cached file: read from its .sha256
// record when trustRecord is set and the record is as new as the file,
// computed otherwise.
func cachedSHA256(path string, trustRecord bool) (string, error) {
	if trustRecord {
		fi, err1 := os.Stat(path)
		ri, err2 := os.Stat(path + ".sha256")
		if err1 == nil && err2 == nil && !ri.ModTime().Before(fi.ModTime()) {
			if b, err := os.ReadFile(path + ".sha256"); err == nil {
				if f := strings.Fields(string(b)); len(f) > 0 && len(f[0]) == 2*sha256.Size {
					return f[0], nil
				}
			}
		}
	}
	return digest.File(path)
}

// Select picks sources by name, or by group (the group's default
// sources); no names means every default source.
func Select(all []Source, names []string) ([]Source, error) {
	if len(names) == 0 {
		var out []Source
		for _, s := range all {
			if s.Default {
				out = append(out, s)
			}
		}
		return out, nil
	}
	var out []Source
	picked := map[string]bool{}
	for _, n := range names {
		found := false
		for _, s := range all {
			if s.Name != n && (s.Group != n || !s.Default) {
				continue
			}
			found = true
			if !picked[s.Name] {
				out = append(out, s)
				picked[s.Name] = true
			}
		}
		if !found {
			return nil, fmt.Errorf("data: no source or group named %q", n)
		}
	}
	return out, nil
}
