//! Command-line definitions: one file per subcommand, all turning flags into the
//! library's validated specs. Nothing here computes or draws.

mod args;
mod automaton;
mod count;
#[cfg(test)]
mod fuzz;
mod grundy;
pub(crate) mod names;
mod octahedron;
pub(crate) mod out;
mod output;
mod provenance;
mod render;
mod serve;
mod square;
mod verify;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
pub use names::as_flags;
use std::path::PathBuf;

/// Exact, publication-ready figures of chocolate-bar games.
#[derive(Debug, Parser)]
#[command(name = "nimscape", version, about, long_about = None, propagate_version = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,

    /// Worker threads (default: one per core). Output is the same whatever the count.
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,

    /// Refuse figures that would need more memory than this (e.g. 512M, 4G).
    #[arg(long, global = true, value_name = "BYTES", default_value = "2G", value_parser = args::parse_bytes)]
    max_memory: u64,

    /// Refuse outputs larger than this, or than the free space where they go (e.g. 100G).
    #[arg(long, global = true, value_name = "BYTES", default_value = "4G", value_parser = args::parse_bytes)]
    max_output: u64,

    /// Print nothing but errors and reports: no "wrote FILE" lines, no progress bar.
    #[arg(long, short, global = true)]
    quiet: bool,

    /// Format of `-o -` (stdout) and of the default output/ file: png, svg, pdf, gif, csv, json.
    #[arg(long, global = true, value_name = "EXT", value_parser = args::parse_format)]
    format: Option<crate::encode::Format>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// P-position patterns of the chocolate game C(m,n): one board, a contact sheet, or a raw 1-bit board.
    Square(square::SquareArgs),
    /// g(m), the number of P-positions of C(m,m): a table, a chart, and checks of its identities.
    Count(count::CountArgs),
    /// The second-order automaton (2D Rule 60): frames, sheets, GIFs, residues mod p, exact values, --check.
    Automaton(automaton::AutomatonArgs),
    /// Re-check the papers' computational claims: claim, range checked, result, time.
    Verify(verify::VerifyArgs),
    /// Grundy values of the papers' games: data, mod-3 tables, P-position plots, nim-sum analyses.
    Grundy(grundy::GrundyArgs),
    /// Sections of the Sierpinski octahedron S_n, its 3D view, and sweeps of the level as GIF.
    Octahedron(octahedron::OctahedronArgs),
    /// Render figure sets from TOML recipes (templates/) with a gallery and a LaTeX snippet.
    Render(render::RenderArgs),
    /// Print a shell completion script: nimscape completions bash > ~/.local/share/bash-completion/completions/nimscape
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): nimscape man > nimscape.1 && man ./nimscape.1
    Man,
    /// Serve the interactive explorer: deep zoom into R(m,n), every figure's controls, exact downloads.
    Serve(serve::ServeArgs),
    /// Write the explorer as one offline HTML file with its tiles and frames embedded.
    Explore(serve::ExploreArgs),
}

/// Parses the command line and runs the chosen subcommand.
pub fn run() -> Result<()> {
    let matches = match Cli::command().try_get_matches() {
        Ok(matches) => matches,
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                // Through the handled writer: `--help > /dev/full` must fail, `| head` must not.
                return out::print_all(&err.render().to_string());
            }
            if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                err.exit();
            }
            // One line: clap's first line says what was wrong; --help says the rest.
            eprintln!("{} (see nimscape --help)", first_line(&err));
            std::process::exit(2);
        }
    };
    let cli = Cli::from_arg_matches(&matches)?;
    configure_threads(cli.threads)?;
    crate::encode::set_output_limit(cli.max_output);
    crate::encode::interrupt::install();
    let ctx = output::Context {
        memory_limit: cli.max_memory,
        quiet: cli.quiet,
        format: cli.format,
        command_line: provenance::command_line(&Cli::command(), &matches),
    };
    dispatch(cli.command, &ctx)
}

