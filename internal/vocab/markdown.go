package vocab

import (
	"fmt"
	"strings"
)

// Markdown returns the "Files and columns" section of docs/vocabulary.md,
// generated from Files.
func Markdown() string {
	var b strings.Builder
	b.WriteString("## Files and columns\n\n")
	b.WriteString("Generated from `internal/vocab` (`go test ./internal/vocab -update-vocab`);\n")
	b.WriteString("a test writes every file below in every format listed and reads it back\n")
	b.WriteString("through `vocab.ReadFile`, checking names and types against this table.\n")
	b.WriteString("Types are Arrow types in Parquet and Arrow files; in CSV and JSON what the\n")
	b.WriteString("text reads as (a float is always written with a decimal point or an\n")
	b.WriteString("exponent). `{name}` stands for names taken from the data; in JSON\n")
	b.WriteString("documents a column is a key path, `[]` marking an array's elements.\n")
	for _, f := range Files() {
		fmt.Fprintf(&b, "\n### %s\n\n", f.Title)
		formats := make([]string, len(f.Formats))
		for i, x := range f.Formats {
			formats[i] = string(x)
		}
		fmt.Fprintf(&b, "Written by %s; formats: %s.\n\n", f.Writer, strings.Join(formats, ", "))
		if f.Document {
			b.WriteString("| key | type | meaning |\n|---|---|---|\n")
		} else {
			b.WriteString("| column | type | meaning |\n|---|---|---|\n")
		}
		for _, c := range f.Columns {
			t := string(c.Type)
			var q []string
			if c.Nullable {
				q = append(q, "nullable")
			}
			if c.Optional {
				q = append(q, "optional")
			}
			if len(q) > 0 {
				t += " (" + strings.Join(q, ", ") + ")"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.Name, strings.ReplaceAll(t, "|", `\|`), strings.ReplaceAll(c.Meaning, "|", `\|`))
		}
		if f.Notes != "" {
			fmt.Fprintf(&b, "\n%s\n", f.Notes)
		}
	}
	return b.String()
}
