package cli

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/internal/progress"
)

//go:embed help/dataFetch.txt
var dataFetchDesc string

func runDataFetch(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup data fetch", "deup data fetch [--cache DIR] [--manifest FILE] [--list] [--force] [NAME|GROUP ...]", dataFetchDesc)
	cache := fs.String("cache", "", "cache directory (default: the user cache directory + /deup)")
	manifest := fs.String("manifest", "", "read the sources from this JSON manifest instead of the built-in one")
	list := fs.Bool("list", false, "list the sources and exit")
	force := fs.Bool("force", false, "download again even when a complete copy is cached")
	pos, err := cmdline.ParseArgs(fs, args)
	if err != nil {
		return err
	}
	sources, err := data.LoadManifest(*manifest)
	if err != nil {
		return err
	}
	if *list {
		return data.WriteList(env.Stdout, sources)
	}
	sel, err := data.Select(sources, pos)
	if err != nil {
		return fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	}
	dir := *cache
	if dir == "" {
		if dir, err = data.DefaultCacheDir(); err != nil {
			return err
		}
	}
	f := &data.Fetcher{Dir: dir, Force: *force}
	var failed []string
	for _, src := range sel {
		var bar *progress.Bar
		f.Progress = func(s data.Source, done, total int64) {
			if bar == nil {
				bar = progress.New(env.Stderr, s.Name, int(max(total, 0)))
			}
			bar.Set(int(done), fmt.Sprintf("%.1f MB", float64(done)/1e6))
		}
		res, err := f.Fetch(ctx, src)
		bar.Finish()
		if err != nil {
			fmt.Fprintf(env.Stderr, "deup: %v\n", err)
			failed = append(failed, src.Name)
			continue
		}
		fmt.Fprintf(env.Stdout, "%s\t%s\t%d bytes\tsha256 %s\t%s\n", src.Name, res.Path, res.Bytes, res.SHA256, res.How())
	}
	if len(failed) > 0 {
		return fmt.Errorf("fetch failed for %s (run again to resume)", strings.Join(failed, ", "))
	}
	return nil
}
