//! Convolution of non-negative `f64` vectors by FFT, with a rigorous rounding-error bound.
//!
//! The direct convolution is quadratic in the length, which makes D(d,h) quadratic in `2^h`
//! (h = 20 needs vectors of length 2^19). This module multiplies in the
//! frequency domain instead: `c = F^-1 (F a . F b)` with radix-2 FFTs of length `N = 2^t`.
//!
//! # The algorithm
//!
//! We write the FFT ourselves (about 100 lines) rather than use a library because the error
//! analysis below is a theorem about exactly this algorithm.
//!
//! * **Length.** The linear convolution has `L = len(a) + len(b) - 1` entries. If `L` is a
//!   little more than a power of two (at most [`WRAP_LIMIT`] more, as for the `2^k + 1`
//!   vectors of the D-game, `L = 2^(k+1) + 1`) we compute the *cyclic* convolution of length
//!   `N = 2^(k+1)` instead of padding to `2^(k+2)`: only the first `w = L - N` entries wrap
//!   around, and those `2w` entries `c[0..w]`, `c[N..L]` (each a sum of at most `w`
//!   products) are computed directly.
//! * **Transforms.** The forward transform is the radix-2 decimation-in-frequency
//!   (Gentleman-Sande) FFT with natural-order input and bit-reversed output, the inverse the
//!   radix-2 decimation-in-time (Cooley-Tukey) FFT with bit-reversed input and natural output,
//!   so no bit-reversal permutation is ever done: the pointwise product does not care about
//!   the order. Both recurse on halves (cache-friendly, and the halves of large blocks run in
//!   parallel) and read per-stage weight tables `w_h[k] = exp(-i pi k / h)`, `k < h`, which
//!   are computed once per process and shared.
//! * **Two real inputs in one transform.** For `a != b` we transform `z = a + i b` once and
//!   separate `2 F a = Z + R Z`, `2 F b = -i (Z - R Z)` with `(R Z)[k] = conj Z[-k]` (in
//!   bit-reversed order the partner of position `p` in `[2^m, 2^(m+1))` is `3 2^m - 1 - p`).
//!   The product is Hermitian, so only half of it is multiplied and the other half is its
//!   exact conjugate. The result is scaled by `1 / (4N)` (a power of two: exact).
//! * **A square** (`a == b`, as in the D-game's `other * other`) needs one forward transform.
//!
//! So a convolution costs two transforms of length `N` (it cost three of length `2N`).
//!
//! # The bound
//!
//! Write `u = 2^-53`, `gamma_k = k u / (1 - k u)`, `mu` for the absolute error of a computed
//! weight, and `||.||` for the 2-norm. The proof follows Higham, *Accuracy and Stability of
//! Numerical Algorithms*, 2nd ed., §24.1 (Theorem 24.2 and its proof), with the butterflies
//! of our two transforms analysed directly.
//!
//! *Weights.* `w_h[k]` is `sin_cos` of `fl(pi (k / h))`: `k / h` is exact, the angle carries
//! at most `2 pi u` relative error (`< 6.3 u` absolute), moving the weight by as much, and
//! each of `sin`, `cos` has at most one ulp (`2u`), so `|w^ - w| < (6.3 + 2 sqrt 2) u`; we take
//! `mu = 24 u` (this assumes the platform's `sin`/`cos` are faithful, as glibc's and Rust's
//! libm are).
//!
//! *One stage.* A complex product `fl(w^ y)` has error at most `sqrt2 gamma_2 |w^| |y|`
//! (Higham Lemma 3.5, no fused multiply-add: Rust does not contract), a complex sum at most
//! `u |x + y|`. The DIF butterfly `(x, y) -> (x + y, w^ (x - y))` therefore errs by at most
//! `u (|x| + |y|)` on top and `beta (|x| + |y|)` below, `beta = mu (1 + u) + u +
//! sqrt2 gamma_2 (1 + mu)(1 + u)`; the DIT butterfly `(x, y) -> (x + w^ y, x - w^ y)` by
//! at most `u |x| + kappa |y|` on each, `alpha = mu + sqrt2 gamma_2 (1 + mu)`,
//! `kappa = alpha + u (1 + alpha)`. By Cauchy-Schwarz a whole stage `z -> A z`
//! (`||A|| = sqrt 2`) errs by at most `sqrt2 eta ||z||` with
//! `eta = max(sqrt(u^2 + beta^2), sqrt(u^2 + kappa^2))`, and over the `t` stages
//! (Higham's induction) `||Y^ - F x|| <= g ||F x||`, `g = t eta / (1 - t eta)`.
//!
//! *Product and inverse.* Let `E_A >= ||A^ - F a||`, `E_B >= ||B^ - F b||` bound the errors
//! of the two computed spectra. With `||F a|| = sqrt(N) ||a||`, `||F a||_inf <= ||a||_1`,
//! the product `P^ = fl(A^ . B^)` errs by at most
//! `E_P = E_A (||b||_1 + E_B) + ||a||_1 E_B + sqrt2 gamma_2 (sqrt(N) ||a|| + E_A)(||b||_1 + E_B)`,
//! and since `||F a . F b|| = sqrt(N) ||c_N||` with `||c_N|| <= ||a||_1 ||b||` (Young's
//! inequality on the cyclic group) and `F^-1 = F^* / N` with `||F^*|| = sqrt N`, the computed
//! cyclic convolution satisfies
//! `||c^ - c_N|| <= ((1 + g) E_P + g sqrt(N) ||a||_1 ||b||) / sqrt(N)`
//! (taking the real part only moves it closer to the real `c_N`).
//!
//! * Square: `E_A = E_B = g sqrt(N) ||a||` (one computed spectrum).
//! * Two inputs: `||Z^ - F z|| <= g sqrt(N) ||z||`, `||z||^2 = ||a||^2 + ||b||^2`; the
//!   separation maps have norm at most 1 and round each component once, so
//!   `E_A = u sqrt(N) ||a|| + (1 + u) g sqrt(N) ||z||`, likewise `E_B` with `||b||`.
//!
//! The wrapped entries are dot products of at most `w` terms over disjoint pairs `(i, j)`,
//! so their L1 error is at most `gamma_w ||a||_1 ||b||_1` (Higham (3.4)). [`convolve`]
//! returns the L1 bound `sqrt(N - w) ||c^ - c_N|| + gamma_w ||a||_1 ||b||_1`, enlarged by
//! `10^-6` relative (which covers the rounding of evaluating the formula) and `10^-300` per
//! entry (underflow). Negative outputs are set to zero: the true values are non-negative, so
//! this never moves an entry away from the truth (and keeps the computed distributions
//! monotone, which the back-up bound needs).

