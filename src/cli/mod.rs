//! The command line: the figure subcommands come from the request layer
//! ([`nimscape::request::FigureCommand`], flattened in), the rest (`render`, `verify`,
//! `serve`, ...) are here. This front end owns what the others never see: `-o`,
//! stdout, the global flags, the progress bar and signals. Nothing here computes
//! or draws.

mod emit;
mod figures;
#[cfg(test)]
mod fuzz;
mod progress;
mod prove;
mod prove_square;
mod render;
pub(crate) mod report;
#[cfg(feature = "serve")]
mod serve;
pub mod signals;
mod survey;
mod verify;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use nimscape::request::{self, FigureCommand, Naming};
use std::io::Write;

/// What every command run shares: limits, verbosity, its own canonical command
/// line, and the control a signal cancels.
#[derive(Debug, Clone)]
pub struct Context {
    /// Cancelled by Ctrl-C / SIGTERM; watched for the progress bar.
    pub control: nimscape::Control,
    /// Refuse work over this many bytes.
    pub memory_limit: u64,
    /// Refuse files larger than this (`--max-output`).
    pub output_limit: u64,
    /// No "wrote ..." lines, no progress bars.
    pub quiet: bool,
    /// The format for `-o -` and for the default file, when given.
    pub format: Option<nimscape::request::Format>,
    /// `nimscape <subcommand> <flags>`, rebuilt from the parsed parameters (never
    /// from argv), so the CLI, a recipe and the server record the same words.
    pub command_line: String,
}

/// The help heading of the flags every subcommand takes (`--threads`, `--quiet`, ...).
const GLOBAL: &str = "Global options";

/// Exact, publication-ready figures of chocolate-bar games.
#[derive(Debug, Parser)]
#[command(name = "nimscape", version, about, long_about = None, propagate_version = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,

    /// Worker threads (default: one per core). Output is the same whatever the count.
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "N")]
    threads: Option<usize>,

    /// Refuse figures that would need more memory than this (e.g. 512M, 4G).
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "BYTES", default_value = "2G", value_parser = request::parse_bytes)]
    max_memory: u64,

    /// Refuse outputs larger than this, or than the free space where they go (e.g. 100G).
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "BYTES", default_value = "4G", value_parser = request::parse_bytes)]
    max_output: u64,

    /// Print nothing but errors and reports: no "wrote FILE" lines, no progress bar.
    #[arg(long, short, global = true, help_heading = GLOBAL)]
    quiet: bool,

    /// Format of `-o -` (stdout) and of the default output/ file: png, svg, pdf, tikz, gif, csv, json; json for reports (verify, --check, grundy's).
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "EXT", value_parser = request::parse_format)]
    format: Option<nimscape::request::Format>,
}

#[derive(Debug, Subcommand)]
enum Command {
    #[command(flatten)]
    Figure(Box<FigureCommand>),
    /// Test hypotheses on a game family over a parameter range: shifted nim-sums, nim-sum constants, Grundy = nim-sum, periods.
    Survey(Box<nimscape::request::survey::SurveyArgs>),
    /// Prove a claim about a game for every position (P-set rule or Grundy formula), or refute it with the smallest counterexample; needs MONA.
    Prove(Box<nimscape::request::prove::ProveArgs>),
    /// Re-check the papers' computational claims: claim, range checked, result, time.
    Verify(verify::VerifyArgs),
    /// Render figure sets from TOML recipes (templates/) with a gallery and a LaTeX snippet.
    Render(render::RenderArgs),
    /// Print a shell completion script: nimscape completions bash > ~/.local/share/bash-completion/completions/nimscape
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff): nimscape man square > nimscape-square.1 && man ./nimscape-square.1; --dir DIR writes them all
    Man(ManArgs),
    /// Serve the interactive explorer: deep zoom into R(m,n), every figure's controls, exact downloads.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// Write the explorer as one offline HTML file with its tiles and frames embedded.
    #[cfg(feature = "serve")]
    Explore(serve::ExploreArgs),
}

