//! Multiplication of large natural numbers by a three-prime number-theoretic transform: the
//! engine behind the exact mode's Kronecker-packed convolutions ([`crate::numeric::number`]) at the
//! sizes of Li & Marsland's Section 6.1 psi distributions for h >= 12 (millions of words).
//!
//! A number is the polynomial of its little-endian 64-bit words evaluated at `2^64`. Its
//! words are reduced modulo three primes `p_i < 2^62` with `2^30 | p_i - 1`, transformed by a
//! cyclic NTT of a power-of-two length `N` at least the product's length, multiplied
//! pointwise and transformed back. Each coefficient of the product polynomial is below
//! `min(len_a, len_b) 2^128 < p_1 p_2 p_3 ~ 2^186`, so the three residues determine it
//! (Garner's CRT), and carrying the 192-bit coefficients into words gives the product
//! exactly. `N <= 2^29` (the primes' two-power roots of unity).
//!
//! The transforms are radix-2, decimation in frequency forward (natural order in,
//! bit-reversed out) and in time backward (bit-reversed in, natural out), so no permutation
//! is ever done; they recurse depth first, so that every level below the L2 cache size runs
//! in cache. Arithmetic is Montgomery's (`R = 2^64`) with Harvey's lazy reduction (values in
//! `[0, 2p)` between butterflies). Twiddle tables (`8 N` bytes a prime; the inverse
//! transform reads the forward table backwards, `w^-j = -w^(len-j)`) are built by repeated
//! multiplication and cached, grown to the largest length used. The three primes run on
//! rayon in parallel. (A first version on `tfhe-ntt` spent more time building its plans than
//! transforming.)
//!
//! A crate-internal `Spectrum` exposes the transformed operands, so that a caller with several products of
//! the same operands (the psi level's `w (a w + (m - a) l)` and `m l^2`) can transform each
//! operand once and combine them pointwise.

use std::sync::OnceLock;

use rayon::prelude::*;

/// The three NTT primes: `k 2^30 + 1 < 2^62`, the three largest of that form. Their product
/// exceeds `2^185`.
pub(crate) const PRIMES: [u64; 3] = [
    0x3fff_ffee_c000_0001,
    0x3fff_ffee_0000_0001,
    0x3fff_ffe8_8000_0001,
];

/// The product coefficients must stay below `2^COEFFICIENT_BITS` (`< p_1 p_2 p_3`) for the
/// CRT to recover them.
pub(crate) const COEFFICIENT_BITS: u64 = 185;

/// The longest product (in 64-bit words) and transform length the primes allow (`N` must divide `2^30`, and the last
/// level's twiddles are the `N`-th roots).
pub const MAX_SIZE: usize = 1 << 29;

/// Montgomery arithmetic modulo one prime `p < 2^62`, `R = 2^64`.
#[derive(Debug, Clone, Copy)]
struct Modulus {
    p: u64,
    /// `-p^-1 mod 2^64`.
    neg_inv: u64,
    /// `R^2 mod p`.
    r2: u64,
}

impl Modulus {
    fn new(p: u64) -> Modulus {
        // Newton's iteration for p^-1 mod 2^64 (p odd): 6 steps double 1 correct bit to 64.
        let mut inv: u64 = 1;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        let r = (u128::from(u64::MAX) % u128::from(p) + 1) % u128::from(p);
        Modulus {
            p,
            neg_inv: inv.wrapping_neg(),
            r2: (r * r % u128::from(p)) as u64,
        }
    }

    /// `a b / R mod p`, in `[0, 2p)`, for any `a < 2^64` and `b < p` (or `b < 2p`,
    /// `a < 2^63`).
    #[inline(always)]
    fn mont(self, a: u64, b: u64) -> u64 {
        let t = u128::from(a) * u128::from(b);
        let m = (t as u64).wrapping_mul(self.neg_inv);
        ((t + u128::from(m) * u128::from(self.p)) >> 64) as u64
    }

    /// `x mod p` for `x < 2p`.
    #[inline(always)]
    fn fold(self, x: u64) -> u64 {
        if x >= self.p { x - self.p } else { x }
    }

    /// `x` in Montgomery form (`x R mod p`), in `[0, p)`.
    fn to_mont(self, x: u64) -> u64 {
        self.fold(self.mont(x % self.p, self.r2))
    }

    /// `x R^-1 mod p`: read back from Montgomery form, in `[0, p)`.
    fn out_of_mont(self, x: u64) -> u64 {
        self.fold(self.mont(x, 1))
    }

