package cli

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/lincs"
)

//go:embed help/dataInspect.txt
var dataInspectDesc string

func runDataInspect(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup data inspect", "deup data inspect DIR [--json]", dataInspectDesc)
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, err := cmdline.ParseWant(fs, args, 1, 1)
	if err != nil {
		return err
	}
	s, err := drugcomb.OpenDir(pos[0])
	if err != nil {
		return err
	}
	o := drugcomb.Inspect(s, checkSMILES)
	sig, err := lincs.LoadSignatures(pos[0])
	switch {
	case errors.Is(err, lincs.ErrNoSignatures):
	case err != nil:
		return err
	default:
		o.Signatures, o.DrugsWithoutSignatures = true, sig.Lacking(s.Drugs)
	}
	if *asJSON {
		b, err := json.MarshalIndent(o, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(env.Stdout, "%s\n", b)
		return err
	}
	return o.WriteText(env.Stdout, pos[0])
}