/// Parses the command line and runs the chosen subcommand.
pub fn run() -> Result<()> {
    let command = Cli::command();
    let words = join_split_lengths(std::env::args_os().collect(), &command);
    let matches = match command.clone().try_get_matches_from(&words) {
        Ok(matches) => matches,
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                // Through the handled writer: `--help > /dev/full` must fail, `| head` must not.
                return report::print_all(&err.render().to_string());
            }
            if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                err.exit();
            }
            if let Some(line) = flag_before_its_command(&err, &command, &words) {
                return Err(UsageError(line).into());
            }
            // One line: what was wrong, named as flags; --help says the rest.
            let flags = flags_of_parsed_command(&command);
            let err = request::from_clap_among(&err, &flags);
            return Err(UsageError(Naming::Flags.message(&err)).into());
        }
    };
    // Said after the work, so a refusal stays the one line on stderr.
    let note = (!matches.get_flag("quiet"))
        .then(|| bare_width_note(&words))
        .flatten();
    request::refuse_control_characters(&matches)?;
    let cli = Cli::from_arg_matches(&matches)?;
    configure_threads(cli.threads)?;
    let ctx = Context {
        control: signals::control(),
        memory_limit: cli.max_memory,
        output_limit: cli.max_output,
        quiet: cli.quiet,
        format: cli.format,
        command_line: match matches.subcommand_name() {
            // The survey is not a figure subcommand: its words come from the whole CLI.
            Some("survey" | "prove") => {
                request::provenance::command_line(&Cli::command(), &matches)
            }
            _ => request::command_line(&matches),
        },
    };
    dispatch(cli.command, &ctx)?;
    if let Some(note) = note {
        let _ = writeln!(std::io::stderr(), "{note}");
    }
    Ok(())
}

/// The units a length takes (`85mm`), as a word of their own when the shell
/// split `--width 85 mm` at the space.
const LENGTH_UNITS: [&str; 7] = ["mm", "cm", "in", "inch", "inches", "pt", "px"];

/// The long flags that take a length (`--width`, `--cell`, `--caption-size`,
/// ...) anywhere under `command`: those whose value is named LEN or PT.
fn length_flags(command: &clap::Command, found: &mut Vec<String>) {
    for arg in command.get_arguments() {
        let is_length = arg
            .get_value_names()
            .is_some_and(|names| names.iter().any(|n| n == "LEN" || n == "PT"));
        if let (true, Some(long)) = (is_length, arg.get_long()) {
            found.push(format!("--{long}"));
        }
    }
    for sub in command.get_subcommands() {
        length_flags(sub, found);
    }
}

/// `--width 85 mm` as the shell splits it (three words) read as `--width 85mm`:
/// a unit word right after a length flag's number joins it.
fn join_split_lengths(
    words: Vec<std::ffi::OsString>,
    command: &clap::Command,
) -> Vec<std::ffi::OsString> {
    let is_unit = |w: &std::ffi::OsString| {
        w.to_str()
            .is_some_and(|w| LENGTH_UNITS.contains(&w.to_ascii_lowercase().as_str()))
    };
    if !words.iter().any(is_unit) {
        return words;
    }
    let mut flags = Vec::new();
    length_flags(command, &mut flags);
    let is_number = |w: &str| w.trim().parse::<f64>().is_ok();
    let mut joined: Vec<std::ffi::OsString> = Vec::with_capacity(words.len());
    for word in words {
        let n = joined.len();
        let follows_a_length = is_unit(&word)
            && match (
                n.checked_sub(2).and_then(|i| joined[i].to_str()),
                joined.last().and_then(|w| w.to_str()),
            ) {
                // `--width 85 mm`
                (Some(flag), Some(number)) if flags.iter().any(|f| f == flag) => is_number(number),
                // `--width=85 mm`
                (_, Some(last)) => last.split_once('=').is_some_and(|(flag, number)| {
                    flags.iter().any(|f| f == flag) && is_number(number)
                }),
                _ => false,
            };
        if follows_a_length {
            if let (Some(last), Some(unit)) = (joined.last_mut(), word.to_str()) {
                last.push(unit);
                continue;
            }
        }
        joined.push(word);
    }
    joined
}