    fn pow(self, base: u64, mut exponent: u64) -> u64 {
        // In Montgomery form throughout.
        let mut result = self.to_mont(1);
        let mut base = self.to_mont(base);
        while exponent > 0 {
            if exponent & 1 == 1 {
                result = self.fold(self.mont(result, base));
            }
            base = self.fold(self.mont(base, base));
            exponent >>= 1;
        }
        self.out_of_mont(result)
    }

    /// An element of multiplicative order exactly `2^30`.
    fn root_of_order_2_30(self) -> u64 {
        let cofactor = (self.p - 1) >> 30;
        (2..)
            .map(|c| self.pow(c, cofactor))
            .find(|&r| self.pow(r, 1 << 29) != 1)
            .expect("p - 1 is divisible by 2^30")
    }
}

/// `w mod p` for `2^61 < p < 2^62`.
#[inline]
fn reduce_word(w: u64, p: u64) -> u64 {
    // w - (w >> 62) p = (w mod 2^62) + (w >> 62)(2^62 - p) < 2 p.
    let r = w - (w >> 62) * p;
    if r >= p { r - p } else { r }
}

/// One prime's constants: its Montgomery arithmetic; the twiddles of the in-cache levels,
/// `table[len + j] = w_(2 len)^j R mod p` for `len = 1, 2, 4, .., BASE / 2` and `0 <= j <
/// len`; and the roots of unity `roots[k] = w_(2^k) R` and `inverse_roots[k] = w_(2^k)^-1 R`
/// (Montgomery form), all powers of one root of order `2^30`, from which the longer levels
/// generate their twiddles as they go ([`Powers`]). No table grows with the transform: at
/// 2^26 words tables of every level took 1.5 GB, and fresh memory is slow to touch.
struct Prime {
    m: Modulus,
    /// `R mod p`: 1 in Montgomery form.
    one: u64,
    table: Vec<u64>,
    roots: [u64; 31],
    inverse_roots: [u64; 31],
}

impl Prime {
    fn new(p: u64) -> Prime {
        let m = Modulus::new(p);
        let g = m.root_of_order_2_30();
        let plain: [u64; 31] = std::array::from_fn(|k| m.pow(g, 1u64 << (30 - k)));
        let roots = plain.map(|r| m.to_mont(r));
        let inverse_roots = plain.map(|r| m.to_mont(m.pow(r, p - 2)));
        let one = m.to_mont(1);
        let mut table = vec![0u64; BASE];
        let mut len = 1;
        while len < BASE {
            let step = roots[(2 * len).trailing_zeros() as usize];
            let mut x = one;
            for j in 0..len {
                table[len + j] = x;
                x = m.fold(m.mont(x, step));
            }
            len *= 2;
        }
        Prime {
            m,
            one,
            table,
            roots,
            inverse_roots,
        }
    }

    /// The forward twiddles `w_(2 half)^j`, `j = 0, 1, ..`, of a level of half length `half`.
    fn forward_twiddles(&self, half: usize) -> Powers {
        Powers {
            next: self.one,
            step: self.roots[(2 * half).trailing_zeros() as usize],
        }
    }

    /// The inverse twiddles `w_(2 half)^-j`, `j = 0, 1, ..`.
    fn inverse_twiddles(&self, half: usize) -> Powers {
        Powers {
            next: self.one,
            step: self.inverse_roots[(2 * half).trailing_zeros() as usize],
        }
    }
}

/// The three primes' constants, built once.
fn primes() -> &'static [Prime; 3] {
    static PRIMES_BUILT: OnceLock<[Prime; 3]> = OnceLock::new();
    PRIMES_BUILT.get_or_init(|| PRIMES.map(Prime::new))
}

/// Successive powers `next, next w, next w^2, ..` of a twiddle step `w` (Montgomery form, in
/// `[0, p)`), exact: one Montgomery product a twiddle, which the butterflies' own work hides
/// (the chain does not depend on the data).
#[derive(Debug, Clone, Copy)]
struct Powers {
    next: u64,
    step: u64,
}

impl Powers {
    #[inline(always)]
    fn take(&mut self, m: Modulus) -> u64 {
        let w = self.next;
        self.next = m.fold(m.mont(w, self.step));
        w
    }
}

/// The transform length for a product of `len` words: the next power of two, at least 16.
pub(crate) fn transform_size(len: usize) -> usize {
    let size = len.next_power_of_two().max(16);
    assert!(size <= MAX_SIZE, "NTT product of {len} words is too long");
    size
}

/// Blocks of at most this many words are transformed level by level (they fit in L1);
/// longer ones recurse depth first.
const BASE: usize = 1 << 10;

/// The forward butterfly `(u, v) -> (u + v, (u - v) w)`, values in `[0, 2p)` in and out
/// (`w` in `[0, p)`).
#[inline(always)]
fn forward_butterfly(u: u64, v: u64, w: u64, m: Modulus) -> (u64, u64) {
    let two_p = 2 * m.p;
    let s = u + v;
    (
        if s >= two_p { s - two_p } else { s },
        m.mont(u + two_p - v, w),
    )
}

