package scores

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
)

// AllPairs is Identity.Pairs of a run over every pair of its drugs.
const AllPairs = "all"

// Identity is what a part file says about the run that wrote it, stored as
// the file's key-value metadata under the keys "deup.<field>".
type Identity struct {
	Model    string // SHA-256 (hex) of the model file
	Drugs    string // SHA-256 (hex) of the scored drugs' ids and SMILES (DrugsDigest)
	NDrugs   int    // how many drugs were scored
	Pairs    string // AllPairs, or the SHA-256 (hex) of the pairs file
	Program  string // the program that wrote it (deup --version)
	CellLine string
	Shard    Shard
	Lo, Hi   int // the shard's rows [Lo, Hi) of Total
	Total    int
}

const metaPrefix = "deup."

// Metadata is id as Arrow schema metadata.
func (id Identity) Metadata() arrow.Metadata {
	kv := [][2]string{
		{"model_sha256", id.Model}, {"drugs_sha256", id.Drugs}, {"drugs", strconv.Itoa(id.NDrugs)},
		{"pairs", id.Pairs}, {"program", id.Program}, {"cell_line", id.CellLine},
		{"shard", id.Shard.String()}, {"rows_from", strconv.Itoa(id.Lo)}, {"rows_to", strconv.Itoa(id.Hi)},
		{"rows_total", strconv.Itoa(id.Total)},
	}
	var k, v []string
	for _, p := range kv {
		k, v = append(k, metaPrefix+p[0]), append(v, p[1])
	}
	return arrow.NewMetadata(k, v)
}

// ErrNoIdentity is metadata without the Identity that Metadata writes:
// the file is not a part of sharded predictions.
var ErrNoIdentity = errors.New("not written as a part of sharded predictions")

// IdentityOf reads an Identity from metadata written by Metadata; metadata
// without it is an ErrNoIdentity.
func IdentityOf(md arrow.Metadata) (Identity, error) {
	var id Identity
	get := func(k string) (string, error) {
		v, ok := md.GetValue(metaPrefix + k)
		if !ok {
			return "", fmt.Errorf("metadata has no %s%s: %w", metaPrefix, k, ErrNoIdentity)
		}
		return v, nil
	}
	num := func(k string) (int, error) {
		s, err := get(k)
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("metadata %s%s = %q: want a count", metaPrefix, k, s)
		}
		return n, nil
	}
	var err error
	for _, f := range []struct {
		k string
		s *string
	}{{"model_sha256", &id.Model}, {"drugs_sha256", &id.Drugs}, {"pairs", &id.Pairs}, {"program", &id.Program}, {"cell_line", &id.CellLine}} {
		if *f.s, err = get(f.k); err != nil {
			return id, err
		}
	}
	for _, f := range []struct {
		k string
		n *int
	}{{"drugs", &id.NDrugs}, {"rows_from", &id.Lo}, {"rows_to", &id.Hi}, {"rows_total", &id.Total}} {
		if *f.n, err = num(f.k); err != nil {
			return id, err
		}
	}
	s, err := get("shard")
	if err != nil {
		return id, err
	}
	if id.Shard, err = ParseShard(s, func(string) string { return "" }); err != nil {
		return id, fmt.Errorf("metadata %sshard: %w", metaPrefix, err)
	}
	return id, nil
}

// DrugsDigest is the SHA-256 (hex) of the drugs' ids and SMILES taken in
// id order: "id\tsmiles\n" per drug. The order they came in does not
// matter. ids and smiles have equal lengths.
func DrugsDigest(ids, smiles []string) string {
	h := sha256.New()
	for _, r := range SortedByID(ids) {
		io.WriteString(h, ids[r])
		h.Write([]byte{'\t'})
		io.WriteString(h, smiles[r])
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}
