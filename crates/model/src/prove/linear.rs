//! Exact values of linear expressions on the way to the prover's logic: a known
//! rational, or an integer term over a positive denominator (`t / d`), so the
//! game files' exact rationals (`x/2 + z/3`) become terms with one floor
//! division at the end, as [`crate::games::cap_expr::CapExpr::to_logic`] does
//! for caps.

use super::ir::{CmpOp, Formula, Term};
use crate::exact::Rational;

/// A value: known, or `term / den` with `den >= 1`.
#[derive(Clone, Debug)]
pub enum Linear {
    /// A constant.
    Known(Rational),
    /// An integer term divided by a positive denominator.
    Over(Term, i128),
}

/// Why an expression is outside linear arithmetic, naming the construct.
pub const PRODUCT: &str =
    "a product of two heaps is outside linear arithmetic (only multiplication by a constant is)";
/// Why a division by a heap is refused.
pub const DIVISION: &str =
    "a division by a heap is outside linear arithmetic; divide by constants only";
/// Why a power of a heap is refused.
pub const POWER: &str = "a power of a heap (as in (x+z)**2) is outside linear arithmetic";

fn int(v: i128) -> Result<i64, String> {
    i64::try_from(v).map_err(|_| format!("the constant {v} is too large for the prover"))
}

fn arith(e: crate::exact::ArithError) -> String {
    match e {
        crate::exact::ArithError::Overflow => "a constant overflows".into(),
        crate::exact::ArithError::DivisionByZero => "it divides by zero".into(),
    }
}

fn scale(t: Term, c: i128) -> Result<Term, String> {
    Ok(if c == 1 { t } else { t.times(int(c)?) })
}

fn lcm(a: i128, b: i128) -> Result<i128, String> {
    let g = crate::exact::gcd(a.unsigned_abs(), b.unsigned_abs()) as i128;
    (a / g)
        .checked_mul(b)
        .ok_or_else(|| "a denominator overflows".to_string())
}

impl Linear {
    /// A variable.
    pub fn var(name: &str) -> Linear {
        Linear::Over(Term::var(name), 1)
    }

    /// `(term, den)` of the value.
    fn parts(self) -> Result<(Term, i128), String> {
        Ok(match self {
            Linear::Known(q) => (Term::Const(int(q.numer())?), q.denom()),
            Linear::Over(t, d) => (t, d),
        })
    }

    /// Both values over one denominator.
    fn common(a: Linear, b: Linear) -> Result<(Term, Term, i128), String> {
        let ((ta, da), (tb, db)) = (a.parts()?, b.parts()?);
        let d = lcm(da, db)?;
        Ok((scale(ta, d / da)?, scale(tb, d / db)?, d))
    }

    /// `-self`.
    pub fn negated(self) -> Result<Linear, String> {
        Ok(match self {
            Linear::Known(q) => Linear::Known(q.checked_neg().map_err(arith)?),
            Linear::Over(t, d) => Linear::Over(t.times(-1), d),
        })
    }

    /// `self + b` or `self - b`.
    pub fn add(self, b: Linear, subtract: bool) -> Result<Linear, String> {
        if let (Linear::Known(p), Linear::Known(q)) = (&self, &b) {
            let v = if subtract {
                p.checked_sub(*q)
            } else {
                p.checked_add(*q)
            };
            return Ok(Linear::Known(v.map_err(arith)?));
        }
        let (ta, tb, d) = Linear::common(self, b)?;
        Ok(Linear::Over(
            if subtract { ta.sub(tb) } else { ta.add(tb) },
            d,
        ))
    }

    /// `self * b`, one of them a constant.
    pub fn times(self, b: Linear) -> Result<Linear, String> {
        Ok(match (self, b) {
            (Linear::Known(p), Linear::Known(q)) => Linear::Known(p.checked_mul(q).map_err(arith)?),
            (Linear::Known(q), Linear::Over(t, d)) | (Linear::Over(t, d), Linear::Known(q)) => {
                let den = d.checked_mul(q.denom()).ok_or("a denominator overflows")?;
                Linear::Over(scale(t, q.numer())?, den)
            }
            _ => return Err(PRODUCT.into()),
        })
    }

