//! Exact arithmetic shared by every model: greatest common divisors, integer
//! square roots and an exact rational with checked arithmetic.
//!
//! The models never round behind the user's back: cap expressions divide
//! exactly, octahedron levels are read from their decimal text, section
//! coordinates are printed as reduced fractions. They all rest on these few
//! functions, so there is one place to get them right. Every operation that
//! could leave its integer type reports [`ArithError::Overflow`] instead of
//! wrapping.

use std::cmp::Ordering;
use std::ops::Rem;

/// Why an exact operation could not give its exact result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithError {
    /// The exact result (or an intermediate value) does not fit the integer type.
    Overflow,
    /// A division by zero, or a zero denominator.
    DivisionByZero,
}

impl std::fmt::Display for ArithError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ArithError::Overflow => "exact arithmetic overflowed",
            ArithError::DivisionByZero => "division by zero",
        })
    }
}

impl std::error::Error for ArithError {}

/// The unsigned integer types [`gcd`] works on (sealed: signed remainders
/// could make a gcd negative).
pub trait Unsigned: Copy + PartialEq + Default + Rem<Output = Self> + sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Unsigned for $t {}
    )*};
}
unsigned!(u8, u16, u32, u64, u128, usize);

/// The greatest common divisor by Euclid's algorithm; `gcd(0, 0) == 0`.
pub fn gcd<T: Unsigned>(mut a: T, mut b: T) -> T {
    let zero = T::default();
    while b != zero {
        (a, b) = (b, a % b);
    }
    a
}

/// The integer square root: the largest `r` with `r * r <= n`.
pub fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    // A float guess (within a few units of the root), then exact correction.
    let mut r = (n as f64).sqrt() as u128;
    while r.checked_mul(r).is_none_or(|sq| sq > n) {
        r -= 1;
    }
    while (r + 1).checked_mul(r + 1).is_some_and(|sq| sq <= n) {
        r += 1;
    }
    r
}

/// An exact rational `num / den` in lowest terms with `den > 0`, over `i128`.
///
/// Every operation is checked: a result whose reduced numerator or denominator
/// (or an intermediate cross product) leaves `i128` is [`ArithError::Overflow`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rational {
    num: i128,
    den: i128,
}

impl Rational {
    /// Zero.
    pub const ZERO: Rational = Rational { num: 0, den: 1 };
    /// One.
    pub const ONE: Rational = Rational { num: 1, den: 1 };

    /// The integer `n`.
    pub const fn int(n: i128) -> Rational {
        Rational { num: n, den: 1 }
    }

    /// `num / den` reduced to lowest terms with a positive denominator.
    pub fn new(num: i128, den: i128) -> Result<Rational, ArithError> {
        if den == 0 {
            return Err(ArithError::DivisionByZero);
        }
        let (mut num, mut den) = (num, den);
        if den < 0 {
            num = num.checked_neg().ok_or(ArithError::Overflow)?;
            den = den.checked_neg().ok_or(ArithError::Overflow)?;
        }
        if den == 1 {
            return Ok(Rational { num, den });
        }
        // den > 0 here, so g <= den fits i128.
        let g = gcd(num.unsigned_abs(), den.unsigned_abs()) as i128;
        if g > 1 {
            num /= g;
            den /= g;
        }
        Ok(Rational { num, den })
    }

    /// The numerator (lowest terms; carries the sign).
    pub fn numer(self) -> i128 {
        self.num
    }

    /// The denominator (lowest terms; always positive).
    pub fn denom(self) -> i128 {
        self.den
    }

    /// Whether the value is a whole number.
    pub fn is_integer(self) -> bool {
        self.den == 1
    }

    /// `self + o`.
    pub fn checked_add(self, o: Rational) -> Result<Rational, ArithError> {
        if self.den == 1 && o.den == 1 {
            return self
                .num
                .checked_add(o.num)
                .map(Rational::int)
                .ok_or(ArithError::Overflow);
        }
        let a = self.num.checked_mul(o.den).ok_or(ArithError::Overflow)?;
        let b = o.num.checked_mul(self.den).ok_or(ArithError::Overflow)?;
        let d = self.den.checked_mul(o.den).ok_or(ArithError::Overflow)?;
        Rational::new(a.checked_add(b).ok_or(ArithError::Overflow)?, d)
    }