/// The inverse butterfly `(u, v) -> (u + v w^-j, u - v w^-j)` for the inverse twiddle
/// `w_inv = w^-j` (in `[0, p)`), values in `[0, 4p)` in and out (Harvey: one conditional
/// subtraction a butterfly).
#[inline(always)]
fn inverse_butterfly(u: u64, v: u64, w_inv: u64, m: Modulus) -> (u64, u64) {
    let two_p = 2 * m.p;
    let u = if u >= two_p { u - two_p } else { u };
    let t = m.mont(v, w_inv);
    (u + t, u + two_p - t)
}

/// One forward level on `x` (first halves) and `y` (second halves) with the twiddles `w`.
fn forward_level(x: &mut [u64], y: &mut [u64], w: &[u64], m: Modulus) {
    for ((x, y), &w) in x.iter_mut().zip(y.iter_mut()).zip(w) {
        (*x, *y) = forward_butterfly(*x, *y, w, m);
    }
}

/// One inverse level with the forward twiddles `w` of the level read backwards:
/// `w^-j = -w^(half - j)`.
fn inverse_level(x: &mut [u64], y: &mut [u64], w: &[u64], m: Modulus) {
    let two_p = 2 * m.p;
    // j = 0: the twiddle is 1 (w[0] is R, 1 in Montgomery form).
    (x[0], y[0]) = inverse_butterfly(x[0], y[0], w[0], m);
    for ((x, y), &w) in x[1..]
        .iter_mut()
        .zip(y[1..].iter_mut())
        .zip(w[1..].iter().rev())
    {
        // t = v w^(half - j) = -v w^-j.
        let u = if *x >= two_p { *x - two_p } else { *x };
        let t = m.mont(*y, w);
        *x = u + two_p - t;
        *y = u + t;
    }
}

/// Forward transform of an in-cache block (decimation in frequency, natural order in,
/// bit-reversed out), values in `[0, 2p)` in and out.
fn forward_small(a: &mut [u64], prime: &Prime) {
    let (m, table) = (prime.m, &prime.table);
    let n = a.len();
    let two_p = 2 * m.p;
    let mut len = n / 2;
    while len >= 2 {
        let w = &table[len..2 * len];
        for block in a.chunks_exact_mut(2 * len) {
            let (x, y) = block.split_at_mut(len);
            forward_level(x, y, w, m);
        }
        len /= 2;
    }
    // The last level's twiddle is 1.
    for pair in a.chunks_exact_mut(2) {
        let (u, v) = (pair[0], pair[1]);
        let s = u + v;
        pair[0] = if s >= two_p { s - two_p } else { s };
        let d = u + two_p - v;
        pair[1] = if d >= two_p { d - two_p } else { d };
    }
}

/// Inverse transform of an in-cache block without the `1/N` (decimation in time,
/// bit-reversed order in, natural out), values in `[0, 2p)` in and `[0, 4p)` out.
fn inverse_small(a: &mut [u64], prime: &Prime) {
    let (m, table) = (prime.m, &prime.table);
    let n = a.len();
    let two_p = 2 * m.p;
    // The first level's twiddle is 1; inputs in [0, 2p), outputs in [0, 4p).
    for pair in a.chunks_exact_mut(2) {
        let (u, v) = (pair[0], pair[1]);
        pair[0] = u + v;
        pair[1] = u + two_p - v;
    }
    let mut len = 2;
    while len < n {
        let w = &table[len..2 * len];
        for block in a.chunks_exact_mut(2 * len) {
            let (x, y) = block.split_at_mut(len);
            inverse_level(x, y, w, m);
        }
        len *= 2;
    }
}

/// Runs `f(0)`, `f(1)`, `f(2)` in parallel (one per prime).
fn per_prime<T: Send>(f: impl Fn(usize) -> T + Sync) -> [T; 3] {
    let (a, (b, c)) = rayon::join(|| f(0), || rayon::join(|| f(1), || f(2)));
    [a, b, c]
}

/// Transforms at least this long run their parts as separate rayon tasks (so that two
/// cores share the primes' work evenly); shorter ones recurse in one task.
const PARALLEL: usize = 1 << 15;

/// Transforms at least this long do two levels in each pass over memory (radix 4) above
/// the in-cache blocks, halving the passes, which are bound by memory bandwidth there.
const RADIX_4: usize = 4 * BASE;

