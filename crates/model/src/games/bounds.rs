//! The box a game is solved in: every coordinate from 0 up to a bound.
//!
//! Every move of every game here lowers coordinates (or leaves them), so a
//! box `0..=b_i` is closed under moves and its Grundy values are those of the
//! unbounded game. A box is either one bound for every coordinate (`20`) or
//! one bound per coordinate (`20,10,20`); each game resolves it to a bound per
//! coordinate (a two-heap band game, say, widens `y` to its band).

use crate::{Error, Result};

/// A box given by the user: `N` for every coordinate, or one bound each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameBox {
    /// Every coordinate in `0..=N`.
    Uniform(u32),
    /// Coordinate `i` in `0..=bounds[i]`.
    Each(Vec<u32>),
}

impl GameBox {
    /// The per-coordinate bounds for a game of `dims` coordinates named `names`,
    /// taking `uniform(n)` for a single `N`.
    pub(crate) fn resolve(
        &self,
        names: &[String],
        uniform: impl FnOnce(u32) -> Vec<u32>,
    ) -> Result<Vec<u32>> {
        match self {
            GameBox::Uniform(n) => Ok(uniform(*n)),
            GameBox::Each(bounds) if bounds.len() == names.len() => Ok(bounds.clone()),
            GameBox::Each(bounds) => Err(Error::invalid_request(format!(
                "box: this game has {} coordinates ({}), but the box gives {} bounds; \
                 give one bound N or {} bounds separated by commas",
                names.len(),
                names.join(", "),
                bounds.len(),
                names.len()
            ))),
        }
    }
}

impl std::str::FromStr for GameBox {
    type Err = Error;

    /// Parses `N` or `N,N,...` (non-negative integers).
    fn from_str(s: &str) -> Result<GameBox> {
        // More bounds than any game has coordinates: refuse before splitting a huge text.
        let count = s.split(',').count();
        if count > super::nim::MAX_HEAPS {
            return Err(Error::invalid_request(format!(
                "box: {count} bounds given; no game has more than {} coordinates",
                super::nim::MAX_HEAPS
            )));
        }
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let mut bounds = Vec::with_capacity(parts.len());
        for part in &parts {
            let n: u32 = part.parse().map_err(|_| {
                Error::invalid_request(format!(
                    "box: expected N or N,N,N with non-negative integers below 2^32, got '{}'",
                    crate::error::excerpt(s)
                ))
            })?;
            bounds.push(n);
        }
        Ok(if bounds.len() == 1 {
            GameBox::Uniform(bounds[0])
        } else {
            GameBox::Each(bounds)
        })
    }
}

impl std::fmt::Display for GameBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameBox::Uniform(n) => write!(f, "{n}"),
            GameBox::Each(b) => {
                let parts: Vec<String> = b.iter().map(u32::to_string).collect();
                f.write_str(&parts.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_uniform_and_per_coordinate_boxes() {
        assert_eq!("20".parse::<GameBox>().unwrap(), GameBox::Uniform(20));
        assert_eq!(
            " 20, 10,20".parse::<GameBox>().unwrap(),
            GameBox::Each(vec![20, 10, 20])
        );
        let err = "20,x".parse::<GameBox>().unwrap_err().to_string();
        assert!(err.contains("'20,x'"), "{err}");
        assert!("-1".parse::<GameBox>().is_err());
        assert_eq!(GameBox::Each(vec![1, 2]).to_string(), "1,2");
    }

    #[test]
    fn resolve_checks_the_number_of_bounds() {
        let names: Vec<String> = ["x", "y", "z"].iter().map(|s| s.to_string()).collect();
        let b = GameBox::Each(vec![1, 2]);
        let err = b.resolve(&names, |n| vec![n; 3]).unwrap_err().to_string();
        assert!(
            err.contains("3 coordinates (x, y, z)") && err.contains("2 bounds"),
            "{err}"
        );
        assert_eq!(
            GameBox::Uniform(4).resolve(&names, |n| vec![n; 3]).unwrap(),
            vec![4, 4, 4]
        );
    }
}