    /// `-self`.
    pub fn checked_neg(self) -> Result<Rational, ArithError> {
        Ok(Rational {
            num: self.num.checked_neg().ok_or(ArithError::Overflow)?,
            den: self.den,
        })
    }

    /// `self - o`.
    pub fn checked_sub(self, o: Rational) -> Result<Rational, ArithError> {
        self.checked_add(o.checked_neg()?)
    }

    /// `self * o`.
    pub fn checked_mul(self, o: Rational) -> Result<Rational, ArithError> {
        let n = self.num.checked_mul(o.num).ok_or(ArithError::Overflow)?;
        let d = self.den.checked_mul(o.den).ok_or(ArithError::Overflow)?;
        Rational::new(n, d)
    }

    /// `self / o`.
    pub fn checked_div(self, o: Rational) -> Result<Rational, ArithError> {
        if o.num == 0 {
            return Err(ArithError::DivisionByZero);
        }
        let n = self.num.checked_mul(o.den).ok_or(ArithError::Overflow)?;
        let d = self.den.checked_mul(o.num).ok_or(ArithError::Overflow)?;
        Rational::new(n, d)
    }

    /// `self ^ e` for an integer exponent (a negative one inverts first).
    pub fn checked_pow(self, e: i128) -> Result<Rational, ArithError> {
        let (base, mut n) = if e < 0 {
            (Rational::ONE.checked_div(self)?, e.unsigned_abs())
        } else {
            (self, e as u128)
        };
        // Exponents past 128 overflow unless the base is 0 or +-1; squaring
        // stops there in a few steps either way.
        let mut result = Rational::ONE;
        let mut square = base;
        while n > 0 {
            if n & 1 == 1 {
                result = result.checked_mul(square)?;
            }
            n >>= 1;
            if n > 0 {
                square = square.checked_mul(square)?;
            }
        }
        Ok(result)
    }

    /// The largest integer `<= self`.
    pub fn floor(self) -> i128 {
        self.num.div_euclid(self.den)
    }

    /// The smallest integer `>= self`.
    pub fn ceil(self) -> i128 {
        // Through the remainder, not f * den == num: f * den can pass i128::MIN
        // for numerators near it. f + 1 <= num / den + 1 cannot overflow either.
        let f = self.floor();
        if self.num.rem_euclid(self.den) == 0 {
            f
        } else {
            f + 1
        }
    }

    /// The nearest integer, ties to even (as Mathematica's `Round`).
    pub fn round(self) -> i128 {
        let f = self.floor();
        // The fractional part frac/den against 1/2, as frac against den - frac: doubling
        // frac could overflow for denominators near 2^127 (and num - f * den could
        // pass i128::MIN for numerators near it).
        let frac = self.num.rem_euclid(self.den);
        match frac.cmp(&(self.den - frac)) {
            Ordering::Less => f,
            Ordering::Greater => f + 1,
            Ordering::Equal => {
                if f.rem_euclid(2) == 0 {
                    f
                } else {
                    f + 1
                }
            }
        }
    }

    /// Exact comparison by cross-multiplication; an overflowing product is an error.
    pub fn checked_cmp(self, o: Rational) -> Result<Ordering, ArithError> {
        let l = self.num.checked_mul(o.den).ok_or(ArithError::Overflow)?;
        let r = o.num.checked_mul(self.den).ok_or(ArithError::Overflow)?;
        Ok(l.cmp(&r))
    }

    /// The value as a float (for pixels and captions only).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl From<i64> for Rational {
    fn from(n: i64) -> Rational {
        Rational::int(n.into())
    }
}

impl std::fmt::Display for Rational {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use num_integer::Integer;
    use proptest::prelude::*;

    fn brute_gcd(a: u64, b: u64) -> u64 {
        if a == 0 || b == 0 {
            return a.max(b);
        }
        (1..=a.min(b))
            .rev()
            .find(|d| a.is_multiple_of(*d) && b.is_multiple_of(*d))
            .unwrap()
    }

