// Package streams is the one table of the project's random streams. Every
// seeded draw in deup uses math/rand/v2's PCG source with two words:
// rand.NewPCG(seed, stream), the seed from the user (--seed, a config's
// Seed), the stream a constant below that separates one use from every
// other, so that two uses of the same seed never draw the same numbers.
// Most streams spell a word in ASCII (0x73687566666c65 is "shuffle").
//
// Changing a value changes every result drawn from it: the values are
// part of the outputs' reproducibility and are never renumbered. A new
// use takes a new constant here, different from every one below.
//
// Not in the table: rand.NewPCG(seed, 0) draws (uq's simulated replicates,
// a campaign's per-round source, whose seed already separates the rounds),
// fixed test fixtures in deup/deuptest, and active.State's round seeds,
// which are round<<8 | a small stream number.
package streams

// Model training (package model, model/due, nn, deup/mlp, gp).
const (
	NetInit        = 0x6465757020696e69 // "deup ini": model's two-tower network weights
	Shuffle        = 0x73687566666c65   // "shuffle": model's minibatch order
	Identity       = 0x69645f64726f70   // "id_drop": model's dropped identity vectors (Config.IdentityDrop)
	NoveltyHoldout = 0x686f6c646f7574   // "holdout": model's held-out drugs (seed ^ NoveltySeed)
	NoveltySeed    = 0x6e6f76656c7479   // "novelty": xor-ed into the seed of NoveltyHoldout
	SigmaRefit     = 0x7369676d61726566 // "sigmaref": model's sigma refit split
	DUETrain       = 0x6475655f747261   // "due_tra": model/due training order
	DUENet         = 0x6475655f6e6574   // "due_net": model/due network weights
	NNMLP          = 0x6e6e206d6c70     // "nn mlp": nn.MLP weights
	Dropout        = 0x64726f706f7574   // "dropout": nn dropout masks
	MLP            = 0x6d6c70           // "mlp": deup/mlp weights and batches
	OneHot         = 0x6f6e65686f74     // "onehot": model/onehot training order and dropout masks
	StackFolds     = 0x737461636b       // "stack": model/neighbors.Stacked's inner folds of combinations
	GPFit          = 0x67705f666974     // "gp_fit": gp hyperparameter restarts
	KMeans         = 0x6b6d65616e73     // "kmeans": gp inducing points
)

// Splits and hold-outs.
const (
	Split          = 0x9e3779b97f4a7c15 // drugcomb's random and by-drug splits
	Calibration    = 0x63616c69627261   // "calibra": package methods' calibration hold-out
	CrossConformal = 0x16c0f0a1         // uq.CrossConformal's halves
	OOD            = 0x6f6f64           // "ood": package ood's hold-out
	OODFolds       = 0x666f6c6473       // "folds": package ood's folds
	OODFinal       = 0x66696e616c       // "final": package ood's final validation split
	OOSDraw        = 0x6f6f735f64726177 // "oos_draw": drugcomb.DrawOOS's out-of-sample part by combination or drug
)

// Data, campaigns and the other experiments.
const (
	Synth          = 0x5eed0fdeb0b0cafe // data.Synth's screen
	Ensemble       = 0x656e73           // "ens": active's ensemble surrogate bootstrap
	Prefill        = 0x707265           // "pre": active's DEUP prefill
	InitialPairs   = 0x696e6974         // "init": active.SplitInitial
	Suggest        = 0x73756767         // "sugg": deup suggest's acquisition draws
	RLEnv          = 0xe57              // rl environments
	RLAgent        = 0xa6e7             // rl agents
	SMOMethod      = 0xd0e0             // smo methods' own draws
	SMOInitial     = 0x1417             // smo initial designs
	SMOAcquisition = 0xac9              // smo acquisition
	PlateDesign    = 0x706c617465       // "plate": plate's block placement
	PlateLab       = 0x706c6162         // "plab": plate/platesim's simulated lab
)
