//! How a message names parameters, per front end.
//!
//! The library names a parameter as `` `cell` ``; the command line shows it as the
//! flag `--cell`, a recipe as its key `cell` (and the recipe's own errors point at
//! that key's line). The command-line planners, which recipes share, may name a
//! flag as `--cell` directly: a recipe shows that as its key too.

/// Whether `name` looks like a parameter name: `cell`, `p-color`, `max-output`.
fn is_parameter(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Rewrites every `` `name` `` of a parameter with `show(name)`.
fn rewrite(message: &str, show: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(message.len() + 16);
    let mut rest = message;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        match after.find('`') {
            Some(close) if is_parameter(&after[..close]) => {
                out.push_str(&rest[..open]);
                out.push_str(&show(&after[..close]));
                rest = &after[close + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A message for the command line: `` `cell` `` becomes `--cell`.
pub fn as_flags(message: &str) -> String {
    rewrite(message, |name| format!("--{name}"))
}

/// A message for a recipe: `` `cell` `` and `--cell` become the key `cell`.
pub fn as_keys(message: &str) -> String {
    let keyed = rewrite(message, str::to_string);
    let mut out = String::with_capacity(keyed.len());
    let mut rest = keyed.as_str();
    while let Some(at) = rest.find("--") {
        let (before, after) = (&rest[..at], &rest[at + 2..]);
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(after.len());
        let glued = before
            .chars()
            .last()
            .or_else(|| out.chars().last())
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-');
        out.push_str(before);
        // `--max-memory=100T` quoted from a recipe value stays as written.
        let assigned = after[name_len..].starts_with('=');
        if glued || assigned || !is_parameter(&after[..name_len]) {
            out.push_str("--");
            rest = after;
            continue;
        }
        out.push_str(&after[..name_len]);
        rest = &after[name_len..];
        // clap's "'--m <M>'": a key has no value name.
        if let Some(value_name) = rest.strip_prefix(" <") {
            if let Some(close) = value_name.find('>') {
                rest = &value_name[close + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The parameters a message names, in either form, in order and each once, so a
/// recipe error can point at the line of the key it is about.
pub fn named_parameters(message: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for word in message.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '`')) {
        let name = word
            .strip_prefix("--")
            .or_else(|| word.strip_prefix('`').and_then(|w| w.strip_suffix('`')));
        if let Some(name) = name.filter(|n| is_parameter(n)) {
            if !names.iter().any(|known| known == name) {
                names.push(name.to_string());
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_names_parameters_and_each_front_end_shows_them_its_way() {
        let message = "`cell` 5 is out of range; give 8..200 px, or a smaller `box`";
        assert_eq!(
            as_flags(message),
            "--cell 5 is out of range; give 8..200 px, or a smaller --box"
        );
        assert_eq!(
            as_keys(message),
            "cell 5 is out of range; give 8..200 px, or a smaller box"
        );
        assert_eq!(named_parameters(message), ["cell", "box"]);
    }

    #[test]
    fn flags_from_the_command_line_planners_become_keys_in_recipes() {
        let message = "--p-color: 'nope' is not a colour; see --help for -o";
        assert_eq!(
            as_keys(message),
            "p-color: 'nope' is not a colour; see help for -o"
        );
        assert_eq!(named_parameters(message), ["p-color", "help"]);
        assert_eq!(
            as_keys("invalid value '0' for '--m <M>'"),
            "invalid value '0' for 'm'"
        );
    }

    #[test]
    fn other_backticks_and_dashes_are_left_alone() {
        for text in [
            "a `Quoted Thing` stays",
            "x--y is no flag",
            "an unclosed ` tick",
            "5 -- 3",
            "game = '--max-memory=100T'",
            "",
        ] {
            assert_eq!(as_flags(text), text);
            assert_eq!(as_keys(text), text);
        }
    }
}
