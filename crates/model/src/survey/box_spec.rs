//! A survey's box, which may follow the parameter: `40`, `40,3,40`,
//! `8*k+16` or `x=8*k+16,z=8*k+16`.
//!
//! Each bound is an expression in the survey's parameter (a plain number is
//! one), in the cap language of [`CapExpr`] with the parameter bound to the
//! value surveyed: integers, `+ - * /`, `^`, `floor`, `min`, `max`, … The
//! bound is the floor of its value, which must be `>= 0` and below 2^32. The
//! heaps' own names (`x`, `y`, `z`) are not allowed in a bound: a box is a
//! box, the game decides which positions of it exist.
//!
//! The forms, resolved for each game:
//! * one bound `N`: every coordinate up to N, except a capped game's `y`, which
//!   runs up to the cap's largest value in the box;
//! * one bound per coordinate, `N,N,…`, in the game's order;
//! * named bounds `NAME=N,…`: the coordinates named; a capped game's `y`
//!   unnamed runs up to its cap over the named box, any other coordinate left
//!   out takes the largest bound given.

use crate::games::cap_expr::CapExpr;
use crate::games::{CappedGame, GameBox, GameSpec};
use crate::{Error, Result};

/// One bound: an optional coordinate name and its expression.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bound {
    name: Option<String>,
    expr: String,
}

/// A survey's box as given, resolved per value by [`SurveyBox::bounds`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SurveyBox {
    text: String,
    parameter: String,
    bounds: Vec<Bound>,
}

/// Whether `text` names a heap (`x`, `y`, `z` as a word): a bound may not.
fn names_a_heap(text: &str) -> Option<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| matches!(w.to_ascii_lowercase().as_str(), "x" | "y" | "z"))
        .map(str::to_string)
}

impl SurveyBox {
    /// Parses `text` for a survey over `parameter`; each expression is checked
    /// now (with the parameter bound to 1), evaluated per value later.
    pub fn parse(text: &str, parameter: &str) -> Result<SurveyBox> {
        let items: Vec<&str> = text.split(',').map(str::trim).collect();
        if items.len() > crate::games::nim::MAX_HEAPS {
            return Err(Error::invalid_parameter(
                "box",
                format!(
                    "`box`: {} bounds given; no game has more than {} coordinates",
                    items.len(),
                    crate::games::nim::MAX_HEAPS
                ),
            ));
        }
        let mut bounds = Vec::with_capacity(items.len());
        for item in items {
            let (name, expr) = match item.split_once('=') {
                Some((name, expr)) => {
                    let name = name.trim();
                    if name.is_empty() {
                        return Err(Error::invalid_parameter(
                            "box",
                            format!(
                                "`box`: '{}' is not NAME=EXPR; write e.g. x=8*{parameter}+16",
                                crate::error::excerpt(item)
                            ),
                        ));
                    }
                    (Some(name.to_string()), expr.trim())
                }
                None => (None, item),
            };
            if let Some(heap) = names_a_heap(expr) {
                return Err(Error::invalid_parameter("box", format!(
                    "`box`: '{}' uses the heap {heap}; a bound is a number or an expression in {parameter}, e.g. 8*{parameter}+16 (name the heap before '=': x=8*{parameter}+16)",
                    crate::error::excerpt(item)
                )));
            }
            CapExpr::parse_with(expr, &[(parameter, 1)]).map_err(|e| {
                Error::invalid_parameter(
                    "box",
                    format!(
                        "`box`: '{}': {}",
                        crate::error::excerpt(item),
                        e.to_string().trim_start_matches("cap expression: ")
                    ),
                )
            })?;
            bounds.push(Bound {
                name,
                expr: expr.to_string(),
            });
        }
        let named = bounds.iter().filter(|b| b.name.is_some()).count();
        if named != 0 && named != bounds.len() {
            return Err(Error::invalid_parameter("box", format!(
                "`box`: '{}' mixes named and unnamed bounds; name every bound (x=40,z=40) or none (40,3,40)",
                crate::error::excerpt(text)
            )));
        }
        Ok(SurveyBox {
            text: text.trim().to_string(),
            parameter: parameter.to_string(),
            bounds,
        })
    }

