/*
Deup predicts the synergy of drug pairs with an uncertainty that says what the
model does not know (DEUP, Direct Epistemic Uncertainty Prediction, Lahlou et
al., TMLR 2023), and proposes the next experiments.

Usage:

	deup SUBCOMMAND [flags]

Subcommands:

	bench            the 40/30/30 uncertainty benchmark: DEUP against the baselines
	campaign         active-learning campaigns that propose the next drug-pair experiments
	data             import, inspect, generate and fetch screens and signatures
	fingerprint      Morgan fingerprints (RDKit-identical) of a drug catalogue or id<TAB>smiles lines
	ood              reject difficult pairs: DEUP on drugs the model never saw, against the baselines (paper §5.3.2)
	plate            plate maps and dispenser pick lists for a suggested batch; plate-reader files back to responses
	predict          predict synergy and its uncertainty for drug pairs with a trained model
	rl               DEUP-DQN against DQN, MC-Dropout DQN and Bootstrapped DQN on bsuite's CartPole (paper §5.2)
	scores           check and summarize a directory of sharded predictions (deup predict --out DIR --shard i/N)
	smo              sequential model optimization: DEUP-EI vs GP-EI, TuRBO, MC-Dropout, ensembles (paper §5.1)
	suggest          export the next experiments (CSV, Parquet or JSON) from a campaign or a trained model
	train            train DEUP (or a baseline) on a screen and save the model
	tui              browse predictions and uncertainty in the terminal and pick the next experiments

Run 'deup SUBCOMMAND -h' for the help of one.

A first session:

	deup bench                                  # the benchmark on the embedded synthetic screen
	deup data import --format almanac --pairs PAIRS.csv --drugs DRUGS.csv --out pc3
	deup train --screen pc3 --out pc3.model     # all measured pairs, 70/30 in/out-of-sample
	deup predict --model pc3.model --all-pairs --out pairs.csv
	deup suggest --model pc3.model --batch 30 --out next.csv
	deup tui --model pc3.model

A model file remembers the drugs and the screen it was trained on; predict,
suggest and tui score those unless --screen DIR or --drugs FILE says
otherwise. The metrics deup bench reports are defined in docs/metrics.md of
the source repository.

Without --screen, train, bench and campaign work on the embedded default: a
synthetic screen with a known truth, generated from seed 1.

This comment is kept equal to the output of 'deup -h' by a test
(TestDocMatchesHelp).
*/
package main
