package cli

import (
	"strings"

	"github.com/deup-screening/deup/doseresp"
)

// scoreChoices is the --score synopsis of the dose–response import. Its
// order (bliss before loewe) is not the table's, so it is the one place
// that spells the scores out; TestScoreChoices checks it names exactly
// doseresp.Scores().
const scoreChoices = "css|zip|bliss|loewe|hsa|s"

// helpWidth is the width the help texts are wrapped to.
const helpWidth = 77

// scoreHelp fills the synergy-score placeholders of a help text from
// doseresp's score table (doseresp.Synergies):
//
//	{{synergy titles}}   ZIP, Loewe, HSA and Bliss
//	{{synergy columns}}  zip,loewe,hsa,bliss
//	{{scores}}           css, zip, loewe, hsa, bliss or s
//	{{score choices}}    css|zip|bliss|loewe|hsa|s (scoreChoices)
//
// A line that holds a placeholder is wrapped at helpWidth columns once
// filled: at a space, or after a comma of a column list. Other lines are
// left as they are.
func scoreHelp(desc string) string {
	if !strings.Contains(desc, "{{") {
		return desc
	}
	syn := doseresp.Synergies()
	var titles, names []string
	for _, s := range syn {
		titles, names = append(titles, s.Title), append(names, s.Name)
	}
	r := strings.NewReplacer(
		"{{synergy titles}}", andList(titles, ", "),
		"{{synergy columns}}", strings.Join(names, ","),
		"{{scores}}", andList(doseresp.Scores(), ", ", " or "),
		"{{score choices}}", scoreChoices,
	)
	lines := strings.Split(desc, "\n")
	var out []string
	for _, l := range lines {
		filled := r.Replace(l)
		if filled == l {
			out = append(out, l)
			continue
		}
		out = append(out, wrapLine(filled, helpWidth)...)
	}
	return strings.Join(out, "\n")
}

// andList joins v with sep and its last two with last (" and " when not
// given): "a, b and c".
func andList(v []string, sep string, last ...string) string {
	and := " and "
	if len(last) > 0 {
		and = last[0]
	}
	if len(v) < 2 {
		return strings.Join(v, sep)
	}
	return strings.Join(v[:len(v)-1], sep) + and + v[len(v)-1]
}

// wrapLine breaks l into lines of at most width characters where it can:
// at the last space that keeps the line within width (the space dropped),
// or after the last comma followed by a non-space.
func wrapLine(l string, width int) []string {
	var out []string
	r := []rune(l)
	for len(r) > width {
		cut, next := -1, -1
		for p := width; p > 0; p-- {
			if r[p] == ' ' {
				cut, next = p, p+1
				break
			}
			if r[p-1] == ',' {
				cut, next = p, p
				break
			}
		}
		if cut <= 0 {
			break
		}
		out = append(out, string(r[:cut]))
		r = r[next:]
	}
	return append(out, string(r))
}

// synergyShort is the one-line summary of deup data synergy.
func synergyShort() string {
	var titles []string
	for _, s := range doseresp.Synergies() {
		titles = append(titles, s.Title)
	}
	return "score dose–response plates: " + strings.Join(titles, ", ") + ", IC50, RI, CSS and S per block, as DrugComb does"
}

// plateScoreUsage is the usage of campaign import-results --plate-score.
func plateScoreUsage() string {
	return "with --plates: the block score that is the campaign's score (" + strings.Join(doseresp.Scores(), ", ") + "; default: the campaign's score name)"
}