use std::f64::consts::{PI, SQRT_2};
use std::sync::{Arc, PoisonError, RwLock};

use rayon::prelude::*;

const U: f64 = f64::EPSILON / 2.0;
/// Bound on the absolute error of each computed twiddle factor.
const TWIDDLE_ERROR: f64 = 24.0 * U;

/// The linear convolution may exceed a power of two by this many entries and still use the
/// cyclic transform of that power of two (the excess is computed directly).
pub const WRAP_LIMIT: usize = 32;

/// Blocks at most this long are transformed stage by stage (they fit in cache).
const ITERATIVE_BELOW: usize = 1 << 11;
/// Blocks at least this long transform their halves in parallel.
const PARALLEL_FROM: usize = 1 << 15;

fn gamma(n: f64) -> f64 {
    n * U / (1.0 - n * U)
}

#[derive(Debug, Clone, Copy, Default)]
struct Complex {
    re: f64,
    im: f64,
}

impl Complex {
    #[inline]
    fn mul(self, o: Complex) -> Complex {
        Complex {
            re: self.re * o.re - self.im * o.im,
            im: self.re * o.im + self.im * o.re,
        }
    }

    /// `self * conj(w)` (the same roundings as a product with the conjugate weight).
    #[inline]
    fn mul_conj(self, w: Complex) -> Complex {
        Complex {
            re: self.re * w.re + self.im * w.im,
            im: self.im * w.re - self.re * w.im,
        }
    }

