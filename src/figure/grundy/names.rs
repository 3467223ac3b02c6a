//! Coordinate names as the papers set them: `x1` is x₁.

/// A coordinate name as the papers set it: trailing digits as a subscript
/// (`x1` is x₁); other names unchanged.
pub(super) fn subscripted(name: &str) -> String {
    match numbered(name) {
        Some((stem, number)) => {
            let sub: String = number
                .chars()
                .map(|d| {
                    ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'][d as usize - '0' as usize]
                })
                .collect();
            format!("{stem}{sub}")
        }
        None => name.to_string(),
    }
}

/// A name of letters and a trailing number (`x1`), split there.
pub(super) fn numbered(name: &str) -> Option<(&str, &str)> {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    (stem.len() < name.len() && !stem.is_empty() && stem.chars().all(char::is_alphabetic))
        .then(|| (stem, &name[stem.len()..]))
}

/// [`subscripted`] for every word of `text` that is a name with a number
/// (`x2=3, x4=1` is x₂=3, x₄=1): words are split at anything but letters and digits.
pub(super) fn subscripted_in(text: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once('\0')) {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            out.push_str(&subscripted(&word));
            word.clear();
            if c != '\0' {
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names_take_subscripts() {
        assert_eq!(subscripted("x1"), "x₁");
        assert_eq!(subscripted("u12"), "u₁₂");
        assert_eq!(subscripted("x"), "x");
        assert_eq!(subscripted("12"), "12");
        assert_eq!(subscripted_in("x2=3, x4=1"), "x₂=3, x₄=1");
        assert_eq!(subscripted_in("x1 0..3, y 0..1"), "x₁ 0..3, y 0..1");
    }
}