    /// The slow reference: an unreduced pair of big integers, compared and
    /// reduced only at the end.
    #[derive(Clone, Debug)]
    struct Big(BigInt, BigInt);

    impl Big {
        /// The exact reduced form, if both parts fit `i128` (else the
        /// checked arithmetic must have said Overflow).
        fn reduced(&self) -> Option<(i128, i128)> {
            let g = self.0.gcd(&self.1);
            let (mut n, mut d) = (&self.0 / &g, &self.1 / &g);
            if d < BigInt::from(0) {
                (n, d) = (-n, -d);
            }
            Some((i128::try_from(n).ok()?, i128::try_from(d).ok()?))
        }
    }

    fn rational() -> impl Strategy<Value = Rational> {
        prop_oneof![
            (-50i128..50, 1i128..50),
            (any::<i64>().prop_map(i128::from), 1i128..1_000_000),
            (
                any::<i128>(),
                any::<i128>().prop_filter("non-zero", |d| *d != 0)
            ),
        ]
        .prop_filter_map("representable", |(n, d)| Rational::new(n, d).ok())
    }

    /// `got` is the exact value when it fits, and Overflow only when it does not.
    fn agrees(
        got: Result<Rational, ArithError>,
        want: Big,
    ) -> std::result::Result<(), TestCaseError> {
        match (got, want.reduced()) {
            (Ok(q), Some(w)) => prop_assert_eq!((q.numer(), q.denom()), w),
            (Err(ArithError::Overflow), None) => {}
            // Intermediate cross products may overflow even when the reduced
            // result would fit: allowed (it is reported, never wrapped).
            (Err(ArithError::Overflow), Some(_)) => {}
            (got, want) => prop_assert!(false, "got {got:?}, want {want:?}"),
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn gcd_matches_brute_force(a in 0u64..3000, b in 0u64..3000) {
            let g = brute_gcd(a, b);
            prop_assert_eq!(gcd(a, b), g);
            prop_assert_eq!(gcd(u128::from(a), u128::from(b)), u128::from(g));
            prop_assert_eq!(gcd(a as u32, b as u32), g as u32);
        }

        #[test]
        fn gcd_of_large_values_divides_both_and_is_greatest(a in any::<u128>(), b in any::<u128>()) {
            let g = gcd(a, b);
            let want = BigInt::from(a).gcd(&BigInt::from(b));
            prop_assert_eq!(BigInt::from(g), want);
        }

        #[test]
        fn isqrt_is_the_floor_of_the_root(n in any::<u128>()) {
            let r = isqrt(n);
            prop_assert!(r * r <= n);
            prop_assert!((r + 1).checked_mul(r + 1).is_none_or(|s| s > n));
        }

        #[test]
        fn rational_arithmetic_matches_big_integers(a in rational(), b in rational()) {
            let (an, ad) = (BigInt::from(a.numer()), BigInt::from(a.denom()));
            let (bn, bd) = (BigInt::from(b.numer()), BigInt::from(b.denom()));
            agrees(a.checked_add(b), Big(&an * &bd + &bn * &ad, &ad * &bd))?;
            agrees(a.checked_sub(b), Big(&an * &bd - &bn * &ad, &ad * &bd))?;
            agrees(a.checked_mul(b), Big(&an * &bn, &ad * &bd))?;
            agrees(a.checked_neg(), Big(-&an, ad.clone()))?;
            if b.numer() == 0 {
                prop_assert_eq!(a.checked_div(b), Err(ArithError::DivisionByZero));
            } else {
                agrees(a.checked_div(b), Big(&an * &bd, &ad * &bn))?;
            }
            match a.checked_cmp(b) {
                Ok(o) => prop_assert_eq!(o, (&an * &bd).cmp(&(&bn * &ad))),
                Err(e) => prop_assert_eq!(e, ArithError::Overflow),
            }
            // floor, ceil and round by big-integer division.
            let f = an.div_floor(&ad);
            prop_assert_eq!(BigInt::from(a.floor()), f.clone());
            let c = if &f * &ad == an { f.clone() } else { &f + 1 };
            prop_assert_eq!(BigInt::from(a.ceil()), c);
            let frac: BigInt = &an - &f * &ad;
            let twice = (frac * BigInt::from(2)).cmp(&ad);
            let r = match twice {
                Ordering::Less => f.clone(),
                Ordering::Greater => &f + 1,
                Ordering::Equal => if f.is_even() { f.clone() } else { &f + 1 },
            };
            prop_assert_eq!(BigInt::from(a.round()), r);
        }

        #[test]
        fn small_powers_match_repeated_multiplication(n in -20i128..20, d in 1i128..20, e in -12i128..12) {
            let q = Rational::new(n, d).unwrap();
            let (bn, bd) = (BigInt::from(q.numer()), BigInt::from(q.denom()));
            let k = e.unsigned_abs() as u32;
            let want = if e >= 0 { Big(bn.pow(k), bd.pow(k)) } else { Big(bd.pow(k), bn.pow(k)) };
            if e < 0 && n == 0 {
                prop_assert_eq!(q.checked_pow(e), Err(ArithError::DivisionByZero));
            } else {
                agrees(q.checked_pow(e), want)?;
            }
        }
    }

    #[test]
    fn isqrt_at_the_edges() {
        for n in 0..=10_000u128 {
            let brute = (0..=n).take_while(|r| r * r <= n).last().unwrap();
            assert_eq!(isqrt(n), brute, "isqrt({n})");
        }
        assert_eq!(isqrt(u128::MAX), (1u128 << 64) - 1);
        let big = (1u128 << 100) + 12345;
        let r = isqrt(big);
        assert!(r * r <= big && (r + 1) * (r + 1) > big);
        for k in [1u128 << 40, (1 << 63) - 1, 1 << 63, u64::MAX as u128] {
            assert_eq!(isqrt(k * k), k);
            assert_eq!(isqrt(k * k - 1), k - 1);
        }
    }

    #[test]
    fn overflow_is_an_error_never_a_wrap() {
        let max = Rational::int(i128::MAX);
        let min = Rational::int(i128::MIN);
        assert_eq!(max.checked_add(Rational::ONE), Err(ArithError::Overflow));
        assert_eq!(min.checked_neg(), Err(ArithError::Overflow));
        assert_eq!(max.checked_mul(Rational::int(2)), Err(ArithError::Overflow));
        assert_eq!(Rational::int(2).checked_pow(127), Err(ArithError::Overflow));
        assert_eq!(Rational::int(2).checked_pow(126).unwrap().numer(), 1 << 126);
        assert_eq!(Rational::new(1, i128::MIN), Err(ArithError::Overflow));
        assert_eq!(Rational::new(1, 0), Err(ArithError::DivisionByZero));
        let tiny = Rational::new(1, i128::MAX).unwrap();
        assert_eq!(tiny.checked_mul(tiny), Err(ArithError::Overflow));
        assert_eq!(
            Rational::ONE.checked_div(Rational::ZERO),
            Err(ArithError::DivisionByZero)
        );
    }

    #[test]
    fn values_are_reduced_and_shown_as_fractions() {
        let q = Rational::new(6, -4).unwrap();
        assert_eq!((q.numer(), q.denom()), (-3, 2));
        assert_eq!(q.to_string(), "-3/2");
        assert_eq!(Rational::new(8, 4).unwrap().to_string(), "2");
        assert_eq!((q.floor(), q.ceil(), q.round()), (-2, -1, -2));
        assert_eq!(Rational::new(5, 2).unwrap().round(), 2);
        assert_eq!(Rational::new(7, 2).unwrap().round(), 4);
        // Rounding near i128::MIN must not overflow on the way (f * den < i128::MIN).
        let low = Rational::new(i128::MIN + 1, 3).unwrap();
        assert_eq!(low.floor(), (i128::MIN + 1).div_euclid(3));
        assert_eq!(low.ceil(), low.floor() + 1);
        // -(2^127 - 1)/3 = floor + 2/3, so it rounds up.
        assert_eq!(low.round(), low.ceil());
    }
}
