package scores

import (
	"fmt"
	"net/url"
	"path/filepath"
)

// PartitionKey is the hive partition column of the layout.
const PartitionKey = "cell_line"

// PartName is the file name of a shard: part-i-of-N.parquet.
func PartName(s Shard) string { return fmt.Sprintf("part-%d-of-%d.parquet", s.Index, s.Count) }

// PartPath is DIR/cell_line=X/part-i-of-N.parquet, X escaped as a URL path
// segment (hive's and pyarrow's encoding).
func PartPath(dir, cellLine string, s Shard) string {
	return filepath.Join(dir, PartitionKey+"="+url.PathEscape(cellLine), PartName(s))
}

// parsePartName is the shard a part file's name gives, and false for a name
// that is not part-i-of-N.parquet.
func parsePartName(name string) (Shard, bool) {
	var s Shard
	var rest string
	if n, _ := fmt.Sscanf(name, "part-%d-of-%d.parque%s", &s.Index, &s.Count, &rest); n != 3 || rest != "t" || !s.Valid() || PartName(s) != name {
		return Shard{}, false
	}
	return s, true
}
