//! Exact section levels: the plane z = 1 - r as a reduced rational r = num/den.
//!
//! Every way a user names a level is turned into one exact rational before any
//! geometry happens: an integer level m at order n is m/2^n, a half level
//! m + 1/2 is (2m+1)/2^(n+1), and a real `--r` is parsed *from its decimal
//! text* (`0.37` is exactly 37/100, never the nearest binary float), so a
//! section at a real level is as exact as one at an integer level. The level
//! itself does not depend on the order n: the same r can be cut through S_n
//! for any n, which is what the level-of-detail and sweep code rely on.
//!
//! The geometry works in integers over a common denominator D = lcm(2^n, den);
//! [`MAX_DENOMINATOR`] bounds D so that every coordinate and every sum of two
//! coordinates fits an `i64` with room to spare.

use crate::exact::{gcd, Rational};
use crate::{Error, Result};

/// The largest common denominator the exact geometry accepts: 2^60.
///
/// Coordinates are at most D in magnitude and sums of two of them at most 2D,
/// so 2^60 keeps every intermediate value far inside `i64`.
pub const MAX_DENOMINATOR: u64 = 1 << 60;

/// The largest order n whose integer levels the exact arithmetic can cut (2^n <= 2^60).
pub const MAX_ORDER: u32 = 60;

/// A level r in [0, 1], exact: the plane z = 1 - r, r = `num / den` in lowest terms.
///
/// A thin wrapper of [`Rational`] that only the constructors below can make,
/// so that 0 <= r <= 1 and den <= 2^60 always hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Level(Rational);

/// How a level sits on the grid of S_n's octahedra at a given order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridLevel {
    /// r = m / 2^n: every octahedron that is cut is cut through its centre.
    Integer(u64),
    /// r = (m + 1/2) / 2^n: cut half-way between centre and apex; holds m.
    Half(u64),
    /// Neither: a real level.
    Other,
}

/// `n` at most `most` (the order whose levels the exact arithmetic can cut), the
/// `n` given shown as given.
fn check_order(n: u32, most: u32, flag: &str) -> Result<()> {
    if n > most {
        return Err(Error::invalid_parameter(
            "n",
            format!("`n` must be at most {most} for exact arithmetic (got {n}) when giving {flag}"),
        ));
    }
    Ok(())
}

impl Level {
    /// The exact rational `num / den`, reduced; `flag` names the option in errors.
    fn ratio_for(num: u128, den: u128, flag: &str, shown: &str) -> Result<Level> {
        if den == 0 {
            return Err(Error::invalid_marked(
                flag,
                format!("{flag} has a zero denominator (got {shown})"),
            ));
        }
        if num > den {
            return Err(Error::invalid_marked(
                flag,
                format!("{flag} must be at most 1 (the bottom vertex z = -1); got {shown}"),
            ));
        }
        let g = gcd(num, den).max(1);
        let (num, den) = (num / g, den / g);
        if den > u128::from(MAX_DENOMINATOR) {
            return Err(Error::invalid_marked(flag, format!(
                "{flag} {shown} needs a denominator over 2^60 for exact arithmetic; give fewer digits"
            )));
        }
        Ok(Level::reduced(num as u64, den as u64))
    }

    /// The level r = num / den (any fraction in [0, 1]); errors name `--r`.
    pub fn ratio(num: u64, den: u64) -> Result<Level> {
        Level::ratio_for(
            u128::from(num),
            u128::from(den),
            "`r`",
            &format!("{num}/{den}"),
        )
    }

    /// The integer level m at order n: r = m / 2^n, 1 <= m <= 2^n (`--level`).
    pub fn integer(n: u32, m: u64) -> Result<Level> {
        check_order(n, MAX_ORDER, "`level`")?;
        let top = 1u64 << n;
        if m == 0 {
            return Err(Error::invalid_parameter(
                "level",
                "`level` must be at least 1 (level 0 is the apex, a single point); got 0",
            ));
        }
        if m > top {
            return Err(Error::invalid_parameter(
                "level",
                format!("`level` must be at most 2^n = {top} for `n` {n}; got {m}"),
            ));
        }
        Level::ratio_for(u128::from(m), u128::from(top), "`level`", &m.to_string())
    }

    /// The half level m + 1/2 at order n: r = (2m + 1) / 2^(n+1), 0 <= m < 2^n (`--level`).
    pub fn half(n: u32, m: u64) -> Result<Level> {
        // A half level needs one more binary digit: 2^(n+1) <= 2^60.
        check_order(n, MAX_ORDER - 1, "a half `level`")?;
        let top = 1u64 << n;
        if m >= top {
            return Err(Error::invalid_parameter(
                "level",
                format!("`level` must be at most 2^n = {top} for `n` {n}; got {m}.5"),
            ));
        }
        Level::ratio_for(
            u128::from(2 * m + 1),
            u128::from(2 * top),
            "`level`",
            &format!("{m}.5"),
        )
    }

