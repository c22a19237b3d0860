//! Section 6.1 of Li & Marsland: the psi distributions by height, their minimax back-up, and
//! D(d,h).
//!
//! All vectors are scaled integers over one denominator per height (see [`crate::numeric::number`]).
//! With `f1 = a/m`, `f2 = b/m` over a common denominator `m`:
//!
//! - psi at a Max node of height t (odd): `win = conv(w, a w + (m-a) l)`, `loss = m conv(l, l)`;
//!   at a Min node (even t): `loss = conv(l, b l + (m-b) w)`, `win = m conv(w, w)`; in both
//!   cases the new denominator is `m D^2`. (`conv(w, a w + (m-a) l)` is the paper's
//!   `f1 Pw*Pw + (1-f1) Pw*Pl`, with the two orders (win, loss) and (loss, win) of the
//!   `(1-f1)/2` cases added together, in one convolution instead of two.)
//! - back-up, on cumulative distributions `F(i) = Pr[Psi <= i]`: the maximum of independent
//!   values has the product of their CDFs, so a win Max node has `F = F_w (a F_w + (m-a) F_l)`
//!   and a loss Max node `m F_l^2`; a Min node does the same on survival functions
//!   `S(i) = Pr[Psi >= i] = D - F(i-1)`.
//! - `D(d,h) = 1 - 1/2 sum_i p_l(i) (F_w(i) + F_w(i-1))`, which is the paper's
//!   `Pr[Psi(g1) > Psi(g2)] + 1/2 Pr[Psi(g1) = Psi(g2)]` written with
//!   `Pr[Psi(g1) > i] + 1/2 Pr[Psi(g1) = i] = 1 - (F_w(i) + F_w(i-1))/2`.

use rayon::prelude::*;

use super::{DependenceFactors, error_bound};
use crate::cancel::{self, CancelToken};
use crate::error::{Error, Result};
use crate::model::Player;
use crate::numeric::fft::ConvolutionMethod;
use crate::numeric::number::{Probability, Scaled};

/// `f1 = a/m`, `f2 = b/m` and their complements, as scaled integers.
#[derive(Debug, Clone)]
struct Weights<S> {
    f1: S,
    not_f1: S,
    f2: S,
    not_f2: S,
    unit: S,
}

impl<S: Scaled> Weights<S> {
    fn new<P: Probability<Scaled = S>>(factors: &DependenceFactors<P>) -> Self {
        let (numerators, unit) = P::common_scale(&[factors.f1().clone(), factors.f2().clone()]);
        let (f1, f2) = (numerators[0].clone(), numerators[1].clone());
        Weights {
            not_f1: unit.sub(&f1),
            not_f2: unit.sub(&f2),
            f1,
            f2,
            unit,
        }
    }

    /// The weights of a node where the player to move is `player`: `(same, mixed)` is
    /// `(f1, 1 - f1)` for Max nodes and `(f2, 1 - f2)` for Min nodes.
    fn for_player(&self, player: Player) -> (&S, &S) {
        match player {
            Player::Max => (&self.f1, &self.not_f1),
            Player::Min => (&self.f2, &self.not_f2),
        }
    }

    fn scale(&self, v: &[S]) -> Vec<S> {
        map_entries::<S, _>(v.len(), |i| v[i].mul(&self.unit))
    }

    /// `same * x + mixed * y`, entrywise.
    fn mix(same: &S, x: &[S], mixed: &S, y: &[S]) -> Vec<S> {
        map_entries::<S, _>(x.len(), |i| {
            let mut acc = x[i].mul(same);
            acc.add_product(&y[i], mixed);
            acc
        })
    }
}

/// A pair of win/loss vectors over one denominator.
#[derive(Debug, Clone)]
struct ScaledPair<S> {
    win: Vec<S>,
    loss: Vec<S>,
    denominator: S,
}

impl<S: Scaled> ScaledPair<S> {
    fn to_probabilities<P: Probability<Scaled = S>>(&self) -> (Vec<P>, Vec<P>) {
        let read = |v: &[S]| {
            v.iter()
                .map(|x| P::from_scaled(x, &self.denominator))
                .collect()
        };
        (read(&self.win), read(&self.loss))
    }
}

/// The distributions of a value (psi, or a backed-up Psi) at a node of given height,
/// conditioned on the node's merit value: `win[i] = Pr[value = i | win]`,
/// `loss[i] = Pr[value = i | loss]`, for `i = 0..=2^t`.
#[derive(Debug, Clone, PartialEq)]
pub struct PsiDistribution<P> {
    /// `Pr[value = i | win]`.
    pub win: Vec<P>,
    /// `Pr[value = i | loss]`.
    pub loss: Vec<P>,
}

