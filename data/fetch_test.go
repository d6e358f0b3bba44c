package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/deup-screening/deup/drugcomb"
)

// testServer serves files over loopback with Range support
// (http.ServeContent), recording the Range header of each request. Paths
// under /norange/ ignore Range; /short/ announces more bytes than it sends;
// /missing/ is 404.
type testServer struct {
	*httptest.Server
	mu     sync.Mutex
	ranges []string
	files  map[string][]byte
}

func newTestServer(t *testing.T, files map[string][]byte) *testServer {
	ts := &testServer{files: files}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.mu.Lock()
		ts.ranges = append(ts.ranges, r.Header.Get("Range"))
		ts.mu.Unlock()
		name := filepath.Base(r.URL.Path)
		b, ok := ts.files[name]
		switch {
		case !ok || strings.HasPrefix(r.URL.Path, "/missing/"):
			http.NotFound(w, r)
		case strings.HasPrefix(r.URL.Path, "/norange/"):
			w.Write(b)
		case strings.HasPrefix(r.URL.Path, "/short/"):
			// Announce the whole file, send half, then drop the connection.
			w.Header().Set("Content-Length", itoa(len(b)))
			w.WriteHeader(http.StatusOK)
			w.Write(b[:len(b)/2])
			w.(http.Flusher).Flush()
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
				}
			}
		default:
			http.ServeContent(w, r, name, time.Unix(0, 0), bytes.NewReader(b))
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

func itoa(n int) string { return strconv.Itoa(n) }

func (ts *testServer) lastRange() string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.ranges[len(ts.ranges)-1]
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// testFiles are small files in the real formats: a DrugComb summary table
// (drugcomb/testdata/drugcomb_summary_small.csv: the column layout of
// summary_v_1_5.csv, made-up values) and a gzip-compressed LINCS-style pert_info table.
func testFiles(t *testing.T) map[string][]byte {
	summary, err := os.ReadFile("../drugcomb/testdata/drugcomb_summary_small.csv")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("pert_id\tpert_iname\tpubchem_cid\tcanonical_smiles\nBRD-K81418486\tvorinostat\t5311\tONC(=O)CCCCCCC(=O)Nc1ccccc1\n"))
	zw.Close()
	return map[string][]byte{"summary_v_1_5.csv": summary, "pert_info.txt.gz": gz.Bytes()}
}