    #[inline]
    fn add(self, o: Complex) -> Complex {
        Complex {
            re: self.re + o.re,
            im: self.im + o.im,
        }
    }

    #[inline]
    fn sub(self, o: Complex) -> Complex {
        Complex {
            re: self.re - o.re,
            im: self.im - o.im,
        }
    }

    #[inline]
    fn conj(self) -> Complex {
        Complex {
            re: self.re,
            im: -self.im,
        }
    }
}

/// The weight tables `w_h[k] = exp(-i pi k / h)`, `k < h`, for `h = 2^0, 2^1, ...`, computed
/// once per process (a table of `2^s` entries is at index `s`).
static WEIGHTS: RwLock<Vec<Arc<[Complex]>>> = RwLock::new(Vec::new());

fn weight_table(bits: u32) -> Arc<[Complex]> {
    let h = 1usize << bits;
    let entry = |k: usize| {
        let angle = PI * (k as f64 / h as f64);
        let (s, c) = angle.sin_cos();
        Complex { re: c, im: -s }
    };
    if h >= PARALLEL_FROM {
        (0..h).into_par_iter().map(entry).collect::<Vec<_>>().into()
    } else {
        (0..h).map(entry).collect::<Vec<_>>().into()
    }
}

/// The weight tables for the `stages` stages of a transform of length `2^stages`.
fn weights(stages: u32) -> Vec<Arc<[Complex]>> {
    let stages = stages as usize;
    loop {
        let have = {
            let tables = WEIGHTS.read().unwrap_or_else(PoisonError::into_inner);
            if tables.len() >= stages {
                return tables[..stages].to_vec();
            }
            tables.len()
        };
        // Computed without holding the lock: a rayon thread waiting inside the parallel
        // computation may run another convolution that needs the lock.
        let table = weight_table(have as u32);
        let mut tables = WEIGHTS.write().unwrap_or_else(PoisonError::into_inner);
        if tables.len() == have {
            tables.push(table);
        }
    }
}

/// One DIF stage on a block split into halves: `(x, y) -> (x + y, w_h[k] (x - y))`.
#[inline]
fn dif_stage(lo: &mut [Complex], hi: &mut [Complex], w: &[Complex]) {
    for ((x, y), w) in lo.iter_mut().zip(hi.iter_mut()).zip(w) {
        let (p, q) = (*x, *y);
        *x = p.add(q);
        *y = p.sub(q).mul(*w);
    }
}

/// One inverse DIT stage: `(x, y) -> (x + conj(w_h[k]) y, x - conj(w_h[k]) y)`.
#[inline]
fn dit_stage(lo: &mut [Complex], hi: &mut [Complex], w: &[Complex]) {
    for ((x, y), w) in lo.iter_mut().zip(hi.iter_mut()).zip(w) {
        let t = y.mul_conj(*w);
        let p = *x;
        *x = p.add(t);
        *y = p.sub(t);
    }
}

/// The unnormalized forward DFT of `data` (length a power of two), left in bit-reversed
/// order.
fn forward(data: &mut [Complex], w: &[Arc<[Complex]>]) {
    let n = data.len();
    if n < 2 {
        return;
    }
    let half = n / 2;
    if n <= ITERATIVE_BELOW {
        let mut h = half;
        while h >= 1 {
            let table = &w[h.trailing_zeros() as usize];
            for block in data.chunks_exact_mut(2 * h) {
                let (lo, hi) = block.split_at_mut(h);
                dif_stage(lo, hi, table);
            }
            h /= 2;
        }
        return;
    }
    let (lo, hi) = data.split_at_mut(half);
    dif_stage(lo, hi, &w[half.trailing_zeros() as usize]);
    if n >= PARALLEL_FROM {
        rayon::join(|| forward(lo, w), || forward(hi, w));
    } else {
        forward(lo, w);
        forward(hi, w);
    }
}