/// D(d,h) for every depth `d = 1..=h` at one height and one pair of dependence factors.
#[derive(Debug, Clone, PartialEq)]
pub struct DecisionColumn<P> {
    /// The dependence factors.
    pub factors: DependenceFactors<P>,
    /// The height h of the node where the decision is made.
    pub height: u32,
    /// `values[d - 1] = D(d, h)`.
    pub values: Vec<P>,
    /// `error_bounds[d - 1]` bounds `|values[d - 1] - D(d, h)|` rigorously (0 in exact mode;
    /// see [`super::error_bound`]).
    pub error_bounds: Vec<f64>,
}

impl<P: Probability> DecisionColumn<P> {
    /// `D(depth, height)`, for `1 <= depth <= height`.
    ///
    /// # Panics
    ///
    /// When `depth` is 0 or greater than the column's height.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// use pathology::numeric::number::{Probability, parse_rational};
    /// let f = parse_rational("0.1").unwrap();
    /// let column = Solver::new(DependenceFactors::new(f.clone(), f).unwrap())
    ///     .decision_column(10)
    ///     .unwrap();
    /// assert_eq!(column.value(1).to_decimal(3), "0.608"); // Table 1, first cell
    /// assert_eq!(column.value(9), &Probability::certain()); // D(h-1,h) = 1
    /// assert_eq!(column.value(10), &Probability::certain()); // D(h,h) = 1
    /// ```
    pub fn value(&self, depth: u32) -> &P {
        &self.values[depth as usize - 1]
    }

    /// The pathological sum: `sum over 1 < d <= h of max(0, D(d-1,h) - D(d,h))`
    /// (Section 6.2). In exact mode the sum is exact; in float mode pairs whose difference
    /// is float noise add noise (use [`super::threshold`] to classify pairs rigorously).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// use pathology::numeric::number::{Probability, parse_rational};
    /// let column = Solver::new(DependenceFactors::new(0.1, 0.1).unwrap()).decision_column(10).unwrap();
    /// assert_eq!(format!("{:.3}", column.pathological_sum()), "0.038"); // Table 1, f = 0.1
    /// // f1 = 1: every D(d,h) is 1 (Proposition 4.1), so nothing is pathological.
    /// let one = parse_rational("1").unwrap();
    /// let half = parse_rational("1/2").unwrap();
    /// let column = Solver::new(DependenceFactors::new(one, half).unwrap()).decision_column(6).unwrap();
    /// assert_eq!(column.pathological_sum(), Probability::impossible());
    /// ```
    pub fn pathological_sum(&self) -> P {
        self.values.windows(2).fold(P::impossible(), |sum, pair| {
            let drop = pair[0].minus(&pair[1]);
            if drop > P::impossible() {
                sum.plus(&drop)
            } else {
                sum
            }
        })
    }
}

/// Computes psi distributions, backed-up distributions and D(d,h) for one pair of dependence
/// factors. psi distributions are computed once per height and cached.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::{DependenceFactors, Solver};
/// let mut solver = Solver::new(DependenceFactors::new(0.1, 0.1).unwrap());
/// let column = solver.decision_column(10).unwrap();
/// assert_eq!(format!("{:.3}", column.value(1)), "0.608"); // Table 1, first cell
/// assert_eq!(format!("{:.3}", column.pathological_sum()), "0.038");
/// ```
#[derive(Debug, Clone)]
pub struct Solver<P: Probability> {
    factors: DependenceFactors<P>,
    weights: Weights<P::Scaled>,
    psi: Vec<ScaledPair<P::Scaled>>,
    /// L1 rounding-error bound of the psi pmfs by height (all 0 in exact mode).
    psi_error: Vec<f64>,
    method: ConvolutionMethod,
}

/// The largest height the engine addresses at all (`2^h` entries must be indexable); the
/// practical limit is set by [`super::check_cost`].
pub const MAX_HEIGHT: u32 = 40;

impl<P: Probability> Solver<P> {
    /// A solver for the given dependence factors.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// let mut solver = Solver::new(DependenceFactors::new(0.5, 0.5).unwrap());
    /// // With the search front at height 1, minimax sees the merit values: D(h-1,h) = 1.
    /// assert_eq!(solver.correct_decision_probability(1, 2).unwrap(), 1.0);
    /// ```
    pub fn new(factors: DependenceFactors<P>) -> Self {
        let weights = Weights::new(&factors);
        let one = P::Scaled::one_value();
        let leaf = ScaledPair {
            win: vec![P::Scaled::zero_value(), one.clone()],
            loss: vec![one.clone(), P::Scaled::zero_value()],
            denominator: one,
        };
        Solver {
            factors,
            weights,
            psi: vec![leaf],
            psi_error: vec![0.0],
            method: ConvolutionMethod::Auto,
        }
    }