/// The first forward level read straight from the number's words: `words` reduced modulo
/// `p`, zero beyond its end, and `(u, v) -> (u + v, (u - v) w)` on the halves `x`, `y`.
/// One pass instead of a reducing pass and a level.
fn load_level(x: &mut [u64], y: &mut [u64], words: &[u64], mut w: Powers, m: Modulus) {
    let half = x.len();
    let word = |j: usize| words.get(j).map_or(0, |&x| reduce_word(x, m.p));
    for (j, (x, y)) in x.iter_mut().zip(y.iter_mut()).enumerate() {
        (*x, *y) = forward_butterfly(word(j), word(half + j), w.take(m), m);
    }
}

/// What [`convolve_at`] does to a set of buffers: the numbers to load into them on the way
/// down (`None` below the top), how many of them (the first ones) to transform back, and
/// the pointwise operation between the transforms.
struct Job<'a, F> {
    prime: &'a Prime,
    outputs: usize,
    pointwise: &'a F,
}

/// Buffers `bufs[k]` of residues (one length, a power of two) at one prime: forward
/// transform, `pointwise`, inverse transform (of the first `job.outputs` buffers) without
/// the `1/N`, fused in one recursion.
///
/// Each call does its forward level(s), recurses into the parts and does its inverse
/// level(s); blocks of at most [`BASE`] words are transformed forward, combined by
/// `pointwise` and transformed back while they are in L1. The forward transform leaves the
/// spectrum in bit-reversed order and the inverse reads it so, which a pointwise operation
/// does not mind. With `load`, the buffers are filled from the numbers' words (`load[k]`
/// into `bufs[k]`) on the way down. Values are in `[0, 2p)` from the forward transform and
/// must be so from `pointwise`; they come back in `[0, 4p)`.
fn convolve_at<F>(bufs: &mut [&mut [u64]], load: Option<&[&[u64]]>, job: &Job<'_, F>)
where
    F: Fn(&mut [&mut [u64]]) + Sync,
{
    let (prime, m) = (job.prime, job.prime.m);
    let n = bufs[0].len();
    if n <= BASE {
        for (k, b) in bufs.iter_mut().enumerate() {
            if let Some(words) = load {
                for (j, r) in b.iter_mut().enumerate() {
                    *r = words[k].get(j).map_or(0, |&x| reduce_word(x, m.p));
                }
            }
            forward_small(b, prime);
        }
        (job.pointwise)(bufs);
        for b in bufs[..job.outputs].iter_mut() {
            inverse_small(b, prime);
        }
        return;
    }
    if n >= RADIX_4 && load.is_none() {
        return convolve_radix_4(bufs, job);
    }
    let half = n / 2;
    let (mut lo, mut hi): (Vec<&mut [u64]>, Vec<&mut [u64]>) =
        bufs.iter_mut().map(|b| b.split_at_mut(half)).unzip();
    for (k, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
        let w = prime.forward_twiddles(half);
        match load {
            Some(words) => load_level(x, y, words[k], w, m),
            None => {
                let mut w = w;
                for (x, y) in x.iter_mut().zip(y.iter_mut()) {
                    (*x, *y) = forward_butterfly(*x, *y, w.take(m), m);
                }
            }
        }
    }
    if n >= PARALLEL {
        rayon::join(
            || convolve_at(&mut lo, None, job),
            || convolve_at(&mut hi, None, job),
        );
    } else {
        convolve_at(&mut lo, None, job);
        convolve_at(&mut hi, None, job);
    }
    for (x, y) in lo.iter_mut().zip(hi.iter_mut()).take(job.outputs) {
        let mut w = prime.inverse_twiddles(half);
        for (x, y) in x.iter_mut().zip(y.iter_mut()) {
            (*x, *y) = inverse_butterfly(*x, *y, w.take(m), m);
        }
    }
}

/// The quarters of one block of length `4q`.
type Quarters<'a> = [&'a mut [u64]; 4];