/// The unnormalized inverse DFT (conjugate weights, no `1/N`) of a bit-reversed `data`,
/// in natural order.
fn inverse(data: &mut [Complex], w: &[Arc<[Complex]>]) {
    let n = data.len();
    if n < 2 {
        return;
    }
    let half = n / 2;
    if n <= ITERATIVE_BELOW {
        let mut h = 1;
        while h < n {
            let table = &w[h.trailing_zeros() as usize];
            for block in data.chunks_exact_mut(2 * h) {
                let (lo, hi) = block.split_at_mut(h);
                dit_stage(lo, hi, table);
            }
            h *= 2;
        }
        return;
    }
    let (lo, hi) = data.split_at_mut(half);
    if n >= PARALLEL_FROM {
        rayon::join(|| inverse(lo, w), || inverse(hi, w));
    } else {
        inverse(lo, w);
        inverse(hi, w);
    }
    dit_stage(lo, hi, &w[half.trailing_zeros() as usize]);
}

/// `4 A B` at one frequency from `Z = F(a + i b)` there (`z`) and at its negative (`zr`):
/// `2A = z + conj(zr)`, `2B = -i (z - conj(zr))`.
#[inline]
fn separated_product(z: Complex, zr: Complex) -> Complex {
    let a2 = Complex {
        re: z.re + zr.re,
        im: z.im - zr.im,
    };
    let b2 = Complex {
        re: z.im + zr.im,
        im: zr.re - z.re,
    };
    a2.mul(b2)
}

/// Replaces the bit-reversed spectrum of `a + i b` by the bit-reversed `4 F a . F b`.
fn separate_and_multiply(data: &mut [Complex]) {
    let n = data.len();
    // Positions 0 and 1 hold the frequencies 0 and N/2, their own negatives.
    for z in data.iter_mut().take(2) {
        *z = separated_product(*z, *z);
    }
    let mut m = 2;
    while m < n {
        let (lo, hi) = data[m..2 * m].split_at_mut(m / 2);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut().rev()) {
            let p = separated_product(*x, *y);
            *x = p;
            *y = p.conj();
        }
        m *= 2;
    }
}

/// The cyclic length `N` (a power of two, at least 2) used for a linear convolution of
/// `len(a) = la`, `len(b) = lb`, and the number `w` of its entries that wrap around
/// (computed directly): `N + w = la + lb - 1` when `w > 0`.
///
/// # Examples
///
/// ```
/// // The D-game's 2^19 + 1 vectors: cyclic length 2^20, one wrapped entry.
/// let n = (1 << 19) + 1;
/// assert_eq!(pathology::numeric::fft::transform_length(n, n), (1 << 20, 1));
/// assert_eq!(pathology::numeric::fft::transform_length(100, 100), (256, 0));
/// ```
pub fn transform_length(la: usize, lb: usize) -> (usize, usize) {
    let len = la + lb - 1;
    let n = len.next_power_of_two().max(2);
    let half = n / 2;
    if half >= 2 && len > half && len - half <= WRAP_LIMIT && la.max(lb) <= half {
        (half, len - half)
    } else {
        (n, 0)
    }
}

/// The direct (sequential) sum of `c[k] = sum_i a[i] b[k - i]`.
fn direct_entry(a: &[f64], b: &[f64], k: usize) -> f64 {
    let lo = k.saturating_sub(b.len() - 1);
    let hi = k.min(a.len() - 1);
    let mut acc = 0.0;
    for j in lo..=hi {
        acc += a[j] * b[k - j];
    }
    acc
}

