// Package rl is DEUP's use in reinforcement learning (Lahlou et al. 2023,
// §5.2 and App. "Reinforcement Learning Experiments"): DEUP-DQN, whose
// actions maximize Q(s, a) + κ·E(log d(s))(a), against DQN with ε-greedy,
// DQN with MC-Dropout and Bootstrapped DQN, on bsuite's cartpole, scored by
// bsuite's regret. It is generic (an Env interface, a replay buffer, the
// agents, the episode loop) and imports only the network kit nn and the
// DEUP core deup (its KDE); nothing drug-specific.
//
// # Environment
//
// Cartpole is bsuite's cartpole (github.com/deepmind/bsuite,
// bsuite/environments/cartpole.py): 3 actions with force (a−1)·10, cart
// mass 1, pole mass 0.1, half-length 0.5, gravity 9.8, Euler steps of 0.01 s
// (StepCartpole states the equations), initial x, ẋ, θ, θ̇ uniform in ±0.05,
// reward 1 while cos θ > 0.8 and |x| < 3, the episode ending at the first
// step without reward or once t > 10 s (at most 1001 steps: t is a running
// float64 sum of 0.01), observation (x/3, ẋ/3, sin θ, cos θ, θ̇, t/10). The
// end of an episode is terminal for bootstrapping (bsuite returns discount 0
// there; t is observed, so the time limit is part of the state).
//
// # Regret and score
//
// After episode k the total regret is 1000·k − (total return) (bsuite's
// BASE_REGRET, bsuite/experiments/cartpole/analysis.py); the average regret
// of a run is its total regret after the last episode divided by the
// episodes. bsuite's score of a run is ½·(clip(1 − average regret/1000, 0,
// 1) + [best episode return > 500]); the table reports each agent's mean and
// sample standard deviation over seeds of both.
//
// # Common settings
//
// From the paper's code (github.com/MJ10/DEUP, examples/RL/main.py,
// agent.py, agent_DEUP.py, models/): Q-network in→50→50→3 with ReLU (the
// issue says "one hidden layer of 50"; the code's layers_sizes [50] builds
// FC1 in→50, FC2 50→50, FC3 50→3, the paper's "3 layer FC network"), Adam
// lr 1e-3, batch 64 sampled uniformly with replacement, γ 0.99, ε 0.05
// (constant: the code's start, minimum and decay leave it at 0.05), replay
// 2^16, first update once 64 transitions are stored, a Q update every 2
// steps, the target network copied every 50 steps, 4-step returns, gradient
// norm clipped at 5, loss the mean squared TD error of the taken action.
// Seeds: a run's environment draws from PCG(seed, 0xe57), its agent from
// PCG(seed, 0xa6e7), its networks are initialized from seed·4+1..5; runs do
// not share anything, so results do not depend on how many run at once.
//
// Deviations from that code, all chosen before looking at results: the
// n-step target is the textbook R + γ^k·max_a Q̄(s_{t+k}, a) with s_{t+k}
// the state k steps later (k = 4, fewer at an episode's end); the code
// bootstraps with γ (not γ^k) from the last window element's own state
// s_{t+k−1}, which reads as a slip. Weights use the kit's PyTorch default
// initialization (U(±1/√fan_in)); the code re-initializes weights with
// Xavier-uniform.
//
// # Agents
//
// dqn: ε-greedy on Q.
//
// mcdropout-dqn: dropout 0.1 after each hidden layer, on in training and
// for acting: an action is the argmax of ONE stochastic forward pass
// (Thompson-like), after the same ε-greedy coin as dqn (the code's
// agent.py keeps ε); the bootstrap targets use one stochastic pass of the
// target network too, as in the code, where dropout is always on.
//
// boot-dqn: Bootstrapped DQN with randomized prior functions (Osband et al.
// 2016, 2018), after bsuite's baseline (bsuite/baselines/tf/boot_dqn):
// 20 heads, Q_k = f_k + 3·p_k with p_k a fixed random network, one head
// drawn uniformly per episode for acting (ties broken at random), each
// stored transition carrying a Bernoulli(0.5) mask per head that weights
// that head's loss, ε_t = 10/(10+t) with t the SGD steps. Unlike bsuite's 20
// separate networks, the heads share one in→50→50 torso with a 50→20·3
// output layer (Osband et al. 2016's shared-torso form; the prior network
// is a second such network, frozen, so its values at a transition's s and
// s′ are computed once, when the transition is stored), and the replay, batch, update and
// target periods and 4-step returns are the common settings above (bsuite:
// replay 10,000, batch 128, SGD every step, target every 4 SGD steps,
// 1-step targets): one network's cost instead of 20 fits the time budget,
// and the agents then differ only in how they explore. The greedy policy
// (Agent.Greedy, used only by tests) is the argmax of the heads' mean.
//
// deup-dqn: the paper's Algorithm "DEUP-DQN". An E-network with the
// Q-network's shape (1→50→50→3, softplus output; the code's Epn doubles the
// width to 100) maps the log-density of a state to one value per action; it
// is trained with each Q update, on the same batch, by MSE towards the
// squared TD error (y − Q(s, a))² + 1e-8 of the taken action, computed with
// the Q-network before its update (the Q update's own forward pass,
// nn.Trainer.Output), once more than 10,000 transitions are
// stored and a KDE exists. The KDE (deup.KDE, Gaussian product kernel) is
// refit every 10,000 steps on KDECentres = 500 distinct replay states; its
// bandwidth is deup.LikelihoodCV (leave-one-out likelihood over 41 scalings
// of Scott's rule) on KDECV = 300 of them, rescaled to 500 points by Scott's
// rate n^(−1/(d+4)). After 10,000 steps, an action (when the ε coin does
// not pick a random one) maximizes Q(s, ·) + 0.1·E(log d(s)). Before its
// burn-in deup-dqn is exactly dqn (same draws, same numbers).
//
// The density of a stored state does not change between refits, so it is
// computed once: when the transition is stored, and for every stored state
// at each refit (65,536 × 500 kernel terms) — not for the 64 states of
// every batch against every centre (64 × 10,000 per update in the paper's
// code). Log-densities are floored at −10^4. The paper fits its KDE on
// 10,000 sampled replay states with sklearn's GridSearchCV over
// bandwidths 10^(−3..2) and exponential/Gaussian kernels; 500 centres and
// the 300-point cross-validation are this package's, for the time budget
// (a refit on 10,000 centres costs 20 times as much), chosen before any
// result was seen.
//
// # Cost
//
// docs/rl.md gives the measured time per agent step (BenchmarkStep,
// BenchmarkKDERefit) and the full table's wall and CPU time.
package rl