/// Two forward levels on the quarters `x` of each block of length `4q` (one per buffer): the
/// level of half `2q` on `(x0, x2)` and `(x1, x3)`, then the level of half `q` on `(x0, x1)`
/// and `(x2, x3)`.
fn forward_two_levels(blocks: &mut [Quarters<'_>], prime: &Prime) {
    let m = prime.m;
    for [x0, x1, x2, x3] in blocks.iter_mut() {
        let q = x0.len();
        let (x1, x2, x3) = (&mut x1[..q], &mut x2[..q], &mut x3[..q]);
        // w_(4q)^j, w_(4q)^(q + j) = w_4 w_(4q)^j and w_(2q)^j.
        let mut outer = prime.forward_twiddles(2 * q);
        let mut outer_shifted = Powers {
            next: prime.roots[2],
            ..outer
        };
        let mut inner = prime.forward_twiddles(q);
        for j in 0..q {
            let (b0, b2) = forward_butterfly(x0[j], x2[j], outer.take(m), m);
            let (b1, b3) = forward_butterfly(x1[j], x3[j], outer_shifted.take(m), m);
            let w = inner.take(m);
            (x0[j], x1[j]) = forward_butterfly(b0, b1, w, m);
            (x2[j], x3[j]) = forward_butterfly(b2, b3, w, m);
        }
    }
}

/// The inverse of [`forward_two_levels`]: the level of half `q`, then that of half `2q`.
fn inverse_two_levels(blocks: &mut [Quarters<'_>], prime: &Prime) {
    let m = prime.m;
    for [x0, x1, x2, x3] in blocks.iter_mut() {
        let q = x0.len();
        let (x1, x2, x3) = (&mut x1[..q], &mut x2[..q], &mut x3[..q]);
        let mut inner = prime.inverse_twiddles(q);
        let mut outer = prime.inverse_twiddles(2 * q);
        let mut outer_shifted = Powers {
            next: prime.inverse_roots[2],
            ..outer
        };
        for j in 0..q {
            let w = inner.take(m);
            let (a0, a1) = inverse_butterfly(x0[j], x1[j], w, m);
            let (a2, a3) = inverse_butterfly(x2[j], x3[j], w, m);
            (x0[j], x2[j]) = inverse_butterfly(a0, a2, outer.take(m), m);
            (x1[j], x3[j]) = inverse_butterfly(a1, a3, outer_shifted.take(m), m);
        }
    }
}

/// [`convolve_at`] two levels at a time: both forward levels in one pass, the four quarters,
/// both inverse levels in one pass.
fn convolve_radix_4<F>(bufs: &mut [&mut [u64]], job: &Job<'_, F>)
where
    F: Fn(&mut [&mut [u64]]) + Sync,
{
    let n = bufs[0].len();
    let q = n / 4;
    let mut blocks: Vec<Quarters<'_>> = bufs
        .iter_mut()
        .map(|b| {
            let (x0, rest) = b.split_at_mut(q);
            let (x1, rest) = rest.split_at_mut(q);
            let (x2, x3) = rest.split_at_mut(q);
            [x0, x1, x2, x3]
        })
        .collect();
    forward_two_levels(&mut blocks, job.prime);
    let mut quarters: [Vec<&mut [u64]>; 4] = Default::default();
    for block in blocks.iter_mut() {
        for (quarter, x) in quarters.iter_mut().zip(block.iter_mut()) {
            quarter.push(&mut **x);
        }
    }
    let [q0, q1, q2, q3] = &mut quarters;
    if n >= PARALLEL {
        rayon::join(
            || rayon::join(|| convolve_at(q0, None, job), || convolve_at(q1, None, job)),
            || rayon::join(|| convolve_at(q2, None, job), || convolve_at(q3, None, job)),
        );
    } else {
        for quarter in [q0, q1, q2, q3] {
            convolve_at(quarter, None, job);
        }
    }
    drop(quarters);
    inverse_two_levels(&mut blocks[..job.outputs], job.prime);
}

/// `R^2 / N mod p`: a Montgomery product by it carries the `1/N` of the inverse transform,
/// `(a b / R) (R^2 / N) / R = a b / N`.
fn scale(m: Modulus, size: usize) -> u64 {
    let n_inv = m.pow(size as u64, m.p - 2);
    m.fold(m.mont(m.to_mont(n_inv), m.r2))
}

/// The cyclic convolutions behind every product here: the numbers `inputs` (little-endian
/// words) transformed at length `size` modulo each prime, combined by `pointwise(prime
/// index, modulus, scale, spectra)`, and the first `outputs` of them transformed back;
/// returns the product words of each of those (Garner's CRT, in place in the first prime's
/// buffer, so no fresh memory).
fn convolve<F>(inputs: &[&[u64]], size: usize, outputs: usize, pointwise: F) -> Vec<Vec<u64>>
where
    F: Fn(usize, Modulus, u64, &mut [&mut [u64]]) + Sync,
{
    assert!(size.is_power_of_two() && inputs.iter().all(|x| x.len() <= size));
    assert!((1..=inputs.len()).contains(&outputs));
    let [r0, r1, r2] = per_prime(|i| {
        let prime = &primes()[i];
        let scale = scale(prime.m, size);
        let mut owned: Vec<Vec<u64>> = inputs.iter().map(|_| vec![0u64; size]).collect();
        let mut bufs: Vec<&mut [u64]> = owned.iter_mut().map(|v| v.as_mut_slice()).collect();
        let op = |b: &mut [&mut [u64]]| pointwise(i, prime.m, scale, b);
        let job = Job {
            prime,
            outputs,
            pointwise: &op,
        };
        convolve_at(&mut bufs, Some(inputs), &job);
        owned.truncate(outputs);
        owned
    });
    let triples: Vec<_> = r0.into_iter().zip(r1).zip(r2).collect();
    triples
        .into_par_iter()
        .map(|((a, b), c)| garner(a, &b, &c))
        .collect()
}

/// The Montgomery product `a b / N` (with [`scale`]) of two transformed values in `[0, 2p)`,
/// in `[0, 2p)`.
#[inline(always)]
fn scaled_product(m: Modulus, scale: u64, a: u64, b: u64) -> u64 {
    m.mont(m.fold(m.mont(a, b)), scale)
}

/// `f (x f + y o)` and `o^2` for the little-endian words `f` and `o` and small constants
/// given as their residues `x mod p_i`, `y mod p_i`, at transform length `size` (a power of
/// two from [`transform_size`] that holds both products; each product coefficient must stay
/// below `2^COEFFICIENT_BITS`): the psi level's `w (a w + (m - a) l)` and `m l^2` with each
/// operand transformed once (two forward and two inverse transforms instead of five),
/// without trailing zero words.
pub(crate) fn mixed_and_square(
    f: &[u64],
    o: &[u64],
    x: [u64; 3],
    y: [u64; 3],
    size: usize,
) -> (Vec<u64>, Vec<u64>) {
    let products = convolve(&[f, o], size, 2, |i, m, scale, b| {
        let (xm, ym) = (m.to_mont(x[i]), m.to_mont(y[i]));
        let two_p = 2 * m.p;
        let (fs, os) = b.split_at_mut(1);
        for (f, o) in fs[0].iter_mut().zip(os[0].iter_mut()) {
            let s = m.mont(*f, xm) + m.mont(*o, ym);
            let s = if s >= two_p { s - two_p } else { s };
            *f = scaled_product(m, scale, s, *f);
            *o = scaled_product(m, scale, *o, *o);
        }
    });
    let [mixed, square]: [Vec<u64>; 2] = products.try_into().expect("two outputs");
    (mixed, square)
}

/// `a b mod p` for a constant `b < p` with `b_shoup = floor(b 2^64 / p)` (Shoup), `p < 2^63`.
#[inline]
fn mul_shoup(a: u64, b: u64, b_shoup: u64, p: u64) -> u64 {
    let q = ((u128::from(a) * u128::from(b_shoup)) >> 64) as u64;
    let r = a.wrapping_mul(b).wrapping_sub(q.wrapping_mul(p));
    if r >= p { r - p } else { r }
}

fn shoup(b: u64, p: u64) -> u64 {
    ((u128::from(b) << 64) / u128::from(p)) as u64
}

fn mul_mod(a: u64, b: u64, p: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(p)) as u64
}

fn pow_mod(mut base: u64, mut exponent: u64, p: u64) -> u64 {
    let mut result = 1;
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = mul_mod(result, base, p);
        }
        base = mul_mod(base, base, p);
        exponent >>= 1;
    }
    result
}