/// `eta` of the module docs: the relative error of one stage of either transform.
fn stage_error() -> f64 {
    let mu = TWIDDLE_ERROR;
    let g2 = SQRT_2 * gamma(2.0);
    let beta = mu * (1.0 + U) + U + g2 * (1.0 + mu) * (1.0 + U);
    let alpha = mu + g2 * (1.0 + mu);
    let kappa = alpha + U * (1.0 + alpha);
    (U * U + beta * beta)
        .sqrt()
        .max((U * U + kappa * kappa).sqrt())
}

/// The convolution of two non-negative vectors by FFT, and a rigorous bound on the L1 norm
/// of its rounding error (against the exact convolution of the same inputs). A square
/// (`a == b`) takes one forward transform, two different inputs share one.
///
/// # Examples
///
/// ```
/// let (c, bound) = pathology::numeric::fft::convolve(&[0.5, 0.5], &[0.25, 0.75]);
/// assert!((c[1] - 0.5).abs() <= bound && bound < 1e-13);
/// let (s, bound) = pathology::numeric::fft::convolve(&[0.5, 0.5], &[0.5, 0.5]);
/// assert!((s[1] - 0.5).abs() <= bound && bound < 1e-13);
/// ```
pub fn convolve(a: &[f64], b: &[f64]) -> (Vec<f64>, f64) {
    if a.is_empty() || b.is_empty() {
        return (Vec::new(), 0.0);
    }
    let len = a.len() + b.len() - 1;
    let (n, wrap) = transform_length(a.len(), b.len());
    let stages = n.trailing_zeros();
    let w = weights(stages);
    let square = a == b;
    let mut data = vec![Complex::default(); n];
    for (slot, &x) in data.iter_mut().zip(a) {
        slot.re = x;
    }
    if !square {
        for (slot, &y) in data.iter_mut().zip(b) {
            slot.im = y;
        }
    }
    forward(&mut data, &w);
    if square {
        for z in data.iter_mut() {
            *z = z.mul(*z);
        }
    } else {
        separate_and_multiply(&mut data);
    }
    inverse(&mut data, &w);
    let scale = if square { 1.0 } else { 0.25 } / n as f64;
    let mut c = Vec::with_capacity(len);
    c.extend(data[..len.min(n)].iter().map(|z| (z.re * scale).max(0.0)));
    drop(data);
    for (k, slot) in c.iter_mut().enumerate().take(wrap) {
        *slot = direct_entry(a, b, k);
    }
    c.extend((n..len).map(|k| direct_entry(a, b, k)));

    let eta = stage_error();
    let t = f64::from(stages);
    let g = t * eta / (1.0 - t * eta);
    let sqrt_n = (n as f64).sqrt();
    let (a1, a2) = norms(a);
    let (b1, b2) = norms(b);
    let (ea, eb) = if square {
        (g * sqrt_n * a2, g * sqrt_n * a2)
    } else {
        let z2 = a2.hypot(b2);
        (
            U * sqrt_n * a2 + (1.0 + U) * g * sqrt_n * z2,
            U * sqrt_n * b2 + (1.0 + U) * g * sqrt_n * z2,
        )
    };
    let e_p = ea * (b1 + eb) + a1 * eb + SQRT_2 * gamma(2.0) * (sqrt_n * a2 + ea) * (b1 + eb);
    let l2 = ((1.0 + g) * e_p + g * sqrt_n * a1 * b2) / sqrt_n;
    let wrapped = if wrap > 0 {
        gamma(wrap as f64) * a1 * b1
    } else {
        0.0
    };
    let fft_entries = (len.min(n) - wrap) as f64;
    let l1 = (fft_entries.sqrt() * l2 + wrapped) * (1.0 + 1e-6) + len as f64 * 1e-300;
    (c, l1)
}