fn dispatch(command: Command, ctx: &output::Context) -> Result<()> {
    match command {
        Command::Square(args) => square::run(args, ctx),
        Command::Count(args) => count::run(args, ctx),
        Command::Automaton(args) => automaton::run(args, ctx),
        Command::Verify(args) => verify::run(args, ctx.memory_limit),
        Command::Grundy(args) => grundy::run(args, ctx),
        Command::Octahedron(args) => octahedron::run(args, ctx),
        Command::Render(args) => render::run(args, ctx),
        Command::Completions { shell } => {
            // Rendered into a buffer first: clap_complete panics on a closed pipe.
            let mut buffer = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "nimscape", &mut buffer);
            write_stdout(&buffer)
        }
        Command::Man => {
            let mut buffer = Vec::new();
            clap_mangen::Man::new(Cli::command()).render(&mut buffer)?;
            write_stdout(&buffer)
        }
        Command::Serve(args) => serve::run(args, ctx.memory_limit),
        Command::Explore(args) => serve::run_explore(args, ctx.memory_limit),
    }
}

/// Writes `bytes` to stdout; a closed pipe is a quiet success (main exits 0 on it).
fn write_stdout(bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// A clap error on one line, without its `error: ` prefix: what was wrong, then
/// clap's own help with it (the possible values of an enum, "a similar argument
/// exists: '--m'"), which it prints on lines of their own.
fn first_line(err: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    let text = err.to_string();
    let mut lines = text.lines().skip_while(|l| l.trim().is_empty());
    let first = lines.next().unwrap_or("invalid arguments").trim_end();
    let mut line = shortened(first);
    // "the following required arguments were not provided:" lists them below.
    if first.ends_with(':') {
        let listed: Vec<&str> = lines
            .take_while(|l| l.starts_with("  ") && !l.trim().is_empty())
            .map(str::trim)
            .collect();
        line.push(' ');
        line.push_str(&shortened(&listed.join(", ")));
    }
    let listed = |kind: ContextKind| match err.get(kind) {
        Some(ContextValue::Strings(values)) if !values.is_empty() => Some(values.join(", ")),
        Some(ContextValue::String(value)) => Some(value.clone()),
        _ => None,
    };
    if let Some(values) = listed(ContextKind::ValidValue) {
        line.push_str(&format!("; possible values: {values}"));
    }
    for kind in [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
        ContextKind::SuggestedSubcommand,
    ] {
        if let Some(suggestion) = listed(kind) {
            line.push_str(&format!("; did you mean '{suggestion}'?"));
        }
    }
    line
}

/// clap quotes the whole value; a 200,000-value list must not make a 1 MB line.
fn shortened(line: &str) -> String {
    const LONGEST: usize = 300;
    if line.len() <= LONGEST {
        return line.to_string();
    }
    let cut = |s: &str, n: usize| s.chars().take(n).collect::<String>();
    match (line.find("invalid value '"), line.find("' for '")) {
        (Some(start), Some(end)) if start + 15 <= end => {
            let value = &line[start + 15..end];
            let rest = &line[end..];
            format!(
                "{}{}...{}",
                &line[..start + 15],
                cut(value, 40),
                cut(rest, LONGEST)
            )
        }
        _ => format!("{}...", cut(line, LONGEST)),
    }
}

/// A front end's error as the library's: kept as it is when it is one, a bad
/// parameter otherwise (the planners' own checks).
fn library_error(err: anyhow::Error) -> crate::Error {
    match err.downcast::<crate::Error>() {
        Ok(err) => err,
        Err(other) => crate::Error::invalid(format!("{other:#}")),
    }
}

/// One figure command's plan, parsed from its words by the command line's own
/// definition: the figure, and its canonical command line.
pub struct Planned {
    /// What to draw.
    pub figure: Box<dyn crate::figure::Figure + Send>,
    /// `nimscape ...` that draws it.
    pub command_line: String,
}

/// Parses `words` (a subcommand and its flags, no `-o`) exactly as the command line
/// would, and returns the figure they describe. Used by `render` and the server.
pub fn plan(words: &[String], memory_limit: u64) -> crate::Result<Planned> {
    // The command definition is built once per process: building it (clap's derive)
    // cost more than parsing, and `render` plans every figure twice.
    static COMMAND: std::sync::LazyLock<clap::Command> = std::sync::LazyLock::new(Cli::command);
    let argv = std::iter::once("nimscape".to_string()).chain(words.iter().cloned());
    let matches = COMMAND
        .clone()
        .try_get_matches_from(argv)
        .map_err(|err| crate::Error::invalid(first_line(&err).trim_start_matches("error: ")))?;
    let cli = Cli::from_arg_matches(&matches)
        .map_err(|err| crate::Error::invalid(first_line(&err).trim_start_matches("error: ")))?;
    let command_line = provenance::command_line(&COMMAND, &matches);
    let figure: Box<dyn crate::figure::Figure + Send> = match cli.command {
        Command::Square(args) => Box::new(square::plan(args, memory_limit)?),
        Command::Count(args) => Box::new(count::plan(args)?),
        Command::Automaton(args) => Box::new(automaton::plan(args, memory_limit)?),
        Command::Grundy(args) => Box::new(grundy::plan(args, memory_limit)?),
        Command::Octahedron(args) => octahedron::plan(args, memory_limit).map_err(library_error)?,
        Command::Verify(_)
        | Command::Render(_)
        | Command::Completions { .. }
        | Command::Man
        | Command::Serve(_)
        | Command::Explore(_) => {
            return Err(crate::Error::unsupported(format!(
                "'{}' draws no figure",
                words.first().map(String::as_str).unwrap_or_default()
            )))
        }
    };
    Ok(Planned {
        figure,
        command_line,
    })
}

/// The explorer's hover map of a Grundy figure (see [`serve::grundy_layout`]).
pub use serve::grundy_layout;

/// The bytes `nimscape <command> --<flag> <value> ... -o x.<extension>` writes, made
/// in process: the same definitions, the same validation, the same bytes. `flags`
/// are long flag names without dashes (a positional argument by its value name,
/// e.g. `game`); a switch is on for `true`, `1`, `on` or an empty value.
pub fn render_bytes(
    command: &[&str],
    flags: &[(String, String)],
    extension: &str,
    memory_limit: u64,
) -> crate::Result<Vec<u8>> {
    let words = words_for(command, flags)?;
    let planned = plan(&words, memory_limit)?;
    let path = PathBuf::from(format!("figure.{extension}"));
    let format = crate::figure::format_of(planned.figure.as_ref(), &path)?;
    crate::figure::to_bytes(
        planned.figure.as_ref(),
        format,
        &crate::encode::Metadata::with_parameters(planned.command_line),
    )
}

/// Command-line words for a subcommand path and `name = value` pairs, looked up in
/// the subcommand's own definition (so a value is never read as a flag).
pub fn words_for(command: &[&str], flags: &[(String, String)]) -> crate::Result<Vec<String>> {
    let root = Cli::command();
    let mut definition = &root;
    for word in command {
        definition = definition.find_subcommand(word).ok_or_else(|| {
            crate::Error::invalid(format!("unknown command '{}'", command.join(" ")))
        })?;
    }
    let mut words: Vec<String> = command.iter().map(|w| w.to_string()).collect();
    let mut positional = Vec::new();
    for (name, value) in flags {
        let name = name.replace('_', "-");
        let arg = definition
            .get_arguments()
            .chain(root.get_arguments().filter(|a| a.is_global_set()))
            .find(|a| {
                a.get_long() == Some(name.as_str())
                    || a.get_all_aliases()
                        .is_some_and(|aliases| aliases.contains(&name.as_str()))
                    || (a.is_positional() && a.get_id().as_str() == name)
            })
            .filter(|a| !["output", "threads", "help", "version"].contains(&a.get_id().as_str()))
            .ok_or_else(|| {
                crate::Error::invalid(format!(
                    "unexpected argument '--{name}' for '{}'",
                    command.join(" ")
                ))
            })?;
        if arg.is_positional() {
            positional.push(value.clone());
        } else if matches!(arg.get_action(), clap::ArgAction::SetTrue) {
            let name = arg.get_long().unwrap_or(&name);
            match value.as_str() {
                "" | "true" | "1" | "on" => words.push(format!("--{name}")),
                "false" | "0" | "off" => {}
                other => {
                    return Err(crate::Error::invalid(format!(
                        "--{name} is a switch: give true or false, not '{other}'"
                    )))
                }
            }
        } else {
            // `--flag=value` keeps a value that starts with '-' a value.
            words.push(format!("--{}={value}", arg.get_long().unwrap_or(&name)));
        }
    }
    // After `--` a positional value is a value even when it starts with '-'.
    if !positional.is_empty() {
        words.push("--".into());
        words.extend(positional);
    }
    Ok(words)
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
