//! **Layer 7, curves from evaluation samples.** May import [`crate::numeric`],
//! [`crate::report`], [`crate::budget`], [`crate::model`], [`crate::analytic`] and
//! [`crate::sim`] (and the layer-1 [`crate::cancel`] and [`crate::progress`]); a peer of
//! [`crate::studies`], [`crate::domains`] and [`crate::inference_sim`], so none of them
//! imports another.
//!
//! `pathology samples` starts from data: for each problem, n sampled answers, whether each
//! is correct, and optionally the answer and a verifier's score ([`input`]). For a budget k,
//! k of a problem's n samples are drawn uniformly without replacement; every metric is the
//! **exact expectation over all `C(n, k)` subsets** (so the unbiased estimate of the metric
//! with k fresh samples), averaged over problems ([`curves`]):
//!
//! - `pass_at_k = 1 - C(n - c, k) / C(n, k)`, the unbiased estimator of Chen et al. (2021,
//!   "Evaluating Large Language Models Trained on Code", arXiv 2107.03374, eq. 1);
//! - `pass_all = C(c, k) / C(n, k)`: every drawn sample is correct;
//! - `majority`: the plurality answer of the drawn samples is correct; samples with no answer
//!   do not vote, a subset with no answer is wrong, a tie among t answers picks one
//!   uniformly (`(number of correct tied answers) / t`), or counts as wrong with
//!   `--ties wrong`; several distinct answers may be correct;
//! - `best_of_k`: the drawn sample of the largest score is correct, ties uniform:
//!   `sum_s (c_s / a_s) [C(a_s + L_s, k) - C(L_s, k)] / C(n, k)` over the score levels s.
//!
//! Each curve's standard error is over problems (`sd / sqrt(P)`), with a normal 95% interval:
//! the value is exact, its uncertainty is the sampling of problems (and of the n samples
//! per problem). [`report`] builds the reports of `samples curves` (the curves, the best k,
//! the budgets where a curve falls and the claims that it does, decided on the paired
//! per-problem differences with Holm's correction); [`compare`] pairs two files by problem
//! id and puts a simultaneous band over the k list on their difference; [`fit`] is the
//! nonparametric maximum likelihood estimate of the mix of per-problem success rates, with
//! its certificate, as the `--tasks` string of `pathology inference`; [`beyond`] is the sharp
//! range of pass@k beyond the samples drawn, over every law of the failure rate with the
//! data's first moments (the Markov-Krein extremes); [`simulate`] draws the k-subsets
//! literally (`pathology mc samples`) and puts the estimates beside the exact curves.

mod band;
pub mod beyond;
pub mod compare;
pub mod curves;
pub mod fit;
pub mod input;
pub mod moments;
pub mod report;
pub mod shards;
pub mod simulate;