    /// The same solver with `f64` convolutions computed by `method` (exact mode ignores it).
    /// The default, [`ConvolutionMethod::Auto`], uses an FFT for long vectors.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// use pathology::numeric::fft::ConvolutionMethod;
    /// let factors = DependenceFactors::new(0.4, 0.4).unwrap();
    /// let direct = Solver::new(factors.clone()).with_method(ConvolutionMethod::Direct).decision_column(12).unwrap();
    /// let fft = Solver::new(factors).with_method(ConvolutionMethod::Fft).decision_column(12).unwrap();
    /// for d in 0..12 {
    ///     let gap = (direct.values[d] - fft.values[d]).abs();
    ///     assert!(gap <= direct.error_bounds[d] + fft.error_bounds[d]);
    /// }
    /// ```
    pub fn with_method(mut self, method: ConvolutionMethod) -> Self {
        self.psi.truncate(1);
        self.psi_error.truncate(1);
        self.method = method;
        self
    }

    /// The dependence factors.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// let solver = Solver::new(DependenceFactors::new(0.3, 0.7).unwrap());
    /// assert_eq!(solver.factors().f1(), &0.3);
    /// assert_eq!(solver.factors().f2(), &0.7);
    /// ```
    pub fn factors(&self) -> &DependenceFactors<P> {
        &self.factors
    }

    /// Caches psi up to `height`, a whole level at a time; checks the [`crate::cancel`]
    /// token before each level.
    fn ensure_psi(&mut self, height: u32) -> Result<()> {
        let cancel = cancel::current();
        while self.psi.len() <= height as usize {
            cancel.check()?;
            let t = self.psi.len() as u32;
            let child = self.psi.last().expect("the leaf level is always present");
            let player = Player::to_move_at_height(t);
            let (next, rounding) = psi_step(&self.weights, child, player, self.method);
            let e = *self.psi_error.last().expect("one bound per level");
            let u = <P::Scaled as Scaled>::UNIT_ROUNDOFF;
            self.psi_error
                .push(error_bound::psi_level_error(e, rounding.0, rounding.1, u));
            self.psi.push(next);
        }
        Ok(())
    }

    /// `Pr[psi(g) = i | h(g) = height, win(g)]` and `... loss(g)]` for `i = 0..=2^height`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// let mut solver = Solver::new(DependenceFactors::new(0.25, 0.5).unwrap());
    /// let psi = solver.psi_distribution(1).unwrap();
    /// assert_eq!(psi.win, vec![0.0, 0.75, 0.25]); // a win Max node: one or two 1-squares
    /// assert_eq!(psi.loss, vec![1.0, 0.0, 0.0]);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] when `height` exceeds [`MAX_HEIGHT`];
    /// [`Error::Interrupted`] when cancelled ([`crate::cancel`]).
    pub fn psi_distribution(&mut self, height: u32) -> Result<PsiDistribution<P>> {
        check_height(height)?;
        self.ensure_psi(height)?;
        let (win, loss) = self.psi[height as usize].to_probabilities();
        Ok(PsiDistribution { win, loss })
    }

    /// The distributions of the minimax backed-up value `Psi` at a node of height
    /// `node_height`, when psi is evaluated at the search front `frontier_height` and backed
    /// up by minimax (`frontier_height <= node_height`).
    ///
    /// # Examples
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// use pathology::numeric::number::parse_rational;
    /// let f = parse_rational("0.3").unwrap();
    /// let mut solver = Solver::new(DependenceFactors::new(f.clone(), f).unwrap());
    /// // Backed up from the leaves, Psi is the merit value: 1 at a win node, 0 at a loss node.
    /// let psi = solver.backed_up_distribution(0, 3).unwrap();
    /// let (zero, one) = (BigRational::from_integer(0.into()), BigRational::from_integer(1.into()));
    /// assert_eq!(psi.win, vec![zero.clone(), one.clone()]);
    /// assert_eq!(psi.loss, vec![one, zero]);
    /// // With no back-up levels it is the psi distribution itself.
    /// assert_eq!(solver.backed_up_distribution(3, 3).unwrap(), solver.psi_distribution(3).unwrap());
    /// assert!(solver.backed_up_distribution(4, 3).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] when `frontier_height > node_height` or a height exceeds
    /// [`MAX_HEIGHT`]; [`Error::Interrupted`] when cancelled ([`crate::cancel`]).
    pub fn backed_up_distribution(
        &mut self,
        frontier_height: u32,
        node_height: u32,
    ) -> Result<PsiDistribution<P>> {
        check_height(node_height)?;
        if frontier_height > node_height {
            return Err(Error::invalid(
                "frontier height",
                &format!("at most the node height {node_height}"),
                frontier_height,
            ));
        }
        self.ensure_psi(frontier_height)?;
        let cdf = self.backed_up_cdf(frontier_height, node_height, &cancel::current())?;
        let pmf = |f: &[P::Scaled]| -> Vec<P::Scaled> {
            (0..f.len())
                .map(|i| {
                    if i == 0 {
                        f[0].clone()
                    } else {
                        f[i].sub(&f[i - 1])
                    }
                })
                .collect()
        };
        let pair = ScaledPair {
            win: pmf(&cdf.win),
            loss: pmf(&cdf.loss),
            denominator: cdf.denominator,
        };
        let (win, loss) = pair.to_probabilities();
        Ok(PsiDistribution { win, loss })
    }

