package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/deup-screening/deup/doseresp"
)

// The --score synopsis names exactly the screen targets of doseresp's
// score table (in its own order).
func TestScoreChoices(t *testing.T) {
	got := strings.Split(scoreChoices, "|")
	want := doseresp.Scores()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("scoreChoices %q names %v; doseresp.Scores() is %v: add the new score to scoreChoices", scoreChoices, got, want)
	}
}

// The placeholders are filled from the table, and a line they make too
// long is wrapped at a space or after a list's comma; other lines stay.
func TestScoreHelp(t *testing.T) {
	long := strings.Repeat("x", 70)
	for _, c := range []struct{ name, in, want string }{
		{"titles", "per well {{synergy titles}};", "per well ZIP, Loewe, HSA and Bliss;"},
		{"columns", "(a,{{synergy columns}},b)", "(a,zip,loewe,hsa,bliss,b)"},
		{"scores", "(--score {{scores}})", "(--score css, zip, loewe, hsa, bliss or s)"},
		{"choices", "--score {{score choices}}", "--score css|zip|bliss|loewe|hsa|s"},
		{"wrap at a space", long + " {{scores}}.", long + " css,\nzip, loewe, hsa, bliss or s."},
		{"wrap after a comma", long + "_{{synergy columns}}", long + "_zip,\nloewe,hsa,bliss"},
		{"other lines untouched", long + " " + long + "\n{{scores}}", long + " " + long + "\ncss, zip, loewe, hsa, bliss or s"},
		{"no placeholder", "a {{structures}}", "a {{structures}}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := scoreHelp(c.in); got != c.want {
				t.Errorf("scoreHelp(%q)\n= %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}
