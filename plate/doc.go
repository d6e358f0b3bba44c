// Package plate is the lab's side of a screen: it lays a batch of
// suggested drug pairs out as dose–response blocks on microplates, plans
// the acoustic dispenser's transfers that make them, and turns the plate
// reader's files back into the responses table package doseresp scores.
//
// # Plate design (Design.Layout)
//
// Each request (a drug pair on a cell line, one line of a suggested
// batch) becomes one block: a GridRows × GridCols combination matrix whose
// row i holds drug A's dose i and column j drug B's dose j, dose 0 first,
// so the block holds both single-agent series and the zero–zero well.
// Each drug's doses are a geometric series below its top dose (MaxConc,
// DefaultMaxConc = 10 µM without one): top/ratio^(n−1), …, top/ratio, top.
// A block is laid out Replicates times (on different plates where there
// are enough); copies go to seeded random slots (math/rand/v2, the seed
// and streams.PlateDesign), so no drug sits at the same wells on every
// plate. A plate holds one cell line (cells are seeded plate by plate);
// requests spill onto as many plates as they need, and MaxPlates leaves
// the last requests out, counted in the report with duplicates and pairs
// of one drug.
//
// On a plate the outer ring of wells stays empty unless UseEdge (reader
// edge effects, evaporation). The first and last usable columns hold the
// controls, negative (vehicle) and positive alternating down each column,
// the second column starting with the other kind, so both kinds sit on
// both sides; Controls takes that many of each, evenly spaced. Blocks
// tile the columns between them from the top left. On a 384-well plate
// with empty edges that is a 14 × 22 interior: 14 controls of each kind
// and 2 × 3 slots of 6 × 6, so six blocks a plate.
//
// # Transfers (Dispense, Plan.Picks)
//
// Every used well (sample or control) receives Total nL (0.25 % of the
// assay volume by default: 100 nL into 40 µL on a 384-well plate): each
// drug's stock, then the vehicle (DMSO) backfill that makes up the rest,
// in whole droplets (2.5 nL). A dose c (µM) of a drug is drawn from the
// stock s whose whole-droplet volume v = round(c·V/s / droplet)·droplet
// (V the final well volume, assay + Total) comes closest to c, with
// 1 ≤ droplets ≤ half the total so that both drugs fit; the map records
// the delivered dose v·s/V, not the nominal one, and the report the
// largest relative difference. A dose no stock can deliver in that range,
// a well that would take more than Total, or a source well drawn below its
// dead volume is a *VolumeError (errors.Is ErrVolume): the design is
// refused, nothing is written. Without a source layout (ReadSource), one
// is generated: each drug at 10 mM and three ten-fold dilutions, the
// positive control at 10 mM, and as many vehicle wells as the backfill
// draws, in 384-well source plates of 50 µL wells with 15 µL dead volume.
//
// # Reader files (ParseReads) and normalization (Normalize)
//
// Two layouts, told apart by the first non-blank line: the long table
// plate,well,value (CSV/TSV, or Parquet/Arrow, with common spellings of
// the three columns), and grids: per plate a plate line (Plate: NAME,
// Barcode: NAME or Plate,NAME), an optional header of the column numbers,
// then one line per row, its letter and its values (12, 24 or 48, so a
// 96-, 384- or 1536-well grid), fields split at tabs, commas or
// semicolons. Lines outside a plate (reader metadata) are counted.
//
// Each plate is normalized to its own controls: with μn, σn and μp, σp
// the mean and sample standard deviation of its negative and positive
// control readings,
//
//	inhibition = 100·(μn − x)/(μn − μp)      viability = 100·(x − μp)/(μn − μp)
//	Z′ = 1 − 3·(σp + σn)/|μn − μp|            (Zhang, Chung and Oldenburg 1999)
//	CV = 100·σ/μ per control
//
// A plate with Z′ below the threshold (DefaultMinZ 0.5) or with fewer
// than two readings of a control is flagged and kept out unless asked.
// A read of a plate that is not on the map, of a well the map does not
// have, a map well in use or a map plate without a read, a well read twice
// and a value that is not a number are errors naming the file, line and
// column (or the map's plate and well); ReadOptions.Lenient skips each and
// counts it. The responses table (WriteResponses) has the columns
// doseresp.Read recognises: block_id, drug_row, drug_col, cell_line,
// conc_r, conc_c (µM), conc_unit, the response named by its unit, and the
// plate and well it came from. Copies of a block share its block_id, so
// doseresp averages them well by well.
//
// Nothing here panics on input; nothing logs.
package plate
