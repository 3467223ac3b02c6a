//! The library's one error type, ordered by whose fault it is.
//!
//! Nothing below the CLI prints or exits: every failure is a value of
//! [`Error`] whose `Display` is a single line that names what was wrong and,
//! where there is one, how to fix it. The binary prints it and exits non-zero.

use std::path::PathBuf;

/// Everything that can go wrong in nimscape.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A parameter the user gave is out of range or malformed.
    ///
    /// `message` names parameters as `` `cell` `` (long names, no dashes); each
    /// front end shows them its own way through [`Error::message_with`] (`--cell`
    /// on the command line, the key `cell` in a recipe). `parameter` is the one the
    /// error is about, when there is one: a recipe points at that key's line.
    #[error("{message}")]
    InvalidParameter {
        /// The parameter at fault, by its long name (`cell`, `p-color`).
        parameter: Option<String>,
        /// One line naming what was wrong and what is allowed.
        message: String,
    },

    /// The requested work would need more memory than the limit allows.
    #[error("{what} would need {} of memory, over the limit of {}; {hint}{}", about_bytes(*.needed), human_bytes(*.limit), raise_limit(*.needed))]
    TooLarge {
        /// What was asked for, e.g. "a 65536 x 65536 board at 4 px per cell".
        what: String,
        /// The estimated number of bytes the work would need.
        needed: u64,
        /// The limit in force, in bytes.
        limit: u64,
        /// How to get what the user wants anyway (a smaller size, `--raw`, ...).
        hint: String,
    },

    /// A combination of options or an output format that this figure cannot do.
    #[error("{0}")]
    Unsupported(String),

    /// Writing a file failed: the library only writes (the recipe loader reports
    /// its reads as "cannot read ...").
    #[error("cannot write '{}': {source}", path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },

    /// An encoder failed for a reason that is not plain I/O.
    #[error("cannot encode '{}': {message}", path.display())]
    Encode {
        /// The file being written.
        path: PathBuf,
        /// What the encoder said.
        message: String,
    },

    /// The work was stopped through its [`crate::Control`] before it finished:
    /// nothing is wrong with the request. Front ends map it to exit code 130 (a
    /// command interrupted by Ctrl-C) or to a dropped request.
    #[error("interrupted")]
    Cancelled,
}