    /// CDFs of Psi at `node_height` with the search front at `frontier_height` (psi cached),
    /// checking `cancel` before each level.
    fn backed_up_cdf(
        &self,
        frontier_height: u32,
        node_height: u32,
        cancel: &CancelToken,
    ) -> Result<ScaledPair<P::Scaled>> {
        let front = &self.psi[frontier_height as usize];
        let mut cdf = ScaledPair {
            win: prefix_sums(&front.win),
            loss: prefix_sums(&front.loss),
            denominator: front.denominator.clone(),
        };
        for t in frontier_height + 1..=node_height {
            cancel.check()?;
            cdf = back_up_step(&self.weights, &cdf, Player::to_move_at_height(t));
        }
        Ok(cdf)
    }

    /// `D(depth, height)`: the probability that a depth-`depth` minimax search with psi at a
    /// node of height `height`, one of whose children is a win and the other a loss, prefers
    /// the win child (ties broken at random).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// use pathology::numeric::number::parse_rational;
    /// let f = parse_rational("0.3").unwrap();
    /// let mut solver = Solver::new(DependenceFactors::new(f.clone(), f).unwrap());
    /// let d = solver.correct_decision_probability(9, 10).unwrap();
    /// assert_eq!(d, parse_rational("1").unwrap()); // the front at height 1 sees merit values
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] unless `1 <= depth <= height <= MAX_HEIGHT`;
    /// [`Error::Interrupted`] when cancelled ([`crate::cancel`]).
    pub fn correct_decision_probability(&mut self, depth: u32, height: u32) -> Result<P> {
        check_depth(depth, height)?;
        self.ensure_psi(height - depth)?;
        Ok(self.decision_at(depth, height, &cancel::current())?.0)
    }

    /// `D(depth, height)` as an unreduced fraction `(numerator, denominator)` of scaled
    /// integers, denominator positive. Reducing a fraction of a few hundred thousand bits
    /// costs far more than computing it; comparisons do not need it.
    ///
    /// # Examples
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// use pathology::numeric::number::parse_rational;
    /// let f = parse_rational("0.1").unwrap();
    /// let mut solver = Solver::new(DependenceFactors::new(f.clone(), f).unwrap());
    /// let (numerator, denominator) = solver.correct_decision_fraction(1, 6).unwrap();
    /// assert_eq!(
    ///     BigRational::new(numerator, denominator),
    ///     solver.correct_decision_probability(1, 6).unwrap()
    /// );
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] unless `1 <= depth <= height <= MAX_HEIGHT`;
    /// [`Error::Interrupted`] when cancelled ([`crate::cancel`]).
    pub fn correct_decision_fraction(
        &mut self,
        depth: u32,
        height: u32,
    ) -> Result<(P::Scaled, P::Scaled)> {
        check_depth(depth, height)?;
        self.ensure_psi(height - depth)?;
        let cdf = self.backed_up_cdf(height - depth, height - 1, &cancel::current())?;
        Ok(decision_from_cdfs(&cdf))
    }

    /// D(d,h) and its rounding bound, with psi already cached up to height `h - d`.
    fn decision_at(&self, depth: u32, height: u32, cancel: &CancelToken) -> Result<(P, f64)> {
        let front = height - depth;
        let cdf = self.backed_up_cdf(front, height - 1, cancel)?;
        let (numerator, denominator) = decision_from_cdfs(&cdf);
        let u = <P::Scaled as Scaled>::UNIT_ROUNDOFF;
        let bound = error_bound::decision_error(self.psi_error[front as usize], front, height, u);
        Ok((P::from_scaled(&numerator, &denominator), bound))
    }

    /// A rigorous bound on the rounding error of [`Solver::correct_decision_probability`]
    /// (0 in exact mode).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// use pathology::numeric::number::{Probability, parse_rational};
    /// let mut float = Solver::new(DependenceFactors::new(0.1, 0.1).unwrap());
    /// let approximate = float.correct_decision_probability(1, 8).unwrap();
    /// let bound = float.decision_error_bound(1, 8).unwrap();
    /// assert!(bound > 0.0 && bound < 1e-11);
    /// // The exact value at f = 1/10 lies within the bound.
    /// let f = parse_rational("0.1").unwrap();
    /// let mut exact = Solver::new(DependenceFactors::new(f.clone(), f).unwrap());
    /// let d = exact.correct_decision_probability(1, 8).unwrap();
    /// assert!((d.to_f64() - approximate).abs() <= bound);
    /// assert_eq!(exact.decision_error_bound(1, 8).unwrap(), 0.0);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] unless `1 <= depth <= height <= MAX_HEIGHT`;
    /// [`Error::Interrupted`] when cancelled ([`crate::cancel`]).
    pub fn decision_error_bound(&mut self, depth: u32, height: u32) -> Result<f64> {
        check_depth(depth, height)?;
        self.ensure_psi(height - depth)?;
        let u = <P::Scaled as Scaled>::UNIT_ROUNDOFF;
        let front = height - depth;
        Ok(error_bound::decision_error(
            self.psi_error[front as usize],
            front,
            height,
            u,
        ))
    }

    /// D(d, `height`) for every `d = 1..=height`, the depths computed in parallel.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// let mut solver = Solver::new(DependenceFactors::new(0.1, 0.1).unwrap());
    /// let column = solver.decision_column(10).unwrap();
    /// assert_eq!(column.values.len(), 10);
    /// assert_eq!(format!("{:.3}", column.value(1)), "0.608"); // Table 1, first cell
    /// assert!(column.error_bounds.iter().all(|&b| b > 0.0 && b < 1e-10)); // f64 rounding
    /// assert!(solver.decision_column(0).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] unless `1 <= height <= MAX_HEIGHT`;
    /// [`Error::Interrupted`] when cancelled ([`crate::cancel`]: checked once per level).
    /// (Cost limits are the caller's: see [`super::check_cost`].)
    pub fn decision_column(&mut self, height: u32) -> Result<DecisionColumn<P>> {
        check_depth(1, height)?;
        self.ensure_psi(height - 1)?;
        let this = &*self;
        let cancel = cancel::current();
        let (values, error_bounds) = (1..=height)
            .into_par_iter()
            .map(|d| this.decision_at(d, height, &cancel))
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .unzip();
        Ok(DecisionColumn {
            factors: self.factors.clone(),
            height,
            values,
            error_bounds,
        })
    }
}