/// Garner's CRT of the coefficient residues (in `[0, 4p)`) and the carries into 64-bit
/// words, written over the first prime's residues (word `i` only once residue `i` is read).
fn garner(mut r0: Vec<u64>, r1: &[u64], r2: &[u64]) -> Vec<u64> {
    let [p0, p1, p2] = PRIMES;
    // x = r0 + p0 t1 + p0 p1 t2, t1 = (r1 - r0) / p0 mod p1, t2 = (r2 - x01) / (p0 p1) mod p2.
    let inv01 = pow_mod(p0 % p1, p1 - 2, p1);
    let inv01_s = shoup(inv01, p1);
    let p01 = u128::from(p0) * u128::from(p1);
    let p0_mod2 = p0 % p2;
    let p0_mod2_s = shoup(p0_mod2, p2);
    let inv012 = pow_mod((p01 % u128::from(p2)) as u64, p2 - 2, p2);
    let inv012_s = shoup(inv012, p2);
    let (p01_lo, p01_hi) = (p01 as u64, (p01 >> 64) as u64);
    // The running sum of the coefficients not yet written, shifted: below 2^192.
    let (mut c0, mut c1, mut c2) = (0u64, 0u64, 0u64);
    // The inverse transforms leave residues in [0, 4p).
    let fold4 = |x: u64, p: u64| {
        let x = if x >= 2 * p { x - 2 * p } else { x };
        if x >= p { x - p } else { x }
    };
    for ((r, &a1), &a2) in r0.iter_mut().zip(r1).zip(r2) {
        let (a0, a1, a2) = (fold4(*r, p0), fold4(a1, p1), fold4(a2, p2));
        let a0_1 = if a0 >= p1 { a0 - p1 } else { a0 };
        let d1 = if a1 >= a0_1 {
            a1 - a0_1
        } else {
            a1 + p1 - a0_1
        };
        let t1 = mul_shoup(d1, inv01, inv01_s, p1);
        // x01 = a0 + p0 t1 < p0 p1, and x01 mod p2.
        let x01 = u128::from(a0) + u128::from(p0) * u128::from(t1);
        let a0_2 = if a0 >= p2 { a0 - p2 } else { a0 };
        let x01_2 = a0_2 + mul_shoup(t1, p0_mod2, p0_mod2_s, p2);
        let x01_2 = if x01_2 >= p2 { x01_2 - p2 } else { x01_2 };
        let d2 = if a2 >= x01_2 {
            a2 - x01_2
        } else {
            a2 + p2 - x01_2
        };
        let t2 = mul_shoup(d2, inv012, inv012_s, p2);
        // x = x01 + p01 t2 (three words).
        let lo = u128::from(p01_lo) * u128::from(t2);
        let hi = u128::from(p01_hi) * u128::from(t2);
        let (x0, carry) = (x01 as u64).overflowing_add(lo as u64);
        let mid = (x01 >> 64) + (lo >> 64) + u128::from(hi as u64) + u128::from(carry);
        let x1 = mid as u64;
        let x2 = ((mid >> 64) + (hi >> 64)) as u64;
        // Add x to the running sum, emit its low word, shift.
        let (s0, k0) = c0.overflowing_add(x0);
        let s1 = u128::from(c1) + u128::from(x1) + u128::from(k0);
        let s2 = c2 + x2 + (s1 >> 64) as u64;
        *r = s0;
        c0 = s1 as u64;
        c1 = s2;
        c2 = 0;
    }
    r0.extend([c0, c1, c2]);
    while r0.last() == Some(&0) {
        r0.pop();
    }
    r0
}

