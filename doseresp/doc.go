// Package doseresp scores drug-combination dose–response matrices as
// DrugComb's pipeline does (TidyComb 0.0.6 on synergyfinder 2.0.x, no
// baseline correction): single-drug curve fits, the per-well synergy of four
// reference models (the score table, Synergies), and the block summaries (mean synergy, IC50, RI, CSS, S).
//
// # Responses and blocks
//
// A Block holds % inhibition (0 = no effect) on a grid of doses that starts
// at 0 for both drugs: Response[i][0] is the row drug alone, Response[0][j]
// the column drug alone. Read takes a long table (one row per well and
// replicate) or SynergyFinder's matrix layout, converts % viability (100 − v) and averages
// replicates per well, keeping their sample standard deviation and count;
// a well of the grid without a response is filled by ImputeNA (the mean of
// its measured neighbours, pass by pass, SynergyFinder's ImputeNA).
//
// # Single-drug curves (drc)
//
//	LL.4: f(x) = c + (d−c) / (1 + exp(b·(ln x − ln e)))   on the dose x
//	L.4:  f(x) = c + (d−c) / (1 + exp(b·(x − e)))          on x = ln dose (dose 0 → 1e-10)
//
// FitDoseResponse fits LL.4 and falls back to L.4 where LL.4 fails
// (SynergyFinder's FitDoseResponse); Fixed holds c and/or d fixed (Emin,
// Emax). Fit follows drc::drm: its scaling, its self-starter and R's optim
// BFGS with numerical gradients (Nash's variable-metric method, optim.go),
// because the reference scores depend on where that optimiser stops: ZIP's
// per-line fits in particular often stop far from the least-squares optimum,
// and a different optimiser gives different (if better fitting) scores.
//
// # Reference models, per well with both doses > 0 (0 elsewhere)
//
//	HSA:   δ = y_ij − max(y_i0, y_0j)                          (Berenbaum 1989)
//	Bliss: δ = y_ij − (y_i0 + y_0j − y_i0·y_0j/100)            (Bliss 1939)
//	Loewe: δ = y_ij − min(100, y_L), x1/X_col(y_L) + x2/X_row(y_L) = 1 (Loewe 1953),
//	       X(y) the dose of one drug alone giving y, from its fit; where the
//	       equation has no solution from y0 = max(c_row, c_col) + 1,
//	       y_L = max(f_col(x1+x2), f_row(x1+x2))
//	ZIP:   δ = (ŷ_ij^row + ŷ_ij^col)/2 − (f_r + f_c − f_r·f_c/100) (Yadav et al. 2015)
//	       f_r, f_c the single-drug fits at the doses (drc's predict with
//	       newdata: an L.4 fit is evaluated at the raw dose, as there);
//	       ŷ^col refits each column over the row doses > 0 with c fixed at
//	       f_c and d = 100 (ŷ^row likewise), keeping the observed values
//	       where both LL.4 and L.4 fail; a 1×1 interior is left as observed.
//
// # Block summaries (TidyComb's CalculateMat)
//
//	synergy:  the mean of δ over the wells with both doses > 0
//	IC50:     e (LL.4) or exp(e) (L.4) of the single-drug fit, capped at the top dose
//	RI:       Sensitivity of the single-drug curve (doses > 0)
//	css_col:  Sensitivity of the column drug's curve with the row drug at its
//	          IC50 (each column's response predicted there from a fit over the
//	          row doses; the one non-zero row of a 2-row block as measured);
//	          css_row likewise; css their mean
//	S:        css − (RI_row + RI_col)
//
// Sensitivity is the area under the fitted curve over log10 dose between the
// lowest and highest dose > 0, divided by that range (the mean height in %),
// rounded to 3 decimals (Malyutina et al. 2019, DrugComb; TidyComb's
// scoreCurve). See its doc comment for the closed forms.
//
// # The score table
//
// Synergies is the one table of synergy scores: per reference model its
// name (the tables' column, the screen target), its title (plots, help),
// its δ function and what its fallbacks count. Score, the wells and blocks
// tables, Scores, Screen, WriteResults, the plots and the report read it,
// and so does the command layer's help. A new score is one row and its
// function (Options.Synergies passes another table; the test
// TestToySynergyFlowsThroughTheTable adds one).
//
// Baseline correction (SynergyFinder's CorrectBaseLine "part" or "all") is
// an option, off by default as in the reference.
//
// # Differences from the R pipeline
//
// TidyComb adds N(0, 0.001²) noise to the matrix before scoring and draws
// 100 − U(0, 0.01) for an imputed response above 100; this package draws
// nothing (the shared reference inputs already carry that noise). The
// Loewe equation is solved by a 1-D Newton method with step halving where
// nleqslv uses a double-dogleg trust region; both give up (and use the
// fallback) where the root sits at an asymptote of a curve.
//
// Nothing here panics on input; Fit panics only if len(x) != len(y).
package doseresp
