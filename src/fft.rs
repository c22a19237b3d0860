//! Convolution of non-negative `f64` vectors by FFT, with a rigorous rounding-error bound.
//!
//! The direct convolution is quadratic in the length, which makes D(d,h) quadratic in `2^h`
//! (issue "Scale": h = 20 needs vectors of length 2^19). This module multiplies in the
//! frequency domain instead: `c = F^-1 (F a . F b)` with a radix-2 decimation-in-time
//! Cooley-Tukey FFT of length `N = 2^t >= len(a) + len(b) - 1`.
//!
//! We write the FFT ourselves (about 60 lines) rather than use a library because the error
//! analysis below is a theorem about exactly this algorithm: radix-2 butterflies with
//! precomputed weights (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
//! Theorem 24.2). For the computed transform `Y^ = fl(F x)`,
//! `||Y^ - F x||_2 <= g ||F x||_2` with `g = t eta / (1 - t eta)`,
//! `eta = mu + gamma_4 (sqrt 2 + mu)`, where `mu` bounds the error of each computed weight.
//! The weights `exp(-2 pi i k / N)` come from `sin_cos` of a rounded angle: the angle carries
//! at most `4 pi u` absolute error (moving the weight by at most `sqrt 2 * 4 pi u`) and each
//! of `sin`, `cos` at most one ulp (`2u`), so `|w^ - w| <= sqrt 2 (4 pi + 2) u < 21 u`; we
//! take `mu = 24 u` (this assumes the platform's `sin`/`cos` are faithful, as glibc's and
//! Rust's libm are).
//!
//! With that, for the computed product `P^` (each complex product has error
//! `<= sqrt 2 gamma_2 |x||y|`, Higham Lemma 3.5) and the computed inverse,
//! the error of the computed linear convolution `c^` against the exact convolution `c` of the
//! same (computed) inputs is, in the 2-norm,
//!
//! `||c^ - c||_2 <= (1+g) [ g ||a||_2 B + g ||a||_1 ||b||_2 + sqrt2 gamma_2 (1+g) ||a||_2 B ]
//!                  + g ||a||_1 ||b||_2`,  with `B = ||b||_1 + g sqrt(N) ||b||_2`,
//!
//! using `||F a||_2 = sqrt(N) ||a||_2`, `||F a||_inf <= ||a||_1`, Parseval for the inverse,
//! and `||c||_2 <= ||a||_1 ||b||_2` (Young). [`convolve`] returns the L1 version
//! `sqrt(len(c)) ||c^ - c||_2`. Negative outputs are set to zero: the true values are
//! non-negative, so this never moves an entry away from the truth (and keeps the computed
//! distributions monotone, which the back-up bound needs).

use std::f64::consts::PI;

const U: f64 = f64::EPSILON / 2.0;
/// Bound on the absolute error of each computed twiddle factor.
const TWIDDLE_ERROR: f64 = 24.0 * U;

fn gamma(n: f64) -> f64 {
    n * U / (1.0 - n * U)
}

#[derive(Debug, Clone, Copy, Default)]
struct Complex {
    re: f64,
    im: f64,
}

impl Complex {
    fn mul(self, o: Complex) -> Complex {
        Complex {
            re: self.re * o.re - self.im * o.im,
            im: self.re * o.im + self.im * o.re,
        }
    }
}

/// In-place radix-2 decimation-in-time FFT of length `data.len()` (a power of two):
/// the unnormalized forward transform, or with `inverse` the conjugate-weight transform
/// (without the `1/N`).
fn fft_in_place(data: &mut [Complex], twiddles: &[Complex], inverse: bool) {
    let n = data.len();
    debug_assert!(n.is_power_of_two() && twiddles.len() == n / 2);
    let bits = n.trailing_zeros();
    if bits == 0 {
        return;
    }
    for i in 0..n {
        let j = i.reverse_bits() >> (usize::BITS - bits);
        if i < j {
            data.swap(i, j);
        }
    }
    let mut half = 1;
    while half < n {
        let stride = n / (2 * half);
        for start in (0..n).step_by(2 * half) {
            for k in 0..half {
                let mut w = twiddles[k * stride];
                if inverse {
                    w.im = -w.im;
                }
                let top = data[start + k];
                let t = w.mul(data[start + k + half]);
                data[start + k] = Complex {
                    re: top.re + t.re,
                    im: top.im + t.im,
                };
                data[start + k + half] = Complex {
                    re: top.re - t.re,
                    im: top.im - t.im,
                };
            }
        }
        half *= 2;
    }
}

fn twiddles(n: usize) -> Vec<Complex> {
    (0..n / 2)
        .map(|k| {
            let angle = 2.0 * PI * (k as f64) / (n as f64);
            let (s, c) = angle.sin_cos();
            Complex { re: c, im: -s }
        })
        .collect()
}

/// `(||x||_1, ||x||_2)` of a non-negative vector, rounded up to cover their own rounding.
fn norms(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let l1: f64 = x.iter().sum();
    let l2: f64 = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    let slack = 1.0 + 2.0 * gamma(n + 2.0);
    (l1 * slack, l2 * slack)
}

/// The convolution of two non-negative vectors by FFT, and a rigorous bound on the L1 norm
/// of its rounding error (against the exact convolution of the same inputs).
///
/// # Examples
///
/// ```
/// let (c, bound) = pathology::fft::convolve(&[0.5, 0.5], &[0.25, 0.75]);
/// assert!((c[1] - 0.5).abs() <= bound && bound < 1e-13);
/// ```
pub fn convolve(a: &[f64], b: &[f64]) -> (Vec<f64>, f64) {
    if a.is_empty() || b.is_empty() {
        return (Vec::new(), 0.0);
    }
    let len = a.len() + b.len() - 1;
    let n = len.next_power_of_two().max(2);
    let w = twiddles(n);
    let load = |x: &[f64]| {
        let mut v = vec![Complex::default(); n];
        for (slot, &value) in v.iter_mut().zip(x) {
            slot.re = value;
        }
        v
    };
    let (mut fa, mut fb) = (load(a), load(b));
    rayon::join(
        || fft_in_place(&mut fa, &w, false),
        || fft_in_place(&mut fb, &w, false),
    );
    for (x, y) in fa.iter_mut().zip(&fb) {
        *x = x.mul(*y);
    }
    fft_in_place(&mut fa, &w, true);
    let scale = 1.0 / n as f64;
    let c: Vec<f64> = fa[..len].iter().map(|z| (z.re * scale).max(0.0)).collect();

    let t = f64::from(n.trailing_zeros());
    let eta = TWIDDLE_ERROR + gamma(4.0) * (2f64.sqrt() + TWIDDLE_ERROR);
    let g = t * eta / (1.0 - t * eta);
    let (a1, a2) = norms(a);
    let (b1, b2) = norms(b);
    let big_b = b1 + g * (n as f64).sqrt() * b2;
    let l2 = (1.0 + g)
        * (g * a2 * big_b + g * a1 * b2 + 2f64.sqrt() * gamma(2.0) * (1.0 + g) * a2 * big_b)
        + g * a1 * b2;
    // Underflow in the scaling adds at most 2^-1074 per entry.
    let l1 = (len as f64).sqrt() * l2 * (1.0 + 1e-6) + len as f64 * 1e-300;
    (c, l1)
}

/// The direct convolution (output-major sequential sums) and its rounding bound
/// `gamma(k) ||a||_1 ||b||_1`, `k` the largest number of terms of an output.
///
/// # Examples
///
/// ```
/// use pathology::fft::convolve_direct;
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
/// use pathology::fft::{ConvolutionMethod, convolve_with};
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
        }
    }
}