fn check_height(height: u32) -> Result<()> {
    if height > MAX_HEIGHT {
        return Err(Error::invalid(
            "height",
            &format!("at most {MAX_HEIGHT}"),
            height,
        ));
    }
    Ok(())
}

/// Checks `1 <= depth <= height <= MAX_HEIGHT`.
pub(crate) fn check_depth(depth: u32, height: u32) -> Result<()> {
    if height == 0 || height > MAX_HEIGHT {
        return Err(Error::invalid(
            "height",
            &format!("in 1..={MAX_HEIGHT}"),
            height,
        ));
    }
    if depth == 0 || depth > height {
        return Err(Error::invalid(
            "depth",
            &format!("in 1..={height} (at most the height)"),
            depth,
        ));
    }
    Ok(())
}

/// One level of the psi recursion: the distributions at height t from those at t - 1, and
/// the rounding bounds of its two convolutions.
fn psi_step<S: Scaled>(
    weights: &Weights<S>,
    child: &ScaledPair<S>,
    player: Player,
    method: ConvolutionMethod,
) -> (ScaledPair<S>, (f64, f64)) {
    let (same, mixed) = weights.for_player(player);
    // `favoured` is the merit value whose children are mixed: win for Max, loss for Min.
    let (favoured, other) = match player {
        Player::Max => (&child.win, &child.loss),
        Player::Min => (&child.loss, &child.win),
    };
    let ((mixed_children, mixed_rounding), (forced, forced_rounding)) =
        S::convolve_pair_with_bound(favoured, other, same, mixed, method);
    let forced_children = weights.scale(&forced);
    let denominator = weights.unit.mul(&child.denominator.mul(&child.denominator));
    let (win, loss) = match player {
        Player::Max => (mixed_children, forced_children),
        Player::Min => (forced_children, mixed_children),
    };
    let pair = ScaledPair {
        win,
        loss,
        denominator,
    };
    (pair, (mixed_rounding, forced_rounding))
}

/// `f(i)` for `i = 0..n`: on rayon in tasks of [`Scaled::PARALLEL_GRAIN`] entries, or in
/// order on this thread.
fn map_entries<S: Scaled, T: Send>(n: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    match S::PARALLEL_GRAIN {
        Some(grain) => (0..n).into_par_iter().with_min_len(grain).map(f).collect(),
        None => (0..n).map(f).collect(),
    }
}

/// Prefix sums by recursive summation (also the CDFs of [`super::complement`]).
pub(super) fn prefix_sums<S: Scaled>(v: &[S]) -> Vec<S> {
    let mut acc = S::zero_value();
    v.iter()
        .map(|x| {
            acc = acc.add(x);
            acc.clone()
        })
        .collect()
}

