//! Lists of whole numbers as every command reads them: `11`, `1..24`,
//! `1..64:2`, `3,5,11`, the self-similar sequences of board sides
//! (`2^k+1:1..6`, `3,2m+1,...,255`), and one board side alone.

use crate::error::excerpt;

/// A list of values given as `11`, `1..24`, `1..64:2` or `3,5,11` (a newtype, so
/// clap treats the whole list as one value). Every command reads its lists the
/// same way: a list is a set, sorted ascending, each value once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueList(pub Vec<u64>);

/// Parses a list: whole numbers, ranges `a..b` (or `a..=b`, both ends included),
/// ranges with a step `a..b:s`, and comma lists of those. Values below `min` are
/// refused, and so is a list of more than `limit` values, counted before any is
/// made. The result is sorted, without repeats.
pub fn parse_list(text: &str, min: u64, limit: u64) -> Result<ValueList, String> {
    let number = |s: &str| -> Result<u64, String> {
        let s = s.trim();
        let value: u64 = s.parse().map_err(|_| {
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                format!(
                    "'{}' is over {}, the largest value taken (2^64 - 1)",
                    excerpt(s),
                    u64::MAX
                )
            } else {
                format!(
                    "'{}' is not a whole number; write e.g. 11, 1..24, 1..64:2 or 3,5,11",
                    excerpt(s)
                )
            }
        })?;
        if value < min {
            return Err(format!("values start at {min}; got {value}"));
        }
        Ok(value)
    };
    let mut parts = Vec::new();
    let mut count: u64 = 0;
    for part in text.split(',').map(str::trim) {
        let (range, step) = match part.split_once(':') {
            Some((range, step)) => {
                let step: u64 = step.trim().parse().ok().filter(|&s| s > 0).ok_or_else(|| {
                    format!(
                        "'{part}': the step after ':' must be a whole number from 1, as in 1..64:2"
                    )
                })?;
                (range, step)
            }
            None => (part, 1),
        };
        let (a, b) = match range.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.trim_start_matches('='))?),
            None if step == 1 => {
                let v = number(range)?;
                (v, v)
            }
            None => {
                return Err(format!(
                    "'{part}': a step belongs to a range, as in 1..64:2"
                ))
            }
        };
        if a > b {
            return Err(format!(
                "'{part}' is an empty range; write the smaller end first, e.g. {b}..{a}"
            ));
        }
        count = count.saturating_add((b - a) / step + 1);
        if count > limit {
            return Err(format!(
                "'{}' names more than {limit} values; ask for fewer",
                excerpt(text)
            ));
        }
        parts.push((a, b, step));
    }
    let mut values = Vec::with_capacity(count as usize);
    for (a, b, step) in parts {
        values.extend((a..=b).step_by(step as usize));
    }
    values.sort_unstable();
    values.dedup();
    Ok(ValueList(values))
}

