package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/deup-screening/deup/data"
)

// TestDataFetch downloads from a loopback test server (never the internet)
// through a --manifest, then finds the files cached, then resumes a partial
// download, and imports the fetched DrugComb table.
func TestDataFetch(t *testing.T) {
	summary, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "drugcomb", "testdata", "drugcomb_summary_small.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("pert_id\tpert_iname\tpubchem_cid\nBRD-K81418486\tvorinostat\t5311\n"))
	zw.Close()
	files := map[string][]byte{"summary_v_1_5.csv": summary, "pert_info.txt.gz": gz.Bytes()}
	var (
		mu     sync.Mutex
		ranges []string
	)
	lastRange := func() string {
		mu.Lock()
		defer mu.Unlock()
		return ranges[len(ranges)-1]
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ranges = append(ranges, r.Header.Get("Range"))
		mu.Unlock()
		b, ok := files[filepath.Base(r.URL.Path)]
		if !ok {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, r.URL.Path, time.Unix(0, 0), bytes.NewReader(b))
	}))
	defer ts.Close()
	m := map[string][]data.Source{"sources": {
		{Name: "drugcomb-summary", Group: "drugcomb", URL: ts.URL + "/summary_v_1_5.csv", File: "summary_v_1_5.csv", Default: true, Size: int64(len(summary)), Description: "test"},
		{Name: "lincs-pert-info", Group: "lincs", URL: ts.URL + "/pert_info.txt.gz", File: "pert_info.txt.gz", Default: true, Description: "test"},
		{Name: "absent", Group: "lincs", URL: ts.URL + "/nothing", File: "nothing", Description: "test"},
	}}
	mb, _ := json.Marshal(m)
	tmp := t.TempDir()
	mf := filepath.Join(tmp, "manifest.json")
	os.WriteFile(mf, mb, 0o644)
	cache := filepath.Join(tmp, "cache")

	out, errOut, code := dataRun(t, "data", "fetch", "--manifest", mf, "--cache", cache)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Count(out, "\tdownloaded\n") != 2 || !strings.Contains(errOut, "drugcomb-summary [") {
		t.Errorf("first fetch:\n%s\n%s", out, errOut)
	}
	out, _, code = dataRun(t, "data", "fetch", "--manifest", mf, "--cache", cache)
	if code != 0 || strings.Count(out, "\tcached\n") != 2 {
		t.Errorf("second fetch:\n%s", out)
	}
	// A partial download resumes.
	p := filepath.Join(cache, "lincs", "pert_info.txt.gz")
	os.Remove(p)
	os.WriteFile(p+".part", gz.Bytes()[:10], 0o644)
	out, errOut, code = dataRun(t, "data", "fetch", "--manifest", mf, "--cache", cache, "lincs-pert-info")
	if code != 0 || !strings.Contains(out, "resumed from byte 10") || lastRange() != "bytes=10-" {
		t.Errorf("resume: exit %d\n%s%s (last Range %q)", code, out, errOut, lastRange())
	}
	got, _ := os.ReadFile(p)
	if !bytes.Equal(got, gz.Bytes()) {
		t.Error("resumed file differs")
	}
	// A failing source: exit 1, the others still fetched.
	_, errOut, code = dataRun(t, "data", "fetch", "--manifest", mf, "--cache", cache, "absent", "drugcomb")
	if code != 1 || !strings.Contains(errOut, "404") {
		t.Errorf("404: exit %d: %s", code, errOut)
	}
	// The fetched table imports.
	if _, errOut, code := dataRun(t, "data", "import", "--format", "drugcomb", filepath.Join(cache, "drugcomb", "summary_v_1_5.csv"), "--out", filepath.Join(tmp, "screen")); code != 0 {
		t.Errorf("import of the fetched table: exit %d: %s", code, errOut)
	}
	// Unknown source name: usage error.
	if _, _, code := dataRun(t, "data", "fetch", "--manifest", mf, "--cache", cache, "nope"); code != 2 {
		t.Errorf("unknown source: exit %d, want 2", code)
	}
}

func TestDataFetchList(t *testing.T) {
	out, _, code := dataRun(t, "data", "fetch", "--list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	dataGolden(t, "data_fetch_list.stdout", out)
}
