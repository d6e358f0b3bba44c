// Package lincs reads LINCS L1000 gene-expression signatures and matches
// them to the drugs of a screen.
//
// # GCT files
//
// ReadGCT reads the GCT 1.2 and 1.3 text formats into a Matrix of float32
// (the precision L1000 data is published in): rows are genes, columns are
// signatures. GCT 1.2 has one row metadata field ("Description") and no
// column metadata; GCT 1.3 declares both counts on its dimensions line and
// writes the column metadata as lines after the header (their cells under
// the row metadata columns are placeholders, usually "na", and are ignored;
// WriteGCT writes "na"). The missing-value
// spellings NaN, -nan, NA, N/A, #N/A, #NA, NULL (any case) and empty fields
// read as NaN. Values outside float32's range read as ±Inf, as a float32
// reader gives. Every malformed input is a *ParseError naming the file, the
// 1-based line and the 1-based tab-separated field ("column"), wrapping one
// of ErrVersion, ErrFieldCount, ErrNumber, ErrTruncated, ErrExtra or
// ErrDuplicate; no input panics (FuzzReadGCT). Row ids and column ids must
// each be unique (exact comparison). Declared dimensions must be below 2^31
// and the reader allocates on their word only up to 2^24 values.
//
// WriteGCT writes a Matrix back; read → write → read is the identity
// (values as float32, NaN as NaN).
//
// ReadGCTXFile reads GCTX, the HDF5 form of the same data (matrix stored
// transposed in /0/DATA/0/matrix, ids and metadata under /0/META/ROW and
// /0/META/COL), through the pure-Go github.com/scigolib/hdf5; ReadMatrixFile
// picks GCTX or GCT by the file name, and MatchGCTXFile matches drugs
// against a GCTX reading only the matched columns. Unlike the GCT reader, the GCTX
// reader is not safe on corrupt files: the HDF5 library trusts declared
// sizes and a damaged file can exhaust memory (see ReadGCTXFile); `deup
// data signatures` reads GCTX in a child process with a memory cap
// (internal/sandbox) for that reason.
//
// # Arrow and Parquet
//
// Matrix.Record gives one Arrow record with one row per signature: "id",
// one utf8 field per column metadata field, and "values" list<float32> in
// gene order, NaN kept as NaN (never null). Gene ids, row metadata and the
// GCT version travel in the schema metadata (gct.*), so FromRecords,
// ReadIPC and ReadParquet restore the Matrix exactly. Records are owned by
// the caller, who must Release them; the readers release everything they
// allocate (tests run them on a checked allocator).
//
// # Matching signatures to drugs
//
// MatchDrugs looks up each drug of a screen (drugcomb.Drug) among the
// signature names (the column ids, or the column metadata pert_iname when
// present, as in LINCS level-5 GCTX; MatchDrugsOn chooses): first through its PubChem CID, whose perturbagen
// names (pert_iname) come from the LINCS perturbagen table (ReadPertInfo),
// then by its own name, then by the parent name of a salt form
// (ParentName: "Lapatinib ditosylate" → "Lapatinib", "Sunitinib (free
// base)" → "Sunitinib"; esters such as "megestrol acetate" are left
// alone); all case-insensitively, an exact-case column winning over others
// that differ only in case. A parent-name match has method "parent_name"
// and is listed in Report.Parents (name, parent, column). It returns Signatures
// aligned with the drugs (nil vector where none) and a Report: counts by
// method, the drugs without a signature with the keys tried, ambiguous
// matches, and how many matched signatures are entirely NaN (the
// consensus signatures file has 60 such columns; a matched all-NaN
// signature is kept and counted, not hidden).
//
// # Signatures beside a screen
//
// WriteSignatures stores Signatures in a screen directory as
// signatures.parquet and signatures.arrow (SignaturesSchema: drug_id,
// signature, matched_by, values list<float32>; null where a drug has
// none; gene ids in the schema metadata key lincs.genes). LoadSignatures
// reads them back; Signatures.For aligns them with any drug list by ID.
package lincs
