//! The command line: the figure subcommands come from the request layer
//! ([`nimscape::request::FigureCommand`], flattened in), the rest (`render`, `verify`,
//! `serve`, ...) are here. This front end owns what the others never see: `-o`,
//! stdout, the global flags, the progress bar and signals. Nothing here computes
//! or draws.

mod figures;
#[cfg(test)]
mod fuzz;
pub(crate) mod out;
mod output;
mod progress;
mod prove;
mod render;
#[cfg(feature = "serve")]
mod serve;
pub mod signals;
mod survey;
mod verify;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use nimscape::request::{self, args, FigureCommand, Naming};

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
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "BYTES", default_value = "2G", value_parser = args::parse_bytes)]
    max_memory: u64,

    /// Refuse outputs larger than this, or than the free space where they go (e.g. 100G).
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "BYTES", default_value = "4G", value_parser = args::parse_bytes)]
    max_output: u64,

    /// Print nothing but errors and reports: no "wrote FILE" lines, no progress bar.
    #[arg(long, short, global = true, help_heading = GLOBAL)]
    quiet: bool,

    /// Format of `-o -` (stdout) and of the default output/ file: png, svg, pdf, tikz, gif, csv, json; json for reports (verify, --check, grundy's).
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "EXT", value_parser = args::parse_format)]
    format: Option<nimscape::encode::Format>,
}

#[derive(Debug, Subcommand)]
enum Command {
    #[command(flatten)]
    Figure(Box<FigureCommand>),
    /// Test hypotheses on a game family over a parameter range: shifted nim-sums, nim-sum constants, Grundy = nim-sum, periods.
    Survey(nimscape::request::survey::SurveyArgs),
    /// Prove a claim about a game for every position (P-set rule or Grundy formula), or refute it with the smallest counterexample; needs MONA.
    Prove(nimscape::request::prove::ProveArgs),
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
            // One line: what was wrong, named as flags; --help says the rest.
            let flags = flags_of_parsed_command(&Cli::command());
            let err = request::from_clap_among(&err, &flags);
            return Err(UsageError(Naming::Flags.message(&err)).into());
        }
    };
    request::refuse_control_characters(&matches)?;
    let cli = Cli::from_arg_matches(&matches)?;
    configure_threads(cli.threads)?;
    signals::install();
    let ctx = output::Context {
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
    dispatch(cli.command, &ctx)
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

fn dispatch(command: Command, ctx: &output::Context) -> Result<()> {
    match command {
        Command::Figure(command) => figures::run(*command, ctx),
        Command::Survey(args) => survey::run(args, ctx),
        Command::Prove(args) => prove::run(args, ctx),
        Command::Verify(args) => {
            signals::exit_at_once();
            verify::run(args, ctx.memory_limit, ctx.format)
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
    use std::io::Write;
    out::ensure_open()?;
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
    nimscape::error::one_line(&message_text(err))
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
