//! Multiplication of large natural numbers by a three-prime number-theoretic transform: the
//! engine behind the exact mode's Kronecker-packed convolutions ([`crate::number`]) at the
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

use std::sync::{Arc, Mutex};

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

/// The twiddles of the three primes for lengths up to `size`: `table[len + j] = w_(2 len)^j R
/// mod p` for `len = 1, 2, 4, .., size / 2` and `0 <= j < len` (Montgomery form), with
/// `w_(2 len)` fixed powers of one root of order `2^30`, so that the table of a length is a
/// prefix of the table of any longer one.
struct Tables {
    size: usize,
    moduli: [Modulus; 3],
    twiddles: [Vec<u64>; 3],
}

impl Tables {
    fn new(size: usize) -> Tables {
        let moduli = PRIMES.map(Modulus::new);
        let twiddles = std::array::from_fn(|i| {
            let m = moduli[i];
            let mut table = vec![0u64; size.max(2)];
            let half = size / 2;
            if half >= 1 {
                // The top level by repeated multiplication, the others by sampling it.
                let root = m.pow(m.root_of_order_2_30(), (1u64 << 30) / size as u64);
                let step = m.to_mont(root);
                let mut x = m.to_mont(1);
                for j in 0..half {
                    table[half + j] = x;
                    x = m.fold(m.mont(x, step));
                }
                let mut len = half / 2;
                while len >= 1 {
                    for j in 0..len {
                        table[len + j] = table[2 * len + 2 * j];
                    }
                    len /= 2;
                }
            }
            table
        });
        Tables {
            size,
            moduli,
            twiddles,
        }
    }
}

/// The cached tables (grown, never shrunk).
static CACHE: Mutex<Option<Arc<Tables>>> = Mutex::new(None);