/// `(||x||_1, ||x||_2)` of a non-negative vector, rounded up to cover their own rounding.
fn norms(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let l1: f64 = x.iter().sum();
    let l2: f64 = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    let slack = 1.0 + 2.0 * gamma(n + 2.0);
    (l1 * slack, l2 * slack)
}

/// The direct convolution (output-major sequential sums) and its rounding bound
/// `gamma(k) ||a||_1 ||b||_1`, `k` the largest number of terms of an output.
///
/// # Examples
///
/// ```
/// use pathology::numeric::fft::convolve_direct;
/// let (c, bound) = convolve_direct(&[0.5, 0.5], &[0.25, 0.75]);
/// assert_eq!(c, vec![0.125, 0.5, 0.375]); // the distribution of a sum of two variables
/// assert!(bound > 0.0 && bound < 1e-15);
/// ```
pub fn convolve_direct(a: &[f64], b: &[f64]) -> (Vec<f64>, f64) {
    if a.is_empty() || b.is_empty() {
        return (Vec::new(), 0.0);
    }
    let n = a.len() + b.len() - 1;
    let mut out = vec![0.0; n];
    for (k, slot) in out.iter_mut().enumerate() {
        let lo = k.saturating_sub(b.len() - 1);
        let hi = k.min(a.len() - 1);
        let mut acc = 0.0;
        for j in lo..=hi {
            acc += a[j] * b[k - j];
        }
        *slot = acc;
    }
    let terms = a.len().min(b.len()) as f64;
    let (a1, _) = norms(a);
    let (b1, _) = norms(b);
    let bound = gamma(terms) * a1 * b1 + n as f64 * 1e-300;
    (out, bound)
}

/// Below this many terms per output the direct convolution is used (it is faster there and
/// its bound is tighter).
pub const DIRECT_LIMIT: usize = 64;

/// How `f64` convolutions are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConvolutionMethod {
    /// Direct below [`DIRECT_LIMIT`] terms per output, FFT above.
    #[default]
    Auto,
    /// Always the direct quadratic loop.
    Direct,
    /// Always the FFT.
    Fft,
}