    /// `self / b`, `b` a constant.
    pub fn divided_by(self, b: Linear) -> Result<Linear, String> {
        match (self, b) {
            (Linear::Known(p), Linear::Known(q)) => {
                Ok(Linear::Known(p.checked_div(q).map_err(arith)?))
            }
            (Linear::Over(t, d), Linear::Known(q)) => {
                if q.numer() == 0 {
                    return Err("it divides by zero".into());
                }
                // (t/d) / (n/m) = (t*m) / (d*n), the sign moved to the term.
                let den = d
                    .checked_mul(q.numer().abs())
                    .ok_or("a denominator overflows")?;
                Ok(Linear::Over(scale(t, q.numer().signum() * q.denom())?, den))
            }
            _ => Err(DIVISION.into()),
        }
    }

    /// `self ^ b`: constants, or a power 0 or 1 of a term.
    pub fn pow(self, b: Linear) -> Result<Linear, String> {
        match (self, b) {
            (Linear::Known(p), Linear::Known(q)) if q.is_integer() => {
                Ok(Linear::Known(p.checked_pow(q.numer()).map_err(arith)?))
            }
            (base, Linear::Known(q)) if q == Rational::int(1) => Ok(base),
            (_, Linear::Known(q)) if q == Rational::int(0) => Ok(Linear::Known(Rational::int(1))),
            _ => Err(POWER.into()),
        }
    }

    /// `floor(self)`.
    pub fn floor(self) -> Result<Linear, String> {
        Ok(match self {
            Linear::Known(q) => Linear::Known(Rational::int(q.floor())),
            Linear::Over(t, 1) => Linear::Over(t, 1),
            Linear::Over(t, d) => Linear::Over(t.floor_div(int(d)?), 1),
        })
    }

    /// `ceil(self)` = `-floor(-self)`.
    pub fn ceil(self) -> Result<Linear, String> {
        self.negated()?.floor()?.negated()
    }

    /// `|self|`.
    pub fn abs(self) -> Result<Linear, String> {
        Ok(match self {
            Linear::Known(q) if q.numer() < 0 => Linear::Known(q.checked_neg().map_err(arith)?),
            Linear::Known(q) => Linear::Known(q),
            Linear::Over(t, d) => Linear::Over(Term::Abs(Box::new(t)), d),
        })
    }

    /// `self mod b` as Mathematica has it: `self - b*floor(self/b)`, `b` a constant.
    pub fn modulo(self, b: Linear) -> Result<Linear, String> {
        let quotient = self.clone().divided_by(b.clone())?.floor()?;
        self.add(b.times(quotient)?, true)
    }

    /// `min` (or `max`) of the values.
    pub fn extreme(values: Vec<Linear>, max: bool) -> Result<Linear, String> {
        if values.iter().all(|v| matches!(v, Linear::Known(_))) {
            let mut best: Option<Rational> = None;
            for v in values {
                let Linear::Known(q) = v else { continue };
                best = Some(match best {
                    None => q,
                    Some(b) => {
                        let ord = q.checked_cmp(b).map_err(arith)?;
                        if (ord == std::cmp::Ordering::Greater) == max && ord.is_ne() {
                            q
                        } else {
                            b
                        }
                    }
                });
            }
            return best
                .map(Linear::Known)
                .ok_or_else(|| "min and max need arguments".into());
        }
        let mut parts = Vec::with_capacity(values.len());
        let mut d = 1;
        for v in values {
            let (t, dv) = v.parts()?;
            d = lcm(d, dv)?;
            parts.push((t, dv));
        }
        let mut folded: Option<Term> = None;
        for (t, dv) in parts {
            let t = scale(t, d / dv)?;
            folded = Some(match folded {
                None => t,
                Some(f) if max => f.max(t),
                Some(f) => f.min(t),
            });
        }
        folded
            .map(|t| Linear::Over(t, d))
            .ok_or_else(|| "min and max need arguments".into())
    }

    /// The value floored to a term (a coordinate of an option).
    pub fn floor_term(self) -> Result<Term, String> {
        match self.floor()? {
            Linear::Known(q) => Ok(Term::Const(int(q.numer())?)),
            Linear::Over(t, _) => Ok(t),
        }
    }

    /// `self op b` as a formula, exactly (both sides over one denominator).
    pub fn compare(self, op: CmpOp, b: Linear) -> Result<Formula, String> {
        let (ta, tb, _) = Linear::common(self, b)?;
        Ok(Formula::Cmp(op, ta, tb))
    }
}