fn tables(size: usize) -> Arc<Tables> {
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    match &*cache {
        Some(t) if t.size >= size => Arc::clone(t),
        _ => {
            let built = Arc::new(Tables::new(size));
            *cache = Some(Arc::clone(&built));
            built
        }
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

/// One forward level on `x` (first halves) and `y` (second halves): `(u, v) -> (u + v,
/// (u - v) w)`, values in `[0, 2p)` in and out.
#[inline(always)]
fn forward_level(x: &mut [u64], y: &mut [u64], w: &[u64], m: Modulus) {
    let two_p = 2 * m.p;
    for ((x, y), &w) in x.iter_mut().zip(y.iter_mut()).zip(w) {
        let (u, v) = (*x, *y);
        let s = u + v;
        *x = if s >= two_p { s - two_p } else { s };
        *y = m.mont(u + two_p - v, w);
    }
}

fn forward_small(a: &mut [u64], m: Modulus, table: &[u64]) {
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

/// One inverse level: `(u, v) -> (u + v w^-j, u - v w^-j)` with `w^-j = -w^(half - j)` read
/// from the level's forward table `w` backwards; values in `[0, 4p)` in and out (Harvey: one
/// conditional subtraction a butterfly).
#[inline(always)]
fn inverse_level(x: &mut [u64], y: &mut [u64], w: &[u64], m: Modulus) {
    let two_p = 2 * m.p;
    // j = 0: the twiddle is 1 (w[0] is R, 1 in Montgomery form).
    let u = if x[0] >= two_p { x[0] - two_p } else { x[0] };
    let t = m.mont(y[0], w[0]);
    x[0] = u + t;
    y[0] = u + two_p - t;
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

fn inverse_small(a: &mut [u64], m: Modulus, table: &[u64]) {
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

/// Freed transform buffers, reused: a fresh buffer of millions of words costs a page fault
/// per 4 KiB on first touch, about as much as a transform level.
static POOL: Mutex<Vec<Vec<u64>>> = Mutex::new(Vec::new());

/// At most this many buffers are kept in [`POOL`] (the live ones of one psi level).
const POOL_KEPT: usize = 9;

/// A buffer of `size` words (contents unspecified), from [`POOL`] when one fits.
fn take_buffer(size: usize) -> Vec<u64> {
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    // The smallest buffer that is large enough.
    let best = (0..pool.len())
        .filter(|&i| pool[i].capacity() >= size)
        .min_by_key(|&i| pool[i].capacity());
    match best {
        Some(i) => {
            let mut v = pool.swap_remove(i);
            drop(pool);
            v.resize(size, 0);
            v.truncate(size);
            v
        }
        None => {
            drop(pool);
            vec![0u64; size]
        }
    }
}

/// Returns a buffer to [`POOL`] (dropping the smallest kept one when it is full).
fn give_back(v: Vec<u64>) {
    if v.capacity() < BASE {
        return;
    }
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    pool.push(v);
    if pool.len() > POOL_KEPT {
        let smallest = (0..pool.len())
            .min_by_key(|&i| pool[i].capacity())
            .expect("the pool is not empty");
        let dropped = pool.swap_remove(smallest);
        drop(pool);
        drop(dropped);
    }
}

/// Runs `f(0)`, `f(1)`, `f(2)` in parallel (one per prime).
fn per_prime<T: Send>(f: impl Fn(usize) -> T + Sync) -> [T; 3] {
    let (a, (b, c)) = rayon::join(|| f(0), || rayon::join(|| f(1), || f(2)));
    [a, b, c]
}

/// Transforms at least this long run their two halves as separate rayon tasks (so that two
/// cores share the primes' work evenly); shorter ones recurse in one task.
const PARALLEL: usize = 1 << 15;

/// The first forward level read straight from the number's words: `words` reduced modulo
/// `p`, zero beyond its end, and `(u, v) -> (u + v, (u - v) w)` on the halves `x`, `y`.
/// One pass instead of a reducing pass and a level.
fn load_level(x: &mut [u64], y: &mut [u64], words: &[u64], w: &[u64], m: Modulus) {
    let half = x.len();
    let two_p = 2 * m.p;
    let word = |j: usize| words.get(j).map_or(0, |&x| reduce_word(x, m.p));
    for (j, (x, y)) in x.iter_mut().zip(y.iter_mut()).enumerate() {
        let (u, v) = (word(j), word(half + j));
        let s = u + v;
        *x = if s >= two_p { s - two_p } else { s };
        *y = m.mont(u + two_p - v, w[j]);
    }
}

/// Buffers `bufs[k]` of residues (one length, a power of two) at one prime: forward
/// transform, `pointwise`, inverse transform without the `1/N`, fused in one recursion.
///
/// Each call does its forward level, recurses into the two halves and does its inverse
/// level; blocks of at most [`BASE`] words are transformed forward, combined by
/// `pointwise` and transformed back while they are in L1. The forward transform leaves the
/// spectrum in bit-reversed order and the inverse reads it so, which a pointwise operation
/// does not mind. With `load`, the buffers are filled from the numbers' words (`load[k]`
/// into `bufs[k]`) on the way down. Values are in `[0, 2p)` from the forward transform and
/// must be so from `pointwise`; they come back in `[0, 4p)`.
fn convolve_at<F>(
    bufs: &mut [&mut [u64]],
    load: Option<&[&[u64]]>,
    m: Modulus,
    table: &[u64],
    pointwise: &F,
) where
    F: Fn(&mut [&mut [u64]]) + Sync,
{
    let n = bufs[0].len();
    if n <= BASE {
        for (k, b) in bufs.iter_mut().enumerate() {
            if let Some(words) = load {
                for (j, r) in b.iter_mut().enumerate() {
                    *r = words[k].get(j).map_or(0, |&x| reduce_word(x, m.p));
                }
            }
            forward_small(b, m, table);
        }
        pointwise(bufs);
        for b in bufs.iter_mut() {
            inverse_small(b, m, table);
        }
        return;
    }
    if n >= RADIX_4 && load.is_none() {
        return convolve_radix_4(bufs, m, table, pointwise);
    }
    let half = n / 2;
    let w = &table[half..n];
    let (mut lo, mut hi): (Vec<&mut [u64]>, Vec<&mut [u64]>) =
        bufs.iter_mut().map(|b| b.split_at_mut(half)).unzip();
    for (k, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
        match load {
            Some(words) => load_level(x, y, words[k], w, m),
            None => forward_level(x, y, w, m),
        }
    }
    if n >= PARALLEL {
        rayon::join(
            || convolve_at(&mut lo, None, m, table, pointwise),
            || convolve_at(&mut hi, None, m, table, pointwise),
        );
    } else {
        convolve_at(&mut lo, None, m, table, pointwise);
        convolve_at(&mut hi, None, m, table, pointwise);
    }
    for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
        inverse_level(x, y, w, m);
    }
}

/// Transforms at least this long do two levels in each pass over memory (radix 4) above
/// the in-cache blocks, halving the passes, which are bound by memory bandwidth there.
const RADIX_4: usize = 4 * BASE;

/// The forward butterfly `(u, v) -> (u + v, (u - v) w)`, values in `[0, 2p)`.
#[inline(always)]
fn forward_butterfly(u: u64, v: u64, w: u64, m: Modulus) -> (u64, u64) {
    let two_p = 2 * m.p;
    let s = u + v;
    (
        if s >= two_p { s - two_p } else { s },
        m.mont(u + two_p - v, w),
    )
}

/// The inverse butterfly `(u, v) -> (u + v w^-j, u - v w^-j)` at index `j` of a level whose
/// forward twiddles are `w` (`w^-j = -w^(len - j)`), values in `[0, 4p)`, as
/// [`inverse_level`].
#[inline(always)]
fn inverse_butterfly(u: u64, v: u64, j: usize, w: &[u64], m: Modulus) -> (u64, u64) {
    let two_p = 2 * m.p;
    let u = if u >= two_p { u - two_p } else { u };
    if j == 0 {
        let t = m.mont(v, w[0]);
        (u + t, u + two_p - t)
    } else {
        let t = m.mont(v, w[w.len() - j]);
        (u + two_p - t, u + t)
    }
}

/// Two forward levels on the quarters `x` of one block of length `4q`: the level of half
/// `2q` on `(x0, x2)` and `(x1, x3)`, then the level of half `q` on `(x0, x1)` and `(x2, x3)`.
fn forward_two_levels(x: [&mut [u64]; 4], table: &[u64], m: Modulus) {
    let [x0, x1, x2, x3] = x;
    let q = x0.len();
    let (x1, x2, x3) = (&mut x1[..q], &mut x2[..q], &mut x3[..q]);
    let (outer, inner) = (&table[2 * q..4 * q], &table[q..2 * q]);
    for j in 0..q {
        let (b0, b2) = forward_butterfly(x0[j], x2[j], outer[j], m);
        let (b1, b3) = forward_butterfly(x1[j], x3[j], outer[q + j], m);
        (x0[j], x1[j]) = forward_butterfly(b0, b1, inner[j], m);
        (x2[j], x3[j]) = forward_butterfly(b2, b3, inner[j], m);
    }
}

/// The inverse of [`forward_two_levels`]' order: the level of half `q`, then that of half `2q`.
fn inverse_two_levels(x: [&mut [u64]; 4], table: &[u64], m: Modulus) {
    let [x0, x1, x2, x3] = x;
    let q = x0.len();
    let (x1, x2, x3) = (&mut x1[..q], &mut x2[..q], &mut x3[..q]);
    let (inner, outer) = (&table[q..2 * q], &table[2 * q..4 * q]);
    for j in 0..q {
        let (a0, a1) = inverse_butterfly(x0[j], x1[j], j, inner, m);
        let (a2, a3) = inverse_butterfly(x2[j], x3[j], j, inner, m);
        (x0[j], x2[j]) = inverse_butterfly(a0, a2, j, outer, m);
        (x1[j], x3[j]) = inverse_butterfly(a1, a3, q + j, outer, m);
    }
}

/// [`convolve_at`] two levels at a time: both forward levels in one pass, the four quarters,
/// both inverse levels in one pass.
fn convolve_radix_4<F>(bufs: &mut [&mut [u64]], m: Modulus, table: &[u64], pointwise: &F)
where
    F: Fn(&mut [&mut [u64]]) + Sync,
{
    let n = bufs[0].len();
    let q = n / 4;
    let mut quarters: [Vec<&mut [u64]>; 4] = Default::default();
    for b in bufs.iter_mut() {
        let (x0, rest) = b.split_at_mut(q);
        let (x1, rest) = rest.split_at_mut(q);
        let (x2, x3) = rest.split_at_mut(q);
        forward_two_levels([&mut *x0, &mut *x1, &mut *x2, &mut *x3], table, m);
        for (quarter, x) in quarters.iter_mut().zip([x0, x1, x2, x3]) {
            quarter.push(x);
        }
    }
    let [q0, q1, q2, q3] = &mut quarters;
    if n >= PARALLEL {
        rayon::join(
            || {
                rayon::join(
                    || convolve_at(q0, None, m, table, pointwise),
                    || convolve_at(q1, None, m, table, pointwise),
                )
            },
            || {
                rayon::join(
                    || convolve_at(q2, None, m, table, pointwise),
                    || convolve_at(q3, None, m, table, pointwise),
                )
            },
        );
    } else {
        for quarter in [q0, q1, q2, q3] {
            convolve_at(quarter, None, m, table, pointwise);
        }
    }
    let [q0, q1, q2, q3] = quarters;
    for (((x0, x1), x2), x3) in q0.into_iter().zip(q1).zip(q2).zip(q3) {
        inverse_two_levels([x0, x1, x2, x3], table, m);
    }
}

/// `R^2 / N mod p`: a Montgomery product by it carries the `1/N` of the inverse transform,
/// `(a b / R) (R^2 / N) / R = a b / N`.
fn scale(m: Modulus, size: usize) -> u64 {
    let n_inv = m.pow(size as u64, m.p - 2);
    m.fold(m.mont(m.to_mont(n_inv), m.r2))
}

/// The cyclic convolutions behind every product here: the numbers `inputs` (little-endian
/// words) transformed at length `size` modulo each prime, combined by `pointwise(prime
/// index, modulus, scale, spectra)` and transformed back; returns, for each prime, the buffers (in `[0, 4p)`, in the
/// order of `inputs`).
fn convolve<F>(inputs: &[&[u64]], size: usize, pointwise: F) -> [Vec<Vec<u64>>; 3]
where
    F: Fn(usize, Modulus, u64, &mut [&mut [u64]]) + Sync,
{
    assert!(size.is_power_of_two() && inputs.iter().all(|x| x.len() <= size));
    let tables = tables(size);
    per_prime(|i| {
        let m = tables.moduli[i];
        let scale = scale(m, size);
        let mut owned: Vec<Vec<u64>> = inputs.iter().map(|_| take_buffer(size)).collect();
        let mut bufs: Vec<&mut [u64]> = owned.iter_mut().map(|v| v.as_mut_slice()).collect();
        let op = |b: &mut [&mut [u64]]| pointwise(i, m, scale, b);
        convolve_at(&mut bufs, Some(inputs), m, &tables.twiddles[i], &op);
        owned
    })
}

/// The product words of one output of [`convolve`] (buffer `k` of each prime), the buffers
/// given back to the pool.
fn read_back(residues: [Vec<u64>; 3]) -> Vec<u64> {
    let [r0, r1, r2] = &residues;
    let words = garner(r0, r1, r2);
    for v in residues {
        give_back(v);
    }
    words
}

/// Splits [`convolve`]'s per-prime buffers into per-output triples.
fn by_output(per_prime: [Vec<Vec<u64>>; 3]) -> Vec<[Vec<u64>; 3]> {
    let [a, b, c] = per_prime;
    a.into_iter()
        .zip(b)
        .zip(c)
        .map(|((x, y), z)| [x, y, z])
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
    let residues = convolve(&[f, o], size, |i, m, scale, b| {
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
    let mut outputs = by_output(residues).into_iter();
    let (mixed, square) = (outputs.next(), outputs.next());
    let (mixed, square) = (mixed.expect("two outputs"), square.expect("two outputs"));
    rayon::join(|| read_back(mixed), || read_back(square))
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

/// Garner's CRT of the coefficient residues and the carries into 64-bit words.
fn garner(r0: &[u64], r1: &[u64], r2: &[u64]) -> Vec<u64> {
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
    let mut out = Vec::with_capacity(r0.len() + 3);
    // The running sum of the coefficients not yet written, shifted: below 2^192.
    let (mut c0, mut c1, mut c2) = (0u64, 0u64, 0u64);
    // The inverse transforms leave residues in [0, 4p).
    let fold4 = |x: u64, p: u64| {
        let x = if x >= 2 * p { x - 2 * p } else { x };
        if x >= p { x - p } else { x }
    };
    for ((&a0, &a1), &a2) in r0.iter().zip(r1).zip(r2) {
        let (a0, a1, a2) = (fold4(a0, p0), fold4(a1, p1), fold4(a2, p2));
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
        out.push(s0);
        c0 = s1 as u64;
        c1 = s2;
        c2 = 0;
    }
    out.extend([c0, c1, c2]);
    while out.last() == Some(&0) {
        out.pop();
    }
    out
}

/// `a * b` for little-endian 64-bit words (no trailing zeros in the result; empty for
/// zero). Any lengths whose product has at most [`MAX_SIZE`] words.
///
/// # Examples
///
/// ```
/// use pathology::ntt::{multiply, square};
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
    let residues = convolve(&[a, b], size, |_, m, scale, bufs| {
        let (xs, ys) = bufs.split_at_mut(1);
        for (x, &y) in xs[0].iter_mut().zip(ys[0].iter()) {
            *x = scaled_product(m, scale, *x, y);
        }
    });
    let mut outputs = by_output(residues).into_iter();
    let product = read_back(outputs.next().expect("two outputs"));
    outputs.for_each(|r| r.into_iter().for_each(give_back));
    product
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
    let residues = convolve(
        &[a],
        transform_size(2 * a.len() - 1),
        |_, m, scale, bufs| {
            for x in bufs[0].iter_mut() {
                *x = scaled_product(m, scale, *x, *x);
            }
        },
    );
    read_back(by_output(residues).pop().expect("one output"))
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