/// `a * b` for little-endian 64-bit words (no trailing zeros in the result; empty for
/// zero). Any lengths whose product has at most [`MAX_SIZE`] words.
///
/// # Examples
///
/// ```
/// use pathology::numeric::ntt::{multiply, square};
/// // (2^64 - 1)^2 = 2^128 - 2^65 + 1.
/// assert_eq!(square(&[u64::MAX]), vec![1, u64::MAX - 1]);
/// assert_eq!(multiply(&[0, 1], &[3]), vec![0, 3]); // 2^64 * 3
/// assert!(multiply(&[], &[3]).is_empty());
/// ```
///
/// # Panics
///
/// When the product is longer than [`MAX_SIZE`] words.
pub fn multiply(a: &[u64], b: &[u64]) -> Vec<u64> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let size = transform_size(a.len() + b.len() - 1);
    let mut products = convolve(&[a, b], size, 1, |_, m, scale, bufs| {
        let (xs, ys) = bufs.split_at_mut(1);
        for (x, &y) in xs[0].iter_mut().zip(ys[0].iter()) {
            *x = scaled_product(m, scale, *x, y);
        }
    });
    products.pop().expect("one output")
}

/// `a * a`, as [`multiply`] (one forward transform instead of two).
///
/// # Panics
///
/// When the square is longer than [`MAX_SIZE`] words.
pub fn square(a: &[u64]) -> Vec<u64> {
    if a.is_empty() {
        return Vec::new();
    }
    let mut products = convolve(
        &[a],
        transform_size(2 * a.len() - 1),
        1,
        |_, m, scale, bufs| {
            for x in bufs[0].iter_mut() {
                *x = scaled_product(m, scale, *x, *x);
            }
        },
    );
    products.pop().expect("one output")
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn to_big(words: &[u64]) -> BigUint {
        let digits: Vec<u32> = words
            .iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect();
        BigUint::from_slice(&digits)
    }

    fn from_big(x: &BigUint) -> Vec<u64> {
        let mut v = x.to_u64_digits();
        if v == [0] {
            v.clear();
        }
        v
    }

    /// xorshift64: deterministic test words.
    fn words(len: usize, seed: &mut u64) -> Vec<u64> {
        (0..len)
            .map(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                *seed
            })
            .collect()
    }

    fn is_prime(n: u64) -> bool {
        let (mut d, mut s) = (n - 1, 0);
        while d % 2 == 0 {
            d /= 2;
            s += 1;
        }
        'witness: for a in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
            let mut x = pow_mod(a, d, n);
            if x == 1 || x == n - 1 {
                continue;
            }
            for _ in 1..s {
                x = mul_mod(x, x, n);
                if x == n - 1 {
                    continue 'witness;
                }
            }
            return false;
        }
        true
    }

    #[test]
    fn primes_are_primes_of_the_documented_form() {
        for p in PRIMES {
            assert!(is_prime(p), "{p}");
            assert!(p < 1 << 62 && p > 1 << 61);
            assert_eq!((p - 1) % (1 << 30), 0);
        }
        let product = to_big(&[1]) * PRIMES[0] * PRIMES[1] * PRIMES[2];
        assert!(product.bits() > 185);
    }

    #[test]
    fn reduce_word_is_the_remainder() {
        for p in PRIMES {
            for w in [
                0,
                1,
                p - 1,
                p,
                p + 1,
                2 * p,
                3 * p + 5,
                u64::MAX,
                u64::MAX - 1,
                1 << 62,
            ] {
                assert_eq!(reduce_word(w, p), w % p, "{w} mod {p}");
            }
        }
    }

    #[test]
    fn products_match_num_bigint_for_lengths_1_to_300() {
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        for len_a in 1..=300 {
            let len_b = 1 + (len_a * 37) % 300;
            let (a, b) = (words(len_a, &mut seed), words(len_b, &mut seed));
            assert_eq!(
                multiply(&a, &b),
                from_big(&(to_big(&a) * to_big(&b))),
                "{len_a} x {len_b}"
            );
            assert_eq!(
                square(&a),
                from_big(&(to_big(&a) * to_big(&a))),
                "{len_a}^2"
            );
        }
    }

    #[test]
    fn products_match_num_bigint_at_every_transform_shape() {
        // Transform lengths 2^11 to 2^17: the load level, radix-2 and radix-4 levels above
        // the in-cache blocks, with odd and even numbers of levels.
        let mut seed = 0x2545_f491_4f6c_dd1d;
        for len in [513, 1025, 2049, 4097, 8193, 16_385, 32_769] {
            let (a, b) = (words(len, &mut seed), words(len - 17, &mut seed));
            assert_eq!(
                multiply(&a, &b),
                from_big(&(to_big(&a) * to_big(&b))),
                "{len}"
            );
            assert_eq!(square(&a), from_big(&(to_big(&a) * to_big(&a))), "{len}^2");
        }
    }

    #[test]
    fn all_ones_words_give_the_largest_coefficients() {
        for len in [1, 2, 15, 16, 17, 255, 256, 1000, 4097] {
            let a = vec![u64::MAX; len];
            let expected = from_big(&(to_big(&a) * to_big(&a)));
            assert_eq!(square(&a), expected, "{len}");
            assert_eq!(multiply(&a, &a), expected, "{len}");
            let b = vec![u64::MAX; 3 * len + 1];
            assert_eq!(multiply(&a, &b), from_big(&(to_big(&a) * to_big(&b))));
        }
    }

    #[test]
    fn edge_inputs() {
        assert!(multiply(&[], &[5]).is_empty());
        assert!(square(&[]).is_empty());
        assert!(multiply(&[0, 0], &[7]).is_empty());
        assert_eq!(multiply(&[3], &[5]), vec![15]);
        assert_eq!(square(&[1 << 32]), vec![0, 1]);
        // Very unequal lengths, a word equal to each prime, and sparse words.
        let mut seed = 7;
        let long = words(5000, &mut seed);
        let short = [PRIMES[0], PRIMES[1], PRIMES[2], 0, 1];
        assert_eq!(
            multiply(&long, &short),
            from_big(&(to_big(&long) * to_big(&short)))
        );
        let mut sparse = vec![0u64; 3000];
        sparse[0] = u64::MAX;
        sparse[2999] = 1;
        assert_eq!(
            square(&sparse),
            from_big(&(to_big(&sparse) * to_big(&sparse)))
        );
    }

    #[test]
    fn large_products_match_num_bigint() {
        let mut seed = 42;
        let (a, b) = (words(70_000, &mut seed), words(50_001, &mut seed));
        assert_eq!(multiply(&a, &b), from_big(&(to_big(&a) * to_big(&b))));
    }

    #[test]
    fn mixed_and_square_match_num_bigint() {
        // w (3 w + 7 l) and l^2 from two forward transforms, at lengths below, at and above
        // the parallel split and the in-cache block.
        let mut seed = 99;
        for (len_w, len_l) in [(400, 333), (1, 1), (600, 600), (20_000, 17_001)] {
            let (w, l) = (words(len_w, &mut seed), words(len_l, &mut seed));
            let size = transform_size(2 * len_w.max(len_l));
            let (mixed, square) = mixed_and_square(&w, &l, [3; 3], [7; 3], size);
            let (bw, bl) = (to_big(&w), to_big(&l));
            assert_eq!(mixed, from_big(&(&bw * (&bw * 3u32 + &bl * 7u32))));
            assert_eq!(square, from_big(&(&bl * &bl)));
        }
    }
}