/// One level of minimax back-up on CDFs: the CDFs at a node of the given player's type from
/// those of its children.
fn back_up_step<S: Scaled>(
    weights: &Weights<S>,
    child: &ScaledPair<S>,
    player: Player,
) -> ScaledPair<S> {
    let d = &child.denominator;
    let denominator = weights.unit.mul(&d.mul(d));
    let (same, mixed) = weights.for_player(player);
    // Max combines CDFs; Min combines survival functions S(i) = D - F(i-1).
    let (fav, oth) = match player {
        Player::Max => (child.win.clone(), child.loss.clone()),
        Player::Min => (survival(&child.loss, d), survival(&child.win, d)),
    };
    let mix = Weights::mix(same, &fav, mixed, &oth);
    let combined_favoured = map_entries::<S, _>(fav.len(), |i| fav[i].mul(&mix[i]));
    let combined_other = map_entries::<S, _>(oth.len(), |i| oth[i].mul(&oth[i]).mul(&weights.unit));
    match player {
        Player::Max => ScaledPair {
            win: combined_favoured,
            loss: combined_other,
            denominator,
        },
        Player::Min => ScaledPair {
            win: cdf_from_survival(&combined_other, &denominator),
            loss: cdf_from_survival(&combined_favoured, &denominator),
            denominator,
        },
    }
}

/// `S(i) = D - F(i-1)`, with `S(0) = D`.
fn survival<S: Scaled>(cdf: &[S], denominator: &S) -> Vec<S> {
    map_entries::<S, _>(cdf.len(), |i| {
        if i == 0 {
            denominator.clone()
        } else {
            denominator.sub(&cdf[i - 1])
        }
    })
}

/// `F(i) = D - S(i+1)`, with `F(n) = D`.
fn cdf_from_survival<S: Scaled>(survival: &[S], denominator: &S) -> Vec<S> {
    let n = survival.len();
    map_entries::<S, _>(n, |i| {
        if i + 1 == n {
            denominator.clone()
        } else {
            denominator.sub(&survival[i + 1])
        }
    })
}

