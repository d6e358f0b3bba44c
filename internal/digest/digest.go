// Package digest is the module's one file digest: the SHA-256 of a file's
// bytes, in lower-case hex (what sha256sum prints), used by data fetch to
// check downloads and by predict to name the model and pairs files a hive
// part was made from.
package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// File is the SHA-256 (hex) of the file at path. A read error names path.
func File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