/// A bare `--width` that is probably meant in millimetres (a print width):
/// say what it is and how to write millimetres, without refusing it.
fn bare_width_note(words: &[std::ffi::OsString]) -> Option<String> {
    /// Below this a bare width is more likely millimetres than a picture's pixels.
    const PROBABLY_NOT_PIXELS: f64 = 400.0;
    let words: Vec<&str> = words.iter().filter_map(|w| w.to_str()).collect();
    let value = words
        .iter()
        .enumerate()
        .find_map(|(i, w)| match w.strip_prefix("--width=") {
            Some(v) => Some(v),
            None if *w == "--width" => words.get(i + 1).copied(),
            None => None,
        })?;
    let number: f64 = value.trim().parse().ok()?;
    (number < PROBABLY_NOT_PIXELS).then(|| {
        let v = value.trim();
        format!("note: --width {v} is {v} px; for print write --width {v}mm (or in, pt)")
    })
}

/// `nimscape --m 11 square`: a flag of a subcommand written before it. clap
/// only sees an unknown flag of `nimscape` (and suggests the very flag typed);
/// the way out is to move it after the command.
fn flag_before_its_command(
    err: &clap::Error,
    root: &clap::Command,
    words: &[std::ffi::OsString],
) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if err.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(typed)) = err.get(ContextKind::InvalidArg) else {
        return None;
    };
    let name = typed.strip_prefix("--")?.split('=').next()?;
    let words: Vec<&str> = words.iter().skip(1).filter_map(|w| w.to_str()).collect();
    let at = words
        .iter()
        .position(|w| w == typed || w.starts_with(&format!("{typed}=")))?;
    // The subcommand named after it, one or two words deep (`octahedron section`).
    let mut path = Vec::new();
    let mut command = root;
    for word in &words[at + 1..] {
        if let Some(sub) = command.find_subcommand(word) {
            path.push(sub.get_name().to_string());
            command = sub;
        }
    }
    let takes_it = command.get_arguments().any(|a| a.get_long() == Some(name));
    if path.is_empty() || !takes_it {
        return None;
    }
    let path = path.join(" ");
    Some(format!(
        "--{name} is an option of '{path}': write it after the command (nimscape {path} --{name} ...)"
    ))
}

/// The long flags of the (sub)command the words on the command line name, the
/// global ones included: the candidates of an unknown flag's suggestion.
fn flags_of_parsed_command(root: &clap::Command) -> Vec<String> {
    let mut command = root;
    for word in std::env::args_os().skip(1) {
        if let Some(sub) = word.to_str().and_then(|w| command.find_subcommand(w)) {
            command = sub;
        }
    }
    command
        .get_arguments()
        .chain(root.get_arguments())
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect()
}

fn dispatch(command: Command, ctx: &Context) -> Result<()> {
    match command {
        Command::Figure(command) => figures::run(*command, ctx),
        Command::Survey(args) => survey::run(*args, ctx),
        Command::Prove(args) => prove::run(*args, ctx),
        Command::Verify(args) => {
            signals::exit_at_once();
            verify::run(args, ctx.memory_limit, ctx.format, &ctx.control)
        }
        Command::Render(args) => render::run(args, ctx),
        Command::Completions { shell } => {
            // Rendered into a buffer first: clap_complete panics on a closed pipe.
            let mut buffer = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "nimscape", &mut buffer);
            write_stdout(&buffer)
        }
        Command::Man(args) => man(&args, ctx.quiet),
        #[cfg(feature = "serve")]
        Command::Serve(args) => {
            signals::exit_at_once();
            serve::run(args, ctx.memory_limit, ctx.output_limit)
        }
        #[cfg(feature = "serve")]
        Command::Explore(args) => serve::run_explore(args, ctx),
    }
}

/// `nimscape man`'s words.
#[derive(Debug, clap::Args)]
struct ManArgs {
    /// The command whose page to print (`square`, `octahedron section`); none: the top page.
    #[arg(value_name = "COMMAND")]
    command: Vec<String>,