/// `D = 1 - 1/2 sum_i p_l(i) (F_w(i) + F_w(i-1))` as `(numerator, denominator)`:
/// `(2 D^2 - sum_i p_l(i) (F_w(i) + F_w(i-1))) / (2 D^2)` in scaled units.
fn decision_from_cdfs<S: Scaled>(cdf: &ScaledPair<S>) -> (S, S) {
    let zero = S::zero_value();
    // sum_i p_l(i) (F_w(i) + F_w(i-1)) over the entries `range`, in order.
    let partial = |range: std::ops::Range<usize>| {
        let mut sum = S::zero_value();
        for i in range {
            let (fl_prev, fw_prev) = if i == 0 {
                (&zero, &zero)
            } else {
                (&cdf.loss[i - 1], &cdf.win[i - 1])
            };
            let pl = cdf.loss[i].sub(fl_prev);
            if pl.is_zero_value() {
                continue;
            }
            sum.add_product(&pl, &cdf.win[i].add(fw_prev));
        }
        sum
    };
    let n = cdf.loss.len();
    let sum = match S::PARALLEL_GRAIN {
        // Exact rings: the order of the sum does not matter.
        Some(grain) => (0..n.div_ceil(grain))
            .into_par_iter()
            .map(|k| partial(k * grain..((k + 1) * grain).min(n)))
            .reduce(S::zero_value, |a, b| a.add(&b)),
        None => partial(0..n),
    };
    let d2 = cdf.denominator.mul(&cdf.denominator);
    let two_d2 = d2.add(&d2);
    (two_d2.sub(&sum), two_d2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;
    use approx::assert_abs_diff_eq;
    use num_rational::BigRational;
    use num_traits::{One, Zero};
    use proptest::prelude::*;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    fn exact_solver(f1: &str, f2: &str) -> Solver<BigRational> {
        Solver::new(DependenceFactors::new(q(f1), q(f2)).unwrap())
    }

    /// Direct enumeration of all merit assignments of a small tree, for an independent check
    /// of the recursion: returns Pr[psi = i | root merit] at height `t` in exact arithmetic.
    fn enumerate_psi(f1: &BigRational, f2: &BigRational, t: u32, win: bool) -> Vec<BigRational> {
        struct Walk<'a> {
            f1: &'a BigRational,
            f2: &'a BigRational,
            out: Vec<BigRational>,
        }
        impl Walk<'_> {
            /// Expands node (t, win) with probability `weight`; `pending` holds the nodes
            /// still to expand and `count` the 1-squares found so far.
            fn walk(
                &mut self,
                t: u32,
                win: bool,
                weight: BigRational,
                count: usize,
                pending: &mut Vec<(u32, bool)>,
            ) {
                if t == 0 {
                    let count = count + usize::from(win);
                    match pending.pop() {
                        None => self.out[count] += weight,
                        Some((t2, w2)) => self.walk(t2, w2, weight, count, pending),
                    }
                    return;
                }
                let half = BigRational::new(1.into(), 2.into());
                let one = BigRational::from_integer(1.into());
                let (f1, f2) = (self.f1.clone(), self.f2.clone());
                let options: Vec<((bool, bool), BigRational)> = match (t % 2 == 1, win) {
                    (true, true) => vec![
                        ((true, true), f1.clone()),
                        ((true, false), (&one - &f1) * &half),
                        ((false, true), (&one - &f1) * &half),
                    ],
                    (true, false) => vec![((false, false), one.clone())],
                    (false, false) => vec![
                        ((false, false), f2.clone()),
                        ((true, false), (&one - &f2) * &half),
                        ((false, true), (&one - &f2) * &half),
                    ],
                    (false, true) => vec![((true, true), one.clone())],
                };
                for ((a, b), p) in options {
                    if p == BigRational::from_integer(0.into()) {
                        continue;
                    }
                    let mut pending2 = pending.clone();
                    pending2.push((t - 1, b));
                    self.walk(t - 1, a, &weight * &p, count, &mut pending2);
                }
            }
        }
        let mut w = Walk {
            f1,
            f2,
            out: vec![BigRational::from_integer(0.into()); (1usize << t) + 1],
        };
        w.walk(
            t,
            win,
            BigRational::from_integer(1.into()),
            0,
            &mut Vec::new(),
        );
        w.out
    }

    #[test]
    fn psi_recursion_matches_enumeration() {
        let (f1, f2) = (q("1/3"), q("0.7"));
        let mut solver = exact_solver("1/3", "0.7");
        for t in 0..=4 {
            let psi = solver.psi_distribution(t).unwrap();
            assert_eq!(psi.win, enumerate_psi(&f1, &f2, t, true), "win, height {t}");
            assert_eq!(
                psi.loss,
                enumerate_psi(&f1, &f2, t, false),
                "loss, height {t}"
            );
        }
    }

    #[test]
    fn psi_distributions_sum_to_exactly_one() {
        let mut solver = exact_solver("0.1", "0.9");
        for t in 0..=9 {
            let psi = solver.psi_distribution(t).unwrap();
            assert_eq!(psi.win.len(), (1 << t) + 1);
            let total = |v: &[BigRational]| v.iter().fold(BigRational::zero(), |a, b| a + b);
            assert_eq!(total(&psi.win), BigRational::one(), "win, height {t}");
            assert_eq!(total(&psi.loss), BigRational::one(), "loss, height {t}");
        }
    }

    #[test]
    fn backed_up_distributions_sum_to_one_and_match_psi_at_the_front() {
        let mut solver = exact_solver("0.4", "0.35");
        let front = solver.psi_distribution(3).unwrap();
        assert_eq!(solver.backed_up_distribution(3, 3).unwrap(), front);
        for node in 3..=7 {
            let b = solver.backed_up_distribution(3, node).unwrap();
            let total = |v: &[BigRational]| v.iter().fold(BigRational::zero(), |a, b| a + b);
            assert_eq!(total(&b.win), BigRational::one());
            assert_eq!(total(&b.loss), BigRational::one());
        }
    }

    #[test]
    fn backed_up_value_is_minimax_of_children_by_hand() {
        // Height 2 (Min) node over height-1 (Max) children with psi evaluated at height 1.
        // A win Min node has two win Max children, whose psi is 1 w.p. 1-f1, 2 w.p. f1.
        // min of two: 2 w.p. f1^2, otherwise 1.
        let mut solver = exact_solver("1/4", "1/2");
        let b = solver.backed_up_distribution(1, 2).unwrap();
        assert_eq!(b.win, vec![q("0"), q("15/16"), q("1/16")]);
        // A loss Min node: (loss, loss) w.p. 1/2 -> 0; one loss child -> min is 0 too.
        assert_eq!(b.loss, vec![q("1"), q("0"), q("0")]);
    }

    #[test]
    fn last_two_depths_decide_correctly_with_certainty() {
        for h in 2..=12 {
            let mut solver = exact_solver("0.3", "0.45");
            assert!(
                solver.correct_decision_probability(h, h).unwrap().is_one(),
                "D({h},{h})"
            );
            assert!(
                solver
                    .correct_decision_probability(h - 1, h)
                    .unwrap()
                    .is_one(),
                "D({},{h})",
                h - 1
            );
        }
    }

    #[test]
    fn propositions_4_1_and_4_2_hold_exactly_at_every_depth() {
        // f1 = 1 (Proposition 4.1), f1 = f2 = 0 (Proposition 4.2), and f2 = 1, which the paper
        // states without proof: below a loss node every leaf is a loss, so psi(loss) = 0 < psi(win).
        for (f1, f2) in [
            ("1", "0"),
            ("1", "0.37"),
            ("1", "1"),
            ("0", "0"),
            ("0", "1"),
            ("0.3", "1"),
        ] {
            let mut solver = exact_solver(f1, f2);
            let column = solver.decision_column(10).unwrap();
            for (d, v) in column.values.iter().enumerate() {
                assert!(v.is_one(), "f1={f1} f2={f2} d={}: {v}", d + 1);
            }
        }
    }

    #[test]
    fn depth_one_is_a_direct_comparison_of_psi() {
        // D(1,h) = Pr[psi(g1) > psi(g2)] + 1/2 Pr[=] with g1 win, g2 loss at height h-1.
        let mut solver = exact_solver("0.2", "0.6");
        let psi = solver.psi_distribution(4).unwrap();
        let mut expected = BigRational::zero();
        for (i, pw) in psi.win.iter().enumerate() {
            for (j, pl) in psi.loss.iter().enumerate() {
                if i > j {
                    expected += pw * pl;
                } else if i == j {
                    expected += pw * pl / BigRational::from_integer(2.into());
                }
            }
        }
        assert_eq!(solver.correct_decision_probability(1, 5).unwrap(), expected);
    }

    #[test]
    fn float_agrees_with_exact_within_1e_12() {
        for (f1, f2) in [
            ("0.1", "0.1"),
            ("0.5", "0.5"),
            ("0.3", "0.7"),
            ("0.05", "0.95"),
        ] {
            let exact = exact_solver(f1, f2).decision_column(10).unwrap();
            let factors = DependenceFactors::new(q(f1).to_f64(), q(f2).to_f64()).unwrap();
            let float = Solver::new(factors).decision_column(10).unwrap();
            for (e, f) in exact.values.iter().zip(&float.values) {
                assert_abs_diff_eq!(e.to_f64(), *f, epsilon = 1e-12);
            }
            assert_abs_diff_eq!(
                exact.pathological_sum().to_f64(),
                float.pathological_sum(),
                epsilon = 1e-12
            );
        }
    }

    #[test]
    fn fft_and_direct_paths_agree_within_their_bounds() {
        for h in [6u32, 9, 12] {
            for (f1, f2) in [(0.1, 0.1), (0.45, 0.6), (0.9, 0.2)] {
                let factors = DependenceFactors::new(f1, f2).unwrap();
                let column = |m| {
                    Solver::new(factors.clone())
                        .with_method(m)
                        .decision_column(h)
                        .unwrap()
                };
                let (direct, fft) = (
                    column(ConvolutionMethod::Direct),
                    column(ConvolutionMethod::Fft),
                );
                for d in 0..h as usize {
                    let gap = (direct.values[d] - fft.values[d]).abs();
                    let allowed = direct.error_bounds[d] + fft.error_bounds[d];
                    assert!(
                        gap <= allowed,
                        "h={h} f=({f1},{f2}) d={}: {gap:e} > {allowed:e}",
                        d + 1
                    );
                }
            }
        }
    }

    #[test]
    fn rejects_depth_and_height_out_of_range() {
        let mut solver = exact_solver("0.5", "0.5");
        assert!(solver.correct_decision_probability(0, 5).is_err());
        assert!(solver.correct_decision_probability(6, 5).is_err());
        assert!(solver.decision_column(0).is_err());
        let err = solver.correct_decision_probability(11, 10).unwrap_err();
        assert_eq!(
            err.to_string(),
            "depth must be in 1..=10 (at most the height), got 11"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn exact_distributions_are_probability_vectors(a in 0u32..=20, b in 0u32..=20, t in 0u32..7) {
            let f1 = BigRational::new(a.into(), 20.into());
            let f2 = BigRational::new(b.into(), 20.into());
            let mut solver = Solver::new(DependenceFactors::new(f1, f2).unwrap());
            let psi = solver.psi_distribution(t).unwrap();
            let total = |v: &[BigRational]| v.iter().fold(BigRational::zero(), |a, b| a + b);
            prop_assert!(total(&psi.win).is_one() && total(&psi.loss).is_one());
            prop_assert!(psi.win.iter().chain(&psi.loss).all(|p| *p >= BigRational::zero()));
            let column = solver.decision_column(t + 1).unwrap();
            for v in &column.values {
                prop_assert!(*v >= BigRational::zero() && *v <= BigRational::one());
            }
        }

        #[test]
        fn float_agrees_with_exact(a in 0u32..=100, b in 0u32..=100, h in 1u32..=9) {
            let f1 = BigRational::new(a.into(), 100.into());
            let f2 = BigRational::new(b.into(), 100.into());
            let exact = Solver::new(DependenceFactors::new(f1.clone(), f2.clone()).unwrap()).decision_column(h).unwrap();
            let float = Solver::new(DependenceFactors::new(f1.to_f64(), f2.to_f64()).unwrap()).decision_column(h).unwrap();
            for (e, f) in exact.values.iter().zip(&float.values) {
                prop_assert!((e.to_f64() - f).abs() <= 1e-12);
            }
        }
    }
}