    /// Parses `--level` at order n: an integer like `11` or a half level like `5.5`.
    pub fn parse_level(n: u32, text: &str) -> Result<Level> {
        let t = text.trim();
        let bad = || {
            Error::invalid_parameter(
                "level",
                format!(
                    "`level` must be an integer or a half-integer such as 11 or 5.5; got '{text}'"
                ),
            )
        };
        let (int, frac) = match t.split_once('.') {
            Some((i, f)) => (i, f),
            None => (t, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return Err(bad());
        }
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(int) || !all_digits(frac) || int.len() > 19 {
            return Err(bad());
        }
        let m: u64 = if int.is_empty() {
            0
        } else {
            int.parse().map_err(|_| bad())?
        };
        let frac = frac.trim_end_matches('0');
        match frac {
            "" => Level::integer(n, m),
            "5" => Level::half(n, m),
            _ => Err(bad()),
        }
    }

    /// Parses `--r`: a decimal such as `0.37`, `1`, `3e-6`, or a fraction such as `3/8`.
    ///
    /// The decimal text is read exactly (0.37 = 37/100), so the section is exact.
    pub fn parse_r(text: &str) -> Result<Level> {
        let t = text.trim();
        let bad = || {
            Error::invalid_parameter(
                "r",
                format!("`r` must be a number in [0, 1] such as 0.37, 3e-6 or 3/8; got '{text}'"),
            )
        };
        if let Some(magnitude) = t.strip_prefix('-').filter(|m| !m.is_empty()) {
            // -0 (or -0.0, -0/7) is 0, the apex; anything else below 0 is no level.
            return match Level::parse_r(magnitude) {
                Ok(zero) if zero.0 == Rational::ZERO => Ok(zero),
                _ => Err(Error::invalid_parameter(
                    "r",
                    format!("`r` must not be negative (r = 0 is the apex); got {t}"),
                )),
            };
        }
        if let Some((p, q)) = t.split_once('/') {
            let p: u128 = p.trim().parse().map_err(|_| bad())?;
            let q: u128 = q.trim().parse().map_err(|_| bad())?;
            return Level::ratio_for(p, q, "`r`", t);
        }
        let t = t.strip_prefix('+').unwrap_or(t);
        let (mantissa, exponent) = match t.find(['e', 'E']) {
            Some(i) => (&t[..i], t[i + 1..].parse::<i32>().map_err(|_| bad())?),
            None => (t, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if (int.is_empty() && frac.is_empty())
            || !int.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let int = int.trim_start_matches('0');
        let frac = frac.trim_end_matches('0');
        let digits = format!("{int}{frac}");
        let digits = digits.trim_start_matches('0');
        // Value = digits * 10^(exponent - frac.len()).
        let power = i64::from(exponent) - frac.len() as i64;
        if digits.is_empty() {
            return Ok(Level(Rational::ZERO));
        }
        let too_long = || {
            Error::invalid_parameter("r", format!(
                "`r` {t} has too many digits for exact arithmetic; give at most 17 significant digits"
            ))
        };
        if digits.len() > 36 {
            return Err(too_long());
        }
        let num: u128 = digits.parse().map_err(|_| bad())?;
        if power >= 0 {
            // An integer value: only 0 and 1 are levels.
            if power > 2
                || num
                    .checked_mul(10u128.pow(power as u32))
                    .is_none_or(|v| v > 1)
            {
                return Err(Error::invalid_parameter(
                    "r",
                    format!("`r` must be at most 1 (the bottom vertex z = -1); got {t}"),
                ));
            }
            return Ok(Level(Rational::ONE));
        }
        if -power > 36 {
            return Err(too_long());
        }
        let den = 10u128.pow((-power) as u32);
        Level::ratio_for(num, den, "`r`", t).map_err(|e| match e {
            Error::InvalidParameter { ref message, .. } if message.contains("2^60") => too_long(),
            other => other,
        })
    }

    /// A real level from a float, read through its shortest decimal form
    /// (`0.37_f64` becomes exactly 37/100), for callers that hold an `f64`.
    pub fn from_f64(r: f64) -> Result<Level> {
        if r.is_nan() {
            return Err(Error::invalid_parameter(
                "r",
                "`r` must be a number in [0, 1]; got NaN",
            ));
        }
        if r < 0.0 {
            return Err(Error::invalid_parameter(
                "r",
                format!("`r` must not be negative (r = 0 is the apex); got {r}"),
            ));
        }
        if r > 1.0 {
            return Err(Error::invalid_parameter(
                "r",
                format!("`r` must be at most 1 (the bottom vertex z = -1); got {r}"),
            ));
        }
        Level::parse_r(&format!("{r:e}"))
    }

    /// Wraps `num / den`, already in lowest terms with 0 <= num <= den <= 2^60.
    fn reduced(num: u64, den: u64) -> Level {
        Level(Rational::new(num.into(), den.into()).expect("a level's denominator is at least 1"))
    }

    /// r as an exact rational.
    pub fn rational(&self) -> Rational {
        self.0
    }

    /// Numerator of r in lowest terms.
    pub fn numer(&self) -> u64 {
        // 0 <= num <= 2^60 by construction.
        self.0.numer() as u64
    }

    /// Denominator of r in lowest terms.
    pub fn denom(&self) -> u64 {
        // 1 <= den <= 2^60 by construction.
        self.0.denom() as u64
    }

    /// r as a float (for captions and pixels only).
    pub fn r(&self) -> f64 {
        self.0.to_f64()
    }

    /// The plane's height z = 1 - r as a float (for pixels only).
    pub fn z(&self) -> f64 {
        1.0 - self.r()
    }

    /// Where this level sits at order n: an integer level, a half level, or neither.
    pub fn at_order(&self, n: u32) -> GridLevel {
        if n > MAX_ORDER {
            return GridLevel::Other;
        }
        // r * 2^(n+1) = num * 2^(n+1) / den.
        let scaled = u128::from(self.numer()) << (n + 1);
        let den = u128::from(self.denom());
        if !scaled.is_multiple_of(den) {
            return GridLevel::Other;
        }
        let twice = (scaled / den) as u64;
        if twice.is_multiple_of(2) {
            GridLevel::Integer(twice / 2)
        } else {
            GridLevel::Half(twice / 2)
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_and_half_levels_are_dyadic_fractions() {
        assert_eq!(
            Level::integer(4, 11).unwrap(),
            Level::ratio(11, 16).unwrap()
        );
        assert_eq!(Level::integer(4, 12).unwrap(), Level::ratio(3, 4).unwrap());
        assert_eq!(Level::half(4, 5).unwrap(), Level::ratio(11, 32).unwrap());
        assert_eq!(
            Level::parse_level(4, "5.5").unwrap(),
            Level::half(4, 5).unwrap()
        );
        assert_eq!(
            Level::parse_level(4, "11").unwrap().at_order(4),
            GridLevel::Integer(11)
        );
        assert_eq!(Level::half(4, 5).unwrap().at_order(4), GridLevel::Half(5));
        assert_eq!(
            Level::half(4, 5).unwrap().at_order(5),
            GridLevel::Integer(11)
        );
        assert_eq!(
            Level::ratio(37, 100).unwrap().at_order(30),
            GridLevel::Other
        );
    }

    #[test]
    fn decimals_are_read_exactly() {
        let l = Level::parse_r("0.37").unwrap();
        assert_eq!((l.numer(), l.denom()), (37, 100));
        assert_eq!(
            Level::parse_r("3e-6").unwrap(),
            Level::ratio(3, 1_000_000).unwrap()
        );
        assert_eq!(Level::parse_r(".5").unwrap(), Level::ratio(1, 2).unwrap());
        assert_eq!(
            Level::parse_r("1.000").unwrap(),
            Level::ratio(1, 1).unwrap()
        );
        assert_eq!(Level::parse_r("0").unwrap(), Level::ratio(0, 1).unwrap());
        assert_eq!(Level::parse_r("3/8").unwrap(), Level::ratio(3, 8).unwrap());
        assert_eq!(
            Level::from_f64(0.37).unwrap(),
            Level::ratio(37, 100).unwrap()
        );
        assert_eq!(Level::from_f64(1.0).unwrap(), Level::ratio(1, 1).unwrap());
    }

    #[test]
    fn bad_levels_are_one_line_errors_naming_the_flag() {
        let cases: Vec<(Result<Level>, &str)> = vec![
            (Level::parse_level(4, "0"), "`level`"),
            (Level::parse_level(4, "17"), "`level`"),
            (Level::parse_level(4, "16.5"), "`level`"),
            (Level::parse_level(4, "5.25"), "`level`"),
            (Level::parse_level(4, "x"), "`level`"),
            (Level::parse_level(61, "3"), "`n`"),
            (Level::parse_r("-0.1"), "`r`"),
            (Level::parse_r("NaN"), "`r`"),
            (Level::parse_r("1.01"), "`r`"),
            (Level::parse_r("2"), "`r`"),
            (Level::parse_r("abc"), "`r`"),
            (Level::parse_r("0.1234567890123456789012345"), "`r`"),
            (Level::from_f64(f64::NAN), "`r`"),
            (Level::from_f64(-1.0), "`r`"),
        ];
        for (result, flag) in cases {
            let msg = result.unwrap_err().to_string();
            assert!(msg.contains(flag) && !msg.contains('\n'), "{msg}");
        }
    }

    #[test]
    fn minus_zero_is_the_apex_and_a_too_deep_half_level_names_the_n_given() {
        for zero in ["-0", "-0.0", "-0e3", "-0/7"] {
            assert_eq!(Level::parse_r(zero).unwrap(), Level::parse_r("0").unwrap());
        }
        assert_eq!(Level::from_f64(-0.0).unwrap(), Level::parse_r("0").unwrap());
        for negative in ["-0.1", "-1", "-2", "-x"] {
            let msg = Level::parse_r(negative).unwrap_err().to_string();
            assert!(msg.contains("must not be negative"), "{negative}: {msg}");
        }
        let msg = Level::parse_level(60, "77.5").unwrap_err().to_string();
        assert!(
            msg.contains("at most 59") && msg.contains("(got 60)"),
            "{msg}"
        );
        assert!(Level::parse_level(59, "77.5").is_ok());
    }
}