    /// The box as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// A fixed box, the same for every value: `N` or `N,N,…`.
    pub fn fixed(game_box: &GameBox) -> SurveyBox {
        let bounds = match game_box {
            GameBox::Uniform(n) => vec![n.to_string()],
            GameBox::Each(b) => b.iter().map(u32::to_string).collect(),
        };
        SurveyBox {
            text: game_box.to_string(),
            parameter: String::new(),
            bounds: bounds
                .into_iter()
                .map(|expr| Bound { name: None, expr })
                .collect(),
        }
    }

    /// Bound `b` at `value` of the parameter.
    fn eval(&self, b: &Bound, value: i64) -> Result<u32> {
        let what = || match &b.name {
            Some(n) => format!("{n}={}", b.expr),
            None => b.expr.clone(),
        };
        let bind: Vec<(&str, i64)> = if self.parameter.is_empty() {
            Vec::new()
        } else {
            vec![(self.parameter.as_str(), value)]
        };
        let expr = CapExpr::parse_with(&b.expr, &bind)?;
        let n = expr.cap(0, 0).map_err(|_| {
            Error::invalid_parameter(
                "box",
                format!(
                    "`box`: '{}' is negative or undefined at {}={value}; a bound must be >= 0",
                    crate::error::excerpt(&what()),
                    self.parameter
                ),
            )
        })?;
        u32::try_from(n).map_err(|_| {
            Error::invalid_parameter(
                "box",
                format!(
                    "`box`: '{}' is {n} at {}={value}, past 2^32",
                    crate::error::excerpt(&what()),
                    self.parameter
                ),
            )
        })
    }

    /// The bounds of `game` at `value` of the parameter, one per coordinate.
    pub fn bounds(&self, game: &GameSpec, value: i64) -> Result<Vec<u32>> {
        let values: Vec<u32> = self
            .bounds
            .iter()
            .map(|b| self.eval(b, value))
            .collect::<Result<_>>()?;
        if self.bounds.iter().all(|b| b.name.is_none()) {
            let game_box = if values.len() == 1 {
                GameBox::Uniform(values[0])
            } else {
                GameBox::Each(values)
            };
            return survey_bounds(game, &game_box);
        }
        let names = game.coordinate_names();
        let mut given: Vec<Option<u32>> = vec![None; names.len()];
        for (b, &n) in self.bounds.iter().zip(&values) {
            let name = b.name.as_deref().unwrap_or_default();
            let i = names
                .iter()
                .position(|c| c.eq_ignore_ascii_case(name))
                .ok_or_else(|| {
                    Error::invalid_parameter(
                        "box",
                        format!(
                            "`box`: '{}' is not a coordinate; {} has {}",
                            crate::error::excerpt(name),
                            game.name(),
                            names.join(", ")
                        ),
                    )
                })?;
            if given[i].replace(n).is_some() {
                return Err(Error::invalid_parameter(
                    "box",
                    format!("`box`: {} is bounded twice", names[i]),
                ));
            }
        }
        let largest = values.iter().copied().max().unwrap_or(0);
        if let GameSpec::Capped(g) = game {
            if given[1].is_none() {
                let (x, z) = (given[0].unwrap_or(largest), given[2].unwrap_or(largest));
                return Ok(vec![x, capped_top(g, x, z)?, z]);
            }
        }
        Ok(given.into_iter().map(|b| b.unwrap_or(largest)).collect())
    }
}

/// Columns (x, z) of a capped game a survey takes at most: a box of 8191 by 8191.
pub(super) const MAX_CAPPED_COLUMNS: u64 = 1 << 26;

