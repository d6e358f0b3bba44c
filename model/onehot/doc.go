// Package onehot is the one-hot MLP reference of issue 40: a dense
// network that knows each drug only by its identity. Its input is the sum
// of the two drugs' one-hot vectors (a drug paired with itself gives a 2;
// (a, b) and (b, a) are the same input) followed by the cell line's
// one-hot vector on a panel; two hidden ReLU layers of 1024 and 512 units
// with dropout 0.3 after each (nn.MLP, inverted dropout, off at
// prediction), a linear output; Adam on the mean squared error of the
// standardized target, with early stopping on the validation RMSE and
// the best epoch kept. The training budget (batch, learning rate,
// patience, epoch cap, schedule) is the shared network's rule,
// model.Config.Budget and model.Schedule, for the number of training
// pairs; fields set in Config are kept.
//
// It reads the features' drug ids only: a drug the model was not trained
// on has no column and enters as zeros. It has no uncertainty of its own:
// σ is the validation RMSE for every pair (SigmaEpistemic the same,
// SigmaAleatoric 0).
//
// File format: Magic, the JSON header's length (uint64 little endian),
// the header (feature configuration, drug ids in column order, lines,
// target mean and sd, σ) and the parameters in nn.Params' format. Load
// checks the header's ranges and the parameters' names and shapes; bad
// input is an error, never a panic (FuzzLoad).
package onehot
