package cli

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// updateTrainHelp rewrites testdata/train_help.stderr and
// predict_help.stderr (go test ./internal/cli -run Help -update-train-help).
var updateTrainHelp = flag.Bool("update-train-help", false, "rewrite testdata/{train,predict}_help.stderr")

func TestTrainPredictHelp(t *testing.T) {
	for _, cmd := range []string{"train", "predict"} {
		t.Run(cmd, func(t *testing.T) {
			serr, _, code := runCLI(t, cmd, "-h") // help goes to stdout
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			path := filepath.Join("testdata", cmd+"_help.stderr")
			if *updateTrainHelp {
				if err := os.WriteFile(path, []byte(serr), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-train-help to create)", err)
			}
			if serr != string(want) {
				t.Errorf("help of %s changed:\n%s\nwant:\n%s", cmd, serr, want)
			}
		})
	}
}