/// The cap's largest value over `x <= x_max`, `z <= z_max`: how far `y` runs.
fn capped_top(g: &CappedGame, x_max: u32, z_max: u32) -> Result<u32> {
    let columns = (u64::from(x_max) + 1).saturating_mul(u64::from(z_max) + 1);
    if columns > MAX_CAPPED_COLUMNS {
        return Err(Error::invalid_parameter("box", format!(
            "`box` x {x_max} by z {z_max} gives {columns} columns of a capped game; give at most {MAX_CAPPED_COLUMNS} (8191 by 8191)"
        )));
    }
    let mut top = 0u64;
    for x in 0..=x_max {
        for z in 0..=z_max {
            top = top.max(g.cap().eval(x, z)?);
        }
    }
    u32::try_from(top).map_err(|_| {
        Error::invalid_parameter("box", format!(
            "the cap of {} reaches {top} in the box, past 2^32; give `box` with a bound for y (N,Y,N)",
            GameSpec::Capped(g.clone()).name()
        ))
    })
}

/// The box of `game` for a fixed `game_box`: a single `N` bounds every
/// coordinate, except a capped game's `y`, which runs up to the cap's largest
/// value in the box.
pub fn survey_bounds(game: &GameSpec, game_box: &GameBox) -> Result<Vec<u32>> {
    match (game, game_box) {
        (GameSpec::Capped(g), GameBox::Uniform(n)) => Ok(vec![*n, capped_top(g, *n, *n)?, *n]),
        _ => game.resolve_box(game_box),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameParams, GameSpec};

    fn min_k(k: i64) -> GameSpec {
        use crate::survey::GameFamily;
        crate::survey::CapFamily::new("floor(min(x,z)/k)", "k")
            .unwrap()
            .game(k)
            .unwrap()
    }

    #[test]
    fn bounds_follow_the_parameter() {
        let b = SurveyBox::parse("x=8*k+16, z=8*k+16", "k").unwrap();
        // y runs to the cap over the named box: floor(104/11) = 9.
        assert_eq!(b.bounds(&min_k(11), 11).unwrap(), vec![104, 9, 104]);
        let plain = SurveyBox::parse("40", "k").unwrap();
        assert_eq!(plain.bounds(&min_k(11), 11).unwrap(), vec![40, 3, 40]);
        let tri = GameSpec::from_name(
            "triangular",
            &GameParams {
                k: Some(3),
                ..Default::default()
            },
        )
        .unwrap();
        let each = SurveyBox::parse("2*k,k,floor(k/2)", "k").unwrap();
        assert_eq!(each.bounds(&tri, 6).unwrap(), vec![12, 6, 3]);
        let nim = GameSpec::from_name("nim", &GameParams::default()).unwrap();
        assert_eq!(
            SurveyBox::parse("y=k,x=2", "k")
                .unwrap()
                .bounds(&nim, 5)
                .unwrap(),
            vec![2, 5, 5]
        );
    }

    #[test]
    fn bad_boxes_are_named() {
        for (text, says) in [
            ("8*x", "uses the heap x"),
            ("x=8*k,16", "mixes named"),
            ("=4", "not NAME=EXPR"),
            ("k+", "`box`"),
            ("j+1", "`box`"),
        ] {
            let e = SurveyBox::parse(text, "k").unwrap_err().to_string();
            assert!(e.contains(says) && !e.contains('\n'), "{text}: {e}");
        }
        let nim = GameSpec::from_name("nim", &GameParams::default()).unwrap();
        let b = SurveyBox::parse("k-5", "k").unwrap();
        assert!(b
            .bounds(&nim, 2)
            .unwrap_err()
            .to_string()
            .contains("negative"));
        let w = SurveyBox::parse("w=3", "k").unwrap();
        assert!(w
            .bounds(&nim, 2)
            .unwrap_err()
            .to_string()
            .contains("not a coordinate"));
    }
}
