//! "Did you mean": the closest allowed name to a mistyped one.

/// The closest allowed name to `wanted`, when it is close (a typo).
pub fn suggestion<'a>(wanted: &str, allowed: &'a [String]) -> Option<&'a str> {
    allowed
        .iter()
        .map(|a| (strsim::levenshtein(wanted, a), a))
        .filter(|(d, a)| *d <= 2.max(a.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a.as_str())
}
