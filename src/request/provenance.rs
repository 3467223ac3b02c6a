//! The canonical command line of a parsed figure: what PNG text chunks, SVG
//! metadata and a gallery's index record. It is rebuilt from the parsed
//! parameters — in the definition's order, long names, only what was given —
//! so the same figure asked for on the command line, in a recipe or over HTTP
//! records the same words, and where the file went or how many threads drew
//! it never changes a byte.

use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, Command};

/// Arguments that say how or where, not what: they never enter provenance.
const NOT_THE_FIGURE: [&str; 7] = [
    "output",
    "threads",
    "quiet",
    "max_memory",
    "max_output",
    "format",
    "help",
];

/// `nimscape <subcommand...> <flags>` for the parsed `matches` of `root`.
pub fn command_line(root: &Command, matches: &ArgMatches) -> String {
    canonical(root, matches).1
}

/// The words after `nimscape` that parse to the same figure, for a child process:
/// values as `--flag=value`, positionals after `--`, so no value reads as a flag.
pub(crate) fn arguments(root: &Command, matches: &ArgMatches) -> Vec<String> {
    canonical(root, matches).0
}

/// The figure's words for a process (unquoted) and its command line (quoted).
fn canonical(root: &Command, matches: &ArgMatches) -> (Vec<String>, String) {
    let mut argv: Vec<String> = Vec::new();
    let mut argv_positional: Vec<String> = Vec::new();
    let mut words = vec!["nimscape".to_string()];
    let mut command = root;
    let mut matches = matches;
    while let Some((name, sub_matches)) = matches.subcommand() {
        let Some(sub) = command.find_subcommand(name) else {
            break;
        };
        words.push(name.to_string());
        argv.push(name.to_string());
        command = sub;
        matches = sub_matches;
    }
    let mut positional = Vec::new();
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        if NOT_THE_FIGURE.contains(&id)
            || matches.value_source(id) != Some(ValueSource::CommandLine)
        {
            continue;
        }
        let values: Vec<String> = matches
            .get_raw(id)
            .map(|raw| raw.map(|v| v.to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        if arg.is_positional() {
            argv_positional.extend(values.iter().cloned());
            positional.extend(values);
            continue;
        }
        let long = arg.get_long().unwrap_or(id);
        match arg.get_action() {
            ArgAction::SetTrue | ArgAction::SetFalse => {
                words.push(format!("--{long}"));
                argv.push(format!("--{long}"));
            }
            ArgAction::Count => {
                for _ in 0..matches.get_count(id) {
                    words.push(format!("--{long}"));
                    argv.push(format!("--{long}"));
                }
            }
            _ => {
                for value in values {
                    argv.push(format!("--{long}={value}"));
                    words.push(format!("--{long}"));
                    words.push(quote(&value));
                }
            }
        }
    }
    // Positionals go right after the subcommand, as people write them.
    let first_flag = words
        .iter()
        .position(|w| w.starts_with("--"))
        .unwrap_or(words.len());
    for (k, value) in positional.into_iter().enumerate() {
        words.insert(first_flag + k, quote(&value));
    }
    if !argv_positional.is_empty() {
        argv.push("--".to_string());
        argv.extend(argv_positional);
    }
    (argv, words.join(" "))
}

/// Quotes a word for a POSIX shell where it needs it.
pub(crate) fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.,=/:+^".contains(c))
        && !word.starts_with('-')
    {
        word.to_string()
    } else if !word.is_empty()
        && word.starts_with('-')
        && word[1..]
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        // A negative number reads as a value where the definition allows it.
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