    /// Write every page into this folder instead (nimscape.1, nimscape-square.1, ...), as git's.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    dir: Option<std::path::PathBuf>,
}

/// The manual page of one command on stdout, or every command's page in a folder.
fn man(args: &ManArgs, quiet: bool) -> Result<()> {
    let mut root = Cli::command().disable_help_subcommand(true);
    root.build();
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        clap_mangen::generate_to(root.clone(), dir)
            .map_err(|e| anyhow::anyhow!("cannot write the pages into {}: {e}", dir.display()))?;
        if !quiet {
            let pages = man_pages(&root);
            eprintln!("wrote {pages} manual pages into {}", dir.display());
        }
        return Ok(());
    }
    let mut found = &root;
    for word in &args.command {
        found = found.find_subcommand(word).ok_or_else(|| {
            let names: Vec<&str> = found
                .get_subcommands()
                .filter(|s| !s.is_hide_set())
                .map(|s| s.get_name())
                .collect();
            let command = args.command.join(" ");
            anyhow::anyhow!(
                "no manual page for '{command}'; commands: {}",
                names.join(", ")
            )
        })?;
    }
    let mut buffer = Vec::new();
    clap_mangen::Man::new(found.clone()).render(&mut buffer)?;
    write_stdout(&buffer)
}

/// How many pages `--dir` writes: `command` and every command under it.
fn man_pages(command: &clap::Command) -> usize {
    1 + command
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(man_pages)
        .sum::<usize>()
}

/// Writes `bytes` to stdout; a closed pipe is a quiet success (main exits 0 on it).
fn write_stdout(bytes: &[u8]) -> Result<()> {
    report::ensure_open()?;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// A usage error (the words could not be parsed): exit 2, as clap's own.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (see nimscape --help)", self.0)
    }
}

impl std::error::Error for UsageError {}

/// An error of the command line as one line, parameters shown as flags.
pub fn message(err: &anyhow::Error) -> String {
    // One line whatever it quotes (`--m $'1\n2'`).
    nimscape_model::error::one_line(&message_text(err))
}

fn message_text(err: &anyhow::Error) -> String {
    let text = format!("{err:#}");
    match err.downcast_ref::<nimscape::Error>() {
        // The chain's outer context (if any) stays in front of the library's line.
        Some(library) => {
            let shown = Naming::Flags.message(library);
            match text.strip_suffix(&library.to_string()) {
                Some(context) => format!("{context}{shown}"),
                None => shown,
            }
        }
        None => text,
    }
}

/// Threads per core at most: more only costs memory and start-up time, and an unbounded
/// count (`--threads 4294967296`) would try to spawn them all.
const MAX_THREADS_PER_CORE: usize = 4;

/// Sets up the worker pool from `--threads` or `RAYON_NUM_THREADS`, bounded by
/// [`MAX_THREADS_PER_CORE`] times the cores (rayon itself panics when it cannot spawn).
fn configure_threads(flag: Option<usize>) -> Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let limit = cores.saturating_mul(MAX_THREADS_PER_CORE);
    let (threads, source) = match flag {
        Some(n) => (n, "--threads"),
        None => match std::env::var("RAYON_NUM_THREADS") {
            Ok(text) if !text.trim().is_empty() => match text.trim().parse::<usize>() {
                // rayon reads 0 as "one per core".
                Ok(0) => (cores, "RAYON_NUM_THREADS"),
                Ok(n) => (n, "RAYON_NUM_THREADS"),
                Err(_) => anyhow::bail!(
                    "RAYON_NUM_THREADS='{text}' is not a whole number; unset it or give e.g. {cores}"
                ),
            },
            _ => return Ok(()),
        },
    };
    if threads == 0 {
        anyhow::bail!("{source} must be at least 1");
    }
    if threads > limit {
        anyhow::bail!(
            "{source} {threads} is more than {MAX_THREADS_PER_CORE} threads per core ({limit} on this machine with {cores} cores); give at most {limit}"
        );
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()?;
    Ok(())
}
