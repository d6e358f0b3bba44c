package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/deup-screening/deup/chem"
)

func fingerprintCommand() *Command {
	return &Command{
		Name:  "fingerprint",
		Short: "Morgan fingerprints (RDKit-identical) of id<TAB>smiles lines",
		Run:   runFingerprint,
	}
}

const fingerprintDesc = `
Reads lines "id<TAB>smiles" (further tab-separated columns are ignored) from
FILE or standard input and writes "id<TAB>bits" to standard output, where bits
are the space-separated, increasing indices of the on-bits of the folded
Morgan fingerprint, identical to RDKit 2022.09.3's
GetMorganFingerprintAsBitVect(mol, radius, nBits) with its defaults (bond
types, no chirality, no feature invariants), of the whole SMILES.

With --largest-fragment the fingerprint is that of the SMILES's largest
organic fragment instead (salts and counter-ions left out), the one RDKit's
standardizer keeps (rdMolStandardize.LargestFragmentChooser,
preferOrganic=True) and the one deup's model features use by default
(docs/vocabulary.md).

A molecule that cannot be parsed (or that RDKit would refuse) is written with
an empty bit list; its error goes to standard error with the id, the line and
the position in the SMILES, and the exit status is 1. A line without a tab is
reported the same way and not written. The last line on standard error gives
the count and the throughput.`

// fingerprintBatch is how many lines are fingerprinted together; output is
// written in input order after each batch.
const fingerprintBatch = 4096

func runFingerprint(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup fingerprint", "deup fingerprint [--radius R] [--bits N] [--largest-fragment] [--header] [--workers W] [FILE]", fingerprintDesc)
	radius := fs.Int("radius", 3, "Morgan radius")
	bits := fs.Int("bits", 1024, "fingerprint size in bits")
	header := fs.Bool("header", false, "skip the first line (a header)")
	workers := fs.Int("workers", 0, "goroutines (0: GOMAXPROCS)")
	quiet := fs.Bool("quiet", false, "do not print the throughput line")
	largest := fs.Bool("largest-fragment", false, "fingerprint the largest organic fragment (as the model features do), not the whole SMILES")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 0, 1); err != nil {
		return err
	}
	if *radius < 0 {
		return fmt.Errorf("%w: --radius must be >= 0, got %d", ErrUsage, *radius)
	}
	if *bits <= 0 {
		return fmt.Errorf("%w: --bits must be positive, got %d", ErrUsage, *bits)
	}
	nw := *workers
	if nw <= 0 {
		nw = runtime.GOMAXPROCS(0)
	}
	in, name := env.Stdin, "stdin"
	if len(pos) == 1 && pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return fmt.Errorf("fingerprint: %w", err)
		}
		defer f.Close()
		in, name = f, pos[0]
	}
	out := bufio.NewWriterSize(env.Stdout, 1<<16)
	start := time.Now()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	var (
		ids, smiles []string
		lines       []int
		bad         []string // per entry: a malformed line's message, or ""
		line        int
		nMol, nFail int
	)
	flush := func() error {
		var res [][]int
		var errs []error
		if *largest {
			res, _, errs = chem.LargestFragmentBitsAll(smiles, *radius, *bits, nw, chem.LargestFragmentChooser{PreferOrganic: true})
		} else {
			res, errs = chem.MorganBitsAll(smiles, *radius, *bits, nw)
		}
		var b []byte
		for i := range ids {
			if bad[i] != "" {
				nFail++
				fmt.Fprintf(env.Stderr, "deup fingerprint: %s:%d: %s\n", name, lines[i], bad[i])
				continue
			}
			nMol++
			b = append(b[:0], ids[i]...)
			b = append(b, '\t')
			if errs[i] != nil {
				nFail++
				fmt.Fprintf(env.Stderr, "deup fingerprint: %s:%d: id %s: %v\n", name, lines[i], ids[i], errs[i])
			}
			for k, x := range res[i] {
				if k > 0 {
					b = append(b, ' ')
				}
				b = strconv.AppendInt(b, int64(x), 10)
			}
			b = append(b, '\n')
			if _, err := out.Write(b); err != nil {
				return fmt.Errorf("fingerprint: %w", err)
			}
		}
		ids, smiles, lines, bad = ids[:0], smiles[:0], lines[:0], bad[:0]
		return ctx.Err()
	}
	for sc.Scan() {
		line++
		if line == 1 && *header {
			continue
		}
		text := strings.TrimSuffix(sc.Text(), "\r")
		id, rest, ok := strings.Cut(text, "\t")
		smi, _, _ := strings.Cut(rest, "\t")
		msg := ""
		if !ok {
			id, smi = "", "C" // placeholder, not fingerprinted
			msg = fmt.Sprintf("want id<TAB>smiles, got %q", fpTruncate(text, 60))
		}
		ids = append(ids, id)
		smiles = append(smiles, smi)
		lines = append(lines, line)
		bad = append(bad, msg)
		if len(ids) == fingerprintBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("fingerprint: %s:%d: %w", name, line+1, err)
	}
	if err := flush(); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("fingerprint: %w", err)
	}
	el := time.Since(start)
	if !*quiet {
		rate := float64(nMol) / el.Seconds()
		fmt.Fprintf(env.Stderr, "deup fingerprint: %d molecules (%d failed) in %.3f s: %.0f molecules/s on %d workers (%.0f/s per worker)\n",
			nMol, nFail, el.Seconds(), rate, nw, rate/float64(nw))
	}
	if nFail > 0 {
		return exitError{1}
	}
	return nil
}

func fpTruncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