/// The result type of the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A request that is wrong as a whole, with no one parameter at fault (a
    /// combination, a file's contents, a size): [`Error::parameter`] is `None`.
    pub fn invalid_request(message: impl Into<String>) -> Self {
        Error::InvalidParameter {
            parameter: None,
            message: message.into(),
        }
    }

    /// A bad value of `parameter` (its long name), with a message that names it
    /// (as `` `name` ``, which each front end shows its own way). The parameter is
    /// set here, where the fault is known, never read back from the message.
    pub fn invalid_parameter(parameter: &str, message: impl Into<String>) -> Self {
        Error::InvalidParameter {
            parameter: Some(parameter.replace('_', "-")),
            message: message.into(),
        }
    }

    /// A bad value of a parameter handed on as messages write it, `` `name` ``
    /// (a check shared by several options takes its option that way and puts it
    /// in the message as is): the parameter is the first name `marked` marks.
    pub fn invalid_marked(marked: &str, message: impl Into<String>) -> Self {
        Error::InvalidParameter {
            parameter: marked_names(marked).next().map(str::to_string),
            message: message.into(),
        }
    }

    /// The parameter this error is about, by its long name, when it is about one.
    pub fn parameter(&self) -> Option<&str> {
        match self {
            Error::InvalidParameter { parameter, .. } => parameter.as_deref(),
            Error::Unsupported(message) => marked_names(message).next(),
            _ => None,
        }
    }

    /// The one-line message with every parameter name `` `name` `` shown by `show`
    /// (`--cell` for the command line, `cell` for a recipe key).
    pub fn message_with(&self, show: impl Fn(&str) -> String) -> String {
        let message = self.to_string();
        let mut out = String::with_capacity(message.len() + 16);
        let mut rest = message.as_str();
        while let Some(open) = rest.find('`') {
            let after = &rest[open + 1..];
            match after.find('`') {
                Some(close) if is_parameter_name(&after[..close]) => {
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

    /// An unsupported option or format combination.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Error::Unsupported(message.into())
    }

    /// A write to an output that has no name yet: the boundary that knows the
    /// file (or stdout, or an HTTP response) names it with [`Error::at`].
    pub fn write_failed(source: std::io::Error) -> Self {
        Error::Io {
            path: PathBuf::new(),
            source,
        }
    }

    /// Names the output `path` in an I/O or encoder error that has none yet.
    /// Encoders write to any `io::Write`; only the place that opened the file knows its name.
    pub fn at(self, path: &std::path::Path) -> Self {
        match self {
            Error::Io { path: p, source } if p.as_os_str().is_empty() => Error::Io {
                path: path.to_path_buf(),
                source,
            },
            Error::Encode { path: p, message } if p.as_os_str().is_empty() => Error::Encode {
                path: path.to_path_buf(),
                message,
            },
            other => other,
        }
    }
}

/// Whether `name` is written like a parameter's long name: `cell`, `p-color`, `box`.
fn is_parameter_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The parameter names a message marks as `` `name` ``, in order.
fn marked_names(message: &str) -> impl Iterator<Item = &str> {
    message
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| is_parameter_name(name))
}

/// `text` on one line: every control character (a newline or a tab quoted from
/// what was typed) written as its escape, `\n`, `\t`, `\u{1}`. Front ends print
/// every error through it, so no value can break an error into two lines.
pub fn one_line(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Quoted input as an error shows it: the text itself when short, else its first 60
/// characters and "...", so a message stays one readable line whatever was typed.
pub fn excerpt(text: &str) -> String {
    const SHOWN: usize = 60;
    if text.chars().count() <= SHOWN {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(SHOWN).collect::<String>())
    }
}

/// Formats a byte count the way a person reads it: `1.5 GiB`, `640 KiB`, `12 B`.
/// `u64::MAX` is what a saturated estimate holds (a size past any `u64`), so it
/// reads "more than 16 EiB", never a number that looks measured.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes == u64::MAX {
        return "more than 16 EiB".to_string();
    }
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// An estimate as a message states it: "about 1.5 GiB", or "more than 16 EiB" when
/// it saturated (no "about": the size is a bound, not a measure).
pub fn about_bytes(bytes: u64) -> String {
    if bytes == u64::MAX {
        human_bytes(bytes)
    } else {
        format!("about {}", human_bytes(bytes))
    }
}

/// The other way out of a memory refusal: "; or raise `max-memory` (e.g.
/// `max-memory` 120G)", the example the estimate plus a tenth, rounded up to a
/// whole T, G or M (the largest unit that needs more than 1); nothing when
/// that is past any limit (1024T).
fn raise_limit(needed: u64) -> String {
    let wanted = u128::from(needed) + u128::from(needed) / 10;
    let (count, unit) = [("T", 40), ("G", 30), ("M", 20)]
        .into_iter()
        .map(|(unit, shift)| (wanted.div_ceil(1u128 << shift), unit))
        .find(|(count, unit)| *count > 1 || *unit == "M")
        .unwrap_or((1, "M"));
    if unit == "T" && count > 1024 {
        return String::new();
    }
    format!("; or raise `max-memory` (e.g. `max-memory` {count}{unit})")
}

/// The default memory limit for one figure: 2 GiB, well inside the 24 GiB machines
/// this runs on, and far more than any figure meant for a page needs.
pub const DEFAULT_MEMORY_LIMIT: u64 = 2 << 30;