/// The convolution by the chosen method, with its L1 rounding bound.
///
/// # Examples
///
/// ```
/// use pathology::numeric::fft::{ConvolutionMethod, convolve_with};
/// let a = vec![0.01; 100];
/// let (direct, direct_bound) = convolve_with(&a, &a, ConvolutionMethod::Direct);
/// let (fft, fft_bound) = convolve_with(&a, &a, ConvolutionMethod::Fft);
/// assert_eq!(direct.len(), 199);
/// for (x, y) in direct.iter().zip(&fft) {
///     assert!((x - y).abs() <= direct_bound + fft_bound);
/// }
/// assert!((direct[99] - 0.01).abs() < 1e-15); // 100 terms of 1e-4 in the middle
/// ```
pub fn convolve_with(a: &[f64], b: &[f64], method: ConvolutionMethod) -> (Vec<f64>, f64) {
    let direct = match method {
        ConvolutionMethod::Auto => a.len().min(b.len()) <= DIRECT_LIMIT,
        ConvolutionMethod::Direct => true,
        ConvolutionMethod::Fft => false,
    };
    if direct {
        convolve_direct(a, b)
    } else {
        convolve(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;
    use num_traits::{Signed, ToPrimitive};
    use proptest::prelude::*;

    fn exact_l1_error(a: &[f64], b: &[f64], c: &[f64]) -> f64 {
        let r = |x: f64| BigRational::from_float(x).unwrap();
        let mut exact = vec![BigRational::from_integer(0.into()); a.len() + b.len() - 1];
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                exact[i + j] += r(*x) * r(*y);
            }
        }
        exact
            .iter()
            .zip(c)
            .map(|(e, v)| (r(*v) - e).abs().to_f64().unwrap())
            .sum()
    }

    fn probability_vector(weights: &[u32]) -> Vec<f64> {
        let total: f64 = weights.iter().map(|&w| f64::from(w)).sum::<f64>().max(1.0);
        weights.iter().map(|&w| f64::from(w) / total).collect()
    }

    #[test]
    fn fft_matches_direct_on_a_binomial() {
        let a: Vec<f64> = (0..300)
            .map(|k| if k % 3 == 0 { 1.0 / 100.0 } else { 0.0 })
            .collect();
        let b = probability_vector(&(1..200).collect::<Vec<_>>());
        let (c, bound) = convolve(&a, &b);
        let (d, _) = convolve_direct(&a, &b);
        let diff: f64 = c.iter().zip(&d).map(|(x, y)| (x - y).abs()).sum();
        assert!(diff <= bound + 1e-15, "{diff:e} > {bound:e}");
        let actual = exact_l1_error(&a, &b, &c);
        assert!(actual <= bound, "{actual:e} > {bound:e}");
        assert!(bound < 1e-12, "{bound:e}");
    }

    #[test]
    fn outputs_are_non_negative() {
        let a = [1.0, 0.0, 0.0, 0.0, 1e-300];
        let (c, _) = convolve(&a, &a);
        assert!(c.iter().all(|&x| x >= 0.0));
        assert_eq!(c.len(), 9);
    }

    #[test]
    fn both_paths_are_within_their_bounds_around_powers_of_two() {
        // Lengths just below, at and above powers of two: padded (w = 0) and wrapped (w > 0)
        // transforms, for the two-input and the square path.
        for la in [
            1usize, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 64, 65, 66, 80,
        ] {
            for lb in [1usize, 2, 3, 16, 17, 33, 64, 65, 70] {
                let a =
                    probability_vector(&(0..la as u32).map(|k| 1 + k * 7 % 13).collect::<Vec<_>>());
                let b =
                    probability_vector(&(0..lb as u32).map(|k| 3 + k * 5 % 11).collect::<Vec<_>>());
                let (c, bound) = convolve(&a, &b);
                assert_eq!(c.len(), la + lb - 1);
                let actual = exact_l1_error(&a, &b, &c);
                assert!(actual <= bound, "{la}x{lb}: {actual:e} > {bound:e}");
                assert!(bound < 1e-12, "{la}x{lb}: {bound:e}");
            }
            let a = probability_vector(&(0..la as u32).map(|k| 2 + k * 3 % 17).collect::<Vec<_>>());
            let (c, bound) = convolve(&a, &a);
            let actual = exact_l1_error(&a, &a, &c);
            assert!(actual <= bound, "{la}^2: {actual:e} > {bound:e}");
            assert!(bound < 1e-12, "{la}^2: {bound:e}");
        }
    }

    #[test]
    fn no_padding_beyond_the_next_power_of_two() {
        for k in 1..24 {
            let n = (1usize << k) + 1;
            assert_eq!(transform_length(n, n), (1 << (k + 1), 1), "k = {k}");
        }
        for k in 6..24 {
            // 2^(k+1) - 1 entries: padded by one, nothing wraps.
            let m = 1usize << k;
            assert_eq!(transform_length(m, m), (1 << (k + 1), 0), "k = {k}");
        }
        // The excess is computed directly only up to WRAP_LIMIT entries, and only if both
        // inputs fit in the cyclic length.
        assert_eq!(transform_length(48, 49), (64, WRAP_LIMIT));
        assert_eq!(transform_length(49, 49), (128, 0));
        assert_eq!(transform_length(65, 1), (128, 0));
        assert_eq!(transform_length(4, 4), (4, 3));
        assert_eq!(transform_length(2, 2), (2, 1));
        assert_eq!(transform_length(1, 1), (2, 0));
    }

    #[test]
    fn large_wrapped_square_and_product_agree_with_direct() {
        // The D-game's shape, 2^11 + 1 (wrapped cyclic length 2^12, recursive transforms).
        let n = (1 << 11) + 1;
        let a = probability_vector(&(0..n as u32).map(|k| (k * 7919) % 1000).collect::<Vec<_>>());
        let b = probability_vector(
            &(0..n as u32)
                .map(|k| 1 + (k * 104_729) % 997)
                .collect::<Vec<_>>(),
        );
        for (x, y) in [(&a, &a), (&a, &b)] {
            let (c, bound) = convolve(x, y);
            let (d, direct_bound) = convolve_direct(x, y);
            let gap: f64 = c.iter().zip(&d).map(|(p, q)| (p - q).abs()).sum();
            assert!(
                gap <= bound + direct_bound,
                "{gap:e} > {bound:e} + {direct_bound:e}"
            );
            assert!(bound < 1e-11, "{bound:e}");
        }
    }

    #[test]
    fn transforms_invert_each_other() {
        for bits in 1..14 {
            let n = 1usize << bits;
            let w = weights(bits);
            let x: Vec<Complex> = (0..n)
                .map(|k| Complex {
                    re: (k % 7) as f64,
                    im: (k % 5) as f64 - 2.0,
                })
                .collect();
            let mut y = x.clone();
            forward(&mut y, &w);
            // The spectrum of a delta at 1 is exp(-2 pi i k / n), bit-reversed.
            let mut delta = vec![Complex::default(); n];
            delta[1].re = 1.0;
            forward(&mut delta, &w);
            for (p, z) in delta.iter().enumerate() {
                let k = p.reverse_bits() >> (usize::BITS - bits);
                let angle = -2.0 * PI * k as f64 / n as f64;
                assert!((z.re - angle.cos()).abs() < 1e-13 && (z.im - angle.sin()).abs() < 1e-13);
            }
            inverse(&mut y, &w);
            for (p, q) in x.iter().zip(&y) {
                assert!((p.re - q.re / n as f64).abs() < 1e-12, "n = {n}");
                assert!((p.im - q.im / n as f64).abs() < 1e-12, "n = {n}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        #[test]
        fn fft_error_is_within_its_bound(
            a in proptest::collection::vec(0u32..1000, 1..150),
            b in proptest::collection::vec(0u32..1000, 1..150),
        ) {
            let (a, b) = (probability_vector(&a), probability_vector(&b));
            let (c, bound) = convolve(&a, &b);
            prop_assert!(exact_l1_error(&a, &b, &c) <= bound);
            let (d, direct_bound) = convolve_direct(&a, &b);
            prop_assert!(exact_l1_error(&a, &b, &d) <= direct_bound);
            // The square path (one real input).
            let (s, square_bound) = convolve(&a, &a);
            prop_assert!(exact_l1_error(&a, &a, &s) <= square_bound);
        }

        #[test]
        fn fft_error_is_within_its_bound_on_wrapped_lengths(
            k in 2u32..7,
            extra in 1usize..4,
            seed in proptest::collection::vec(0u32..1000, 130),
            tiny in 0usize..3,
        ) {
            // len(a) + len(b) - 1 = 2^(k+1) + 2 extra - 1: the wrapped cyclic transform, with
            // some entries spanning many magnitudes.
            let n = (1usize << k) + extra;
            let mut a = seed[..n].to_vec();
            let mut b = seed[seed.len() - n..].to_vec();
            for v in a.iter_mut().chain(b.iter_mut()).step_by(tiny + 2) {
                *v = 0;
            }
            a[0] = a[0].max(1);
            b[n - 1] = b[n - 1].max(1);
            let (a, b) = (probability_vector(&a), probability_vector(&b));
            prop_assert!(transform_length(n, n).1 > 0);
            let (c, bound) = convolve(&a, &b);
            prop_assert!(exact_l1_error(&a, &b, &c) <= bound);
            let (s, square_bound) = convolve(&b, &b);
            prop_assert!(exact_l1_error(&b, &b, &s) <= square_bound);
        }
    }
}