func TestFetch(t *testing.T) {
	files := testFiles(t)
	ts := newTestServer(t, files)
	ctx := context.Background()
	summary := files["summary_v_1_5.csv"]

	t.Run("fresh, checksum and size pinned", func(t *testing.T) {
		f := &Fetcher{Dir: t.TempDir(), Client: ts.Client()}
		var last int64
		f.Progress = func(_ Source, done, total int64) { last = done }
		src := Source{Name: "s", Group: "drugcomb", URL: ts.URL + "/f/summary_v_1_5.csv", File: "summary_v_1_5.csv", Size: int64(len(summary)), SHA256: sum(summary)}
		res, err := f.Fetch(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(res.Path)
		if !bytes.Equal(got, summary) || res.SHA256 != sum(summary) || last != int64(len(summary)) {
			t.Fatalf("content or sum wrong (progress %d of %d)", last, len(summary))
		}
		// The fetched file is a DrugComb table the importer reads.
		s, rep, err := drugcomb.ImportDrugComb(res.Path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Pairs) != 3 || rep.RowsRead != 8 {
			t.Errorf("imported %d pairs from %d rows, want 3 from 8", len(s.Pairs), rep.RowsRead)
		}
		// A second fetch finds it cached and downloads nothing.
		n := len(ts.ranges)
		res, err = f.Fetch(ctx, src)
		if err != nil || !res.Cached || len(ts.ranges) != n {
			t.Fatalf("second fetch: cached=%v err=%v requests %d -> %d", res.Cached, err, n, len(ts.ranges))
		}
	})

	t.Run("resume with Range", func(t *testing.T) {
		dir := t.TempDir()
		f := &Fetcher{Dir: dir, Client: ts.Client()}
		src := Source{Name: "p", Group: "lincs", URL: ts.URL + "/f/pert_info.txt.gz", File: "pert_info.txt.gz", SHA256: sum(files["pert_info.txt.gz"])}
		b := files["pert_info.txt.gz"]
		os.MkdirAll(filepath.Join(dir, "lincs"), 0o755)
		os.WriteFile(f.Path(src)+".part", b[:20], 0o644)
		res, err := f.Fetch(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		if got := ts.lastRange(); got != "bytes=20-" || res.Resumed != 20 {
			t.Errorf("Range %q, resumed %d; want bytes=20- and 20", got, res.Resumed)
		}
		got, _ := os.ReadFile(res.Path)
		if !bytes.Equal(got, b) {
			t.Fatal("resumed file differs")
		}
		if _, err := os.Stat(f.Path(src) + ".part"); !os.IsNotExist(err) {
			t.Error("partial file left behind")
		}
	})

	t.Run("server ignores Range", func(t *testing.T) {
		dir := t.TempDir()
		f := &Fetcher{Dir: dir, Client: ts.Client()}
		src := Source{Name: "s", Group: "g", URL: ts.URL + "/norange/summary_v_1_5.csv", File: "x.csv"}
		os.MkdirAll(filepath.Join(dir, "g"), 0o755)
		os.WriteFile(f.Path(src)+".part", []byte("garbage that must go"), 0o644)
		res, err := f.Fetch(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(res.Path)
		if !bytes.Equal(got, summary) || res.Resumed != 0 {
			t.Fatal("a 200 reply to a Range request must restart the file")
		}
	})

	t.Run("connection drops, then resumes", func(t *testing.T) {
		dir := t.TempDir()
		f := &Fetcher{Dir: dir, Client: ts.Client()}
		src := Source{Name: "s", Group: "g", URL: ts.URL + "/short/summary_v_1_5.csv", File: "x.csv", SHA256: sum(summary)}
		if _, err := f.Fetch(ctx, src); err == nil {
			t.Fatal("a truncated transfer was accepted")
		}
		if _, err := os.Stat(f.Path(src)); !os.IsNotExist(err) {
			t.Fatal("a truncated file was moved into place")
		}
		fi, err := os.Stat(f.Path(src) + ".part")
		if err != nil || fi.Size() == 0 {
			t.Fatalf("no partial file kept to resume: %v", err)
		}
		src.URL = ts.URL + "/f/summary_v_1_5.csv"
		res, err := f.Fetch(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		if res.Resumed != fi.Size() {
			t.Errorf("resumed %d bytes, want %d", res.Resumed, fi.Size())
		}
	})

	t.Run("checksum mismatch", func(t *testing.T) {
		f := &Fetcher{Dir: t.TempDir(), Client: ts.Client()}
		src := Source{Name: "s", Group: "g", URL: ts.URL + "/f/summary_v_1_5.csv", File: "x.csv", SHA256: strings.Repeat("0", 64)}
		_, err := f.Fetch(ctx, src)
		if !errors.Is(err, ErrChecksum) {
			t.Fatalf("err = %v, want ErrChecksum", err)
		}
		if _, err := os.Stat(f.Path(src)); !os.IsNotExist(err) {
			t.Error("a file with a wrong checksum was moved into place")
		}
	})

	t.Run("size mismatch", func(t *testing.T) {
		f := &Fetcher{Dir: t.TempDir(), Client: ts.Client()}
		src := Source{Name: "s", Group: "g", URL: ts.URL + "/f/summary_v_1_5.csv", File: "x.csv", Size: 3}
		if _, err := f.Fetch(ctx, src); !errors.Is(err, ErrSize) {
			t.Fatalf("err = %v, want ErrSize", err)
		}
	})

	t.Run("not found", func(t *testing.T) {
		f := &Fetcher{Dir: t.TempDir(), Client: ts.Client()}
		src := Source{Name: "s", Group: "g", URL: ts.URL + "/missing/summary_v_1_5.csv", File: "x.csv"}
		_, err := f.Fetch(ctx, src)
		if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), "/missing/") {
			t.Fatalf("err = %v, want a 404 naming the URL", err)
		}
	})
}

func TestManifest(t *testing.T) {
	m := Manifest()
	groups := map[string]bool{}
	for _, s := range m {
		groups[s.Group] = true
		if !strings.HasPrefix(s.URL, "https://") {
			t.Errorf("%s: %s is not https", s.Name, s.URL)
		}
	}
	for _, g := range []string{"drugcomb", "almanac", "lincs"} {
		if !groups[g] {
			t.Errorf("no %s source", g)
		}
	}
	def, _ := Select(m, nil)
	lincs, _ := Select(m, []string{"lincs"})
	big, _ := Select(m, []string{"lincs-level5"})
	if len(big) != 1 || big[0].Default {
		t.Errorf("lincs-level5 must be selectable by name and not a default")
	}
	for _, s := range append(def, lincs...) {
		if s.Name == "lincs-level5" {
			t.Error("the multi-GB level-5 file is fetched without being named")
		}
	}
	if _, err := Select(m, []string{"nope"}); err == nil {
		t.Error("unknown name accepted")
	}
	for _, bad := range []string{
		`{"sources":[{"name":"a","group":"g","url":"u","file":"../x"}]}`,
		`{"sources":[{"name":"a","group":"g","url":"u","file":"x","sha256":"12"}]}`,
		`{"sources":[{"name":"a","group":"g","url":"u","file":"x"},{"name":"a","group":"g","url":"u","file":"y"}]}`,
		`{"sources":[{"name":"a","group":"g","url":"u","file":"x","extra":1}]}`,
	} {
		if _, err := ReadManifest(strings.NewReader(bad)); err == nil {
			t.Errorf("manifest accepted: %s", bad)
		}
	}
}
