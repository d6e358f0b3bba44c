package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

// TestDataInspectSignatures runs the real pipeline on PC-3: import, match
// the LINCS consensus signatures (deup data signatures), inspect. The
// shared data's README: 41 of the 80 PC-3 drugs have a signature; 6 more
// under the parent name of their salt form (lincs.TestMatchPC3), so 33
// have none.
func TestDataInspectSignatures(t *testing.T) {
	dir, _ := importPC3(t)
	_, errOut, code := dataRun(t, "data", "signatures",
		"--gct", shareddata.Path(t, "lincs", "consensus_signatures.gct"),
		"--pertinfo", shareddata.Path(t, "lincs", "pertinfo.tsv.gz"),
		"--screen", dir)
	if code != 0 {
		t.Fatalf("signatures: exit %d: %s", code, errOut)
	}
	js, errOut, code := dataRun(t, "data", "inspect", dir, "--json")
	if code != 0 {
		t.Fatalf("inspect: exit %d: %s", code, errOut)
	}
	var got struct {
		Signatures             bool     `json:"signatures"`
		DrugsWithoutSignatures []string `json:"drugs_without_signatures"`
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if !got.Signatures || len(got.DrugsWithoutSignatures) != 33 {
		t.Errorf("signatures %v, %d drugs without; want true, 33", got.Signatures, len(got.DrugsWithoutSignatures))
	}
	text, _, _ := dataRun(t, "data", "inspect", dir)
	if !strings.Contains(text, "drugs without signatures  33") {
		t.Errorf("text inspect:\n%s", text)
	}
}

func TestDataInspectErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no dir", []string{}, 2, "missing argument"},
		{"not a screen", []string{t.TempDir()}, 1, "meta.json"},
		{"two dirs", []string{"a", "b"}, 2, "unexpected argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := dataRun(t, append([]string{"data", "inspect"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d (want %d): %s", code, tc.code, errOut)
			}
		})
	}
}