/// Refuses work whose estimated memory need exceeds `limit`.
pub fn check_memory(
    what: impl FnOnce() -> String,
    needed: u64,
    limit: u64,
    hint: &str,
) -> Result<()> {
    if needed > limit {
        return Err(Error::TooLarge {
            what: what(),
            needed,
            limit,
            hint: hint.to_string(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_is_data_and_each_front_end_names_it_its_way() {
        let err = Error::invalid_parameter(
            "cell",
            "`cell` 5 is out of range; give 8..200 px, or a smaller `box`",
        );
        assert_eq!(err.parameter(), Some("cell"));
        assert_eq!(
            err.message_with(|n| format!("--{n}")),
            "--cell 5 is out of range; give 8..200 px, or a smaller --box"
        );
        assert_eq!(
            err.message_with(str::to_string),
            "cell 5 is out of range; give 8..200 px, or a smaller box"
        );
        let named = Error::invalid_parameter("p_color", "'x' is no colour");
        assert_eq!(named.parameter(), Some("p-color"));
        // A request at fault as a whole names no parameter, even when its
        // message mentions some.
        let whole = Error::invalid_request("`cell` and `box` together are too large");
        assert_eq!(whole.parameter(), None);
        let shared = Error::invalid_marked("`p-color`", "`p-color`: 'x' is not a colour");
        assert_eq!(shared.parameter(), Some("p-color"));
        assert_eq!(
            Error::invalid_marked("a half `level`", "").parameter(),
            Some("level")
        );
        assert_eq!(Error::invalid_marked("--r", "").parameter(), None);
        for text in ["a `Quoted Thing` stays", "an unclosed ` tick", "x--y", ""] {
            assert_eq!(
                Error::invalid_request(text).message_with(|n| format!("--{n}")),
                text
            );
            assert_eq!(Error::invalid_request(text).parameter(), None);
        }
    }

    #[test]
    fn one_line_escapes_control_characters_only() {
        assert_eq!(one_line("plain – Ω"), "plain – Ω");
        assert_eq!(one_line("a\nb\r\tc\u{1}"), "a\\nb\\r\\tc\\u{1}");
        assert!(!one_line("x\n\n").contains('\n'));
    }

    #[test]
    fn human_bytes_reads_naturally() {
        assert_eq!(human_bytes(12), "12 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
        assert_eq!(human_bytes(5 << 50), "5.0 PiB");
        assert_eq!(human_bytes(3 << 60), "3.0 EiB");
    }

    #[test]
    fn a_saturated_size_is_more_than_16_eib_not_a_measured_number() {
        assert_eq!(human_bytes(u64::MAX), "more than 16 EiB");
        // One below saturation is still a number, in the largest unit.
        assert_eq!(human_bytes(u64::MAX - 1), "16.0 EiB");
        let err = check_memory(|| "a huge board".into(), u64::MAX, 2 << 30, "ask for less")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("a huge board would need more than 16 EiB of memory"),
            "{err}"
        );
    }

    #[test]
    fn too_large_is_one_line_with_the_estimate() {
        let err = check_memory(|| "a big board".into(), 5 << 30, 2 << 30, "use `raw`").unwrap_err();
        let text = err.to_string();
        assert!(!text.contains('\n'));
        assert!(text.contains("5.0 GiB") && text.contains("2.0 GiB") && text.contains("`raw`"));
        assert!(
            text.ends_with("use `raw`; or raise `max-memory` (e.g. `max-memory` 6G)"),
            "{text}"
        );
    }

    #[test]
    fn the_memory_limit_to_raise_to_is_the_estimate_rounded_up() {
        assert_eq!(
            raise_limit(100 << 20),
            "; or raise `max-memory` (e.g. `max-memory` 110M)"
        );
        assert_eq!(
            raise_limit(16 << 30),
            "; or raise `max-memory` (e.g. `max-memory` 18G)"
        );
        assert_eq!(
            raise_limit(1600 << 30),
            "; or raise `max-memory` (e.g. `max-memory` 2T)"
        );
        assert_eq!(raise_limit(u64::MAX), "");
    }
}
