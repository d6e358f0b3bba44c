package almanac

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// OpenWells opens a wells file for Import: a CSV file, or a zip archive
// (NCI's ComboDrugGrowth_Nov2017.zip) whose one .csv member is streamed
// without unpacking it to disk. name is what errors should call the input
// ("archive.zip:member.csv" for a member). The caller closes rc.
func OpenWells(path string) (rc io.ReadCloser, name string, err error) {
	if !strings.EqualFold(filepath.Ext(path), ".zip") {
		f, err := os.Open(path)
		if err != nil {
			return nil, "", err
		}
		return f, path, nil
	}
	z, err := zip.OpenReader(path)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	var csvs []*zip.File
	for _, f := range z.File {
		if strings.EqualFold(filepath.Ext(f.Name), ".csv") && !strings.HasPrefix(filepath.Base(f.Name), "._") {
			csvs = append(csvs, f)
		}
	}
	if len(csvs) != 1 {
		z.Close()
		var names []string
		for _, f := range z.File {
			names = append(names, f.Name)
		}
		return nil, "", fmt.Errorf("%s: want one .csv member, the archive has %d (%s)", path, len(csvs), strings.Join(names, ", "))
	}
	r, err := csvs[0].Open()
	if err != nil {
		z.Close()
		return nil, "", fmt.Errorf("%s:%s: %w", path, csvs[0].Name, err)
	}
	return &zipMember{r, z}, path + ":" + csvs[0].Name, nil
}

type zipMember struct {
	io.ReadCloser
	z *zip.ReadCloser
}

func (m *zipMember) Close() error {
	err := m.ReadCloser.Close()
	if e := m.z.Close(); err == nil {
		err = e
	}
	return err
}