/// Sequences of m that show self-similarity, so an animation over them does not
/// flicker as one over consecutive m does:
///
/// * `2^k+S:A..B` (or `2^k-S:A..B`): 2^k + S for k = A..=B, e.g. `2^k+1:1..6` is
///   3, 5, 9, 17, 33, 65;
/// * `S,Am+B,...,LIMIT` (or `Am-B`): S, then m ↦ A·m + B while the value stays at
///   most LIMIT (LIMIT left out: 12 terms), e.g. `3,2m+1,...,255` is 3, 7, 15, 31,
///   63, 127, 255 and `1,4m-1,...` is 1, 3, 11, 43, ...
///
/// `Ok(None)` when `text` is neither form (then it is an ordinary list).
pub fn parse_self_similar(text: &str) -> Result<Option<Vec<u64>>, String> {
    const MAX_TERMS: usize = 64;
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let number = |s: &str, what: &str| -> Result<u64, String> {
        s.parse::<u64>()
            .map_err(|_| format!("'{s}' in '{text}' is not a whole number ({what})"))
    };
    if let Some(rest) = t.strip_prefix("2^k") {
        let (shift, range) = rest.split_once(':').ok_or_else(|| {
            format!("'{text}': give the range of k after a colon, e.g. 2^k+1:1..6")
        })?;
        let (sign, s) = match shift.chars().next() {
            Some('+') => (1i128, &shift[1..]),
            Some('-') => (-1i128, &shift[1..]),
            None => (1, "0"),
            _ => return Err(format!("'{text}': write 2^k+S or 2^k-S, e.g. 2^k+1:1..6")),
        };
        let s = i128::from(number(s, "the shift S")?) * sign;
        let (a, b) = range
            .split_once("..")
            .ok_or_else(|| format!("'{text}': k runs over a range, e.g. 1..6"))?;
        let (a, b) = (
            number(a, "first k")?,
            number(b.trim_start_matches('='), "last k")?,
        );
        if a > b || b > 62 {
            return Err(format!("'{text}': k must run upwards and stay at most 62"));
        }
        let values = (a..=b)
            .map(|k| {
                let m = (1i128 << k) + s;
                u64::try_from(m)
                    .ok()
                    .filter(|&m| m >= 1)
                    .ok_or_else(|| format!("'{text}': 2^{k}{shift} = {m} is not a board side"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Some(values));
    }
    let parts: Vec<&str> = t.split(',').collect();
    let Some(rule) = parts.get(1).filter(|p| p.contains('m')) else {
        return Ok(None);
    };
    if parts.get(2) != Some(&"...") || parts.len() > 4 {
        return Err(format!(
            "'{text}': a recursion is S,Am+B,... or S,Am+B,...,LIMIT, e.g. 3,2m+1,...,255"
        ));
    }
    let start = number(parts[0], "the start S")?;
    let (a, b) = rule.split_once('m').expect("checked above");
    let a = if a.is_empty() {
        1
    } else {
        number(a, "the factor A")?
    };
    let b: i128 = match b.chars().next() {
        None => 0,
        Some('+') => i128::from(number(&b[1..], "the step B")?),
        Some('-') => -i128::from(number(&b[1..], "the step B")?),
        _ => {
            return Err(format!(
                "'{text}': write the rule as Am+B or Am-B, e.g. 4m-1"
            ))
        }
    };
    let limit = parts.get(3).map(|l| number(l, "the limit")).transpose()?;
    if start == 0 {
        return Err("board sides start at 1, not 0".into());
    }
    let mut values = vec![start];
    let mut m = i128::from(start);
    while values.len() < limit.map_or(12, |_| MAX_TERMS) {
        let next = i128::from(a) * m + b;
        if next <= m || next > i128::from(limit.unwrap_or(u64::MAX)) || next > i128::from(u32::MAX)
        {
            break;
        }
        values.push(next as u64);
        m = next;
    }
    if values.len() < 2 && limit.is_none() {
        return Err(format!("'{text}': m ↦ {rule} does not grow from {start}"));
    }
    Ok(Some(values))
}

/// Board sides: from 1, at most 4096 boards at once; or a self-similar sequence
/// (`parse_self_similar`).
pub fn parse_m_list(text: &str) -> Result<ValueList, String> {
    if let Some(values) = parse_self_similar(text)? {
        return Ok(ValueList(values));
    }
    parse_list(text, 1, 4096)
}

/// The board sides `m` lists, refused when none is given: the one check that
/// `m` is there, for every command that needs it. `hint` follows "`m` is
/// required" and says what to write.
pub fn required_m(m: Option<ValueList>, hint: &str) -> crate::Result<Vec<u64>> {
    match m {
        Some(ValueList(values)) if !values.is_empty() => Ok(values),
        _ => Err(crate::Error::invalid_parameter(
            "m",
            format!("`m` is required{hint}"),
        )),
    }
}

/// Parses one board side (no ranges).
pub fn parse_side(text: &str) -> Result<u64, String> {
    if text.contains("..") || text.contains(',') {
        return Err("takes one number, the columns of every board; ranges go in `m`".into());
    }
    match text.trim().parse::<u64>() {
        Ok(0) => Err("board sides start at 1, not 0".into()),
        Ok(v) => Ok(v),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m_lists_ranges_and_errors() {
        assert_eq!(parse_m_list("11").unwrap().0, vec![11]);
        assert_eq!(parse_m_list("1..4").unwrap().0, vec![1, 2, 3, 4]);
        assert_eq!(parse_m_list("1..=3, 8").unwrap().0, vec![1, 2, 3, 8]);
        assert!(parse_m_list("5..2").unwrap_err().contains("empty range"));
        assert!(parse_m_list("0").unwrap_err().contains("start at 1"));
        assert_eq!(parse_m_list("11,3,5,3").unwrap().0, vec![3, 5, 11]);
        assert_eq!(parse_m_list("1..9:4").unwrap().0, vec![1, 5, 9]);
        assert!(parse_m_list("1..100000")
            .unwrap_err()
            .contains("more than 4096"));
        assert!(parse_m_list("1..9:0").unwrap_err().contains("step"));
        assert!(parse_list("1..18446744073709551615", 1, 10).is_err());
        assert!(parse_m_list("abc")
            .unwrap_err()
            .contains("not a whole number"));
    }

    #[test]
    fn self_similar_sequences() {
        assert_eq!(
            parse_m_list("2^k+1:1..6").unwrap().0,
            vec![3, 5, 9, 17, 33, 65]
        );
        assert_eq!(parse_m_list("2^k-1:2..4").unwrap().0, vec![3, 7, 15]);
        assert_eq!(
            parse_m_list("3, 2m+1, ..., 255").unwrap().0,
            vec![3, 7, 15, 31, 63, 127, 255]
        );
        assert_eq!(
            parse_m_list("1,4m-1,...,200").unwrap().0,
            vec![1, 3, 11, 43, 171]
        );
        // The recurrence itself, checked term by term rather than trusted.
        let seq = parse_m_list("2,4m-1,...").unwrap().0;
        assert_eq!(seq.len(), 12);
        assert!(seq.windows(2).all(|w| w[1] == 4 * w[0] - 1));
        assert!(parse_m_list("2^k+1").unwrap_err().contains("colon"));
        assert!(parse_m_list("2^k-5:1..2")
            .unwrap_err()
            .contains("not a board side"));
        assert!(parse_m_list("3,m-1,...")
            .unwrap_err()
            .contains("does not grow"));
        // Ordinary lists are untouched.
        assert_eq!(parse_m_list("3,5,11").unwrap().0, vec![3, 5, 11]);
    }
}
