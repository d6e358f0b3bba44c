#!/usr/bin/python3
# Writes the GCTX test fixtures with h5py (Debian python3-h5py 3.7.0,
# HDF5 1.10.8) in the layout of cmapPy's write_gctx and the LINCS GEO
# releases: /0/DATA/0/matrix holds the transposed matrix (columns x rows,
# float32), /0/META/ROW/<field> and /0/META/COL/<field> the ids and metadata.
# Run from this directory: python3 make_gctx.py
import h5py
import numpy as np

rows = ["5720", "23", "7849"]
cols = ["sigA", "sigB"]
# rows x cols; the expected values of TestReadGCTX
m = np.array([[0.25, np.nan], [-1.0, 100.0], [3.5e-3, -0.0]], dtype=np.float32)

for name, chunks, comp in [("small.gctx", (1, 3), "gzip"), ("contiguous.gctx", None, None)]:
    with h5py.File(name, "w") as f:
        f.attrs["version"] = "GCTX1.0"
        f.create_dataset("0/DATA/0/matrix", data=m.T, chunks=chunks, compression=comp)
        f.create_dataset("0/META/ROW/id", data=np.array(rows, dtype="S"))
        f.create_dataset("0/META/ROW/pr_gene_symbol", data=np.array(["AARS", "ABCF1", "ABL1"], dtype="S"))
        f.create_dataset("0/META/COL/id", data=np.array(cols, dtype="S"))
        f.create_dataset("0/META/COL/pert_iname", data=np.array(["vorinostat", "gefitinib"], dtype=h5py.string_dtype()))
        f.create_dataset("0/META/COL/pert_dose", data=np.array([10.0, 0.5]))

# A file whose matrix does not match its ids (3 x 3 values for 2 columns).
with h5py.File("mismatch.gctx", "w") as f:
    f.create_dataset("0/DATA/0/matrix", data=np.zeros((3, 3), dtype=np.float32))
    f.create_dataset("0/META/ROW/id", data=np.array(rows, dtype="S"))
    f.create_dataset("0/META/COL/id", data=np.array(cols, dtype="S"))

# A larger file whose gzip chunks (7 x 11) cut across columns and rows, with
# its GCT 1.3 text twin: the reader must give the same matrix from both.
rng = np.random.default_rng(7)
nr, nc = 30, 50
big = np.round(rng.normal(size=(nr, nc)), 3).astype(np.float32)
big[rng.random((nr, nc)) < 0.05] = np.nan
rids = ["g%d" % i for i in range(nr)]
cids = ["sig%d" % j for j in range(nc)]
inames = ["drug%d" % (j % 40) for j in range(nc)]  # drug0..drug9 twice
with h5py.File("chunked.gctx", "w") as f:
    f.create_dataset("0/DATA/0/matrix", data=big.T, chunks=(7, 11), compression="gzip")
    f.create_dataset("0/META/ROW/id", data=np.array(rids, dtype="S"))
    f.create_dataset("0/META/COL/id", data=np.array(cids, dtype="S"))
    f.create_dataset("0/META/COL/pert_iname", data=np.array(inames, dtype="S"))
with open("chunked.gct", "w") as f:
    f.write("#1.3\n%d\t%d\t0\t1\n" % (nr, nc))
    f.write("id\t" + "\t".join(cids) + "\n")
    f.write("pert_iname\t" + "\t".join(inames) + "\n")
    for i in range(nr):
        f.write(rids[i] + "\t" + "\t".join("NaN" if np.isnan(v) else repr(float(v)) for v in big[i]) + "\n")
