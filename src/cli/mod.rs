//! Command-line definitions: one file per subcommand, all turning flags into the
//! library's validated specs. Nothing here computes or draws.

mod args;
mod automaton;
mod count;
#[cfg(test)]
mod fuzz;
mod grundy;
mod octahedron;
pub(crate) mod out;
mod render;
mod square;
mod verify;

use anyhow::Result;
use clap::{Parser, Subcommand};

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
}

/// Parses the command line and runs the chosen subcommand.
pub fn run() -> Result<()> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
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
            let text = err.to_string();
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid arguments");
            eprintln!("{} (see nimscape --help)", first.trim_end());
            std::process::exit(2);
        }
    };
    configure_threads(cli.threads)?;
    crate::encode::set_output_limit(cli.max_output);
    crate::encode::interrupt::install();
    match cli.command {
        Command::Square(args) => square::run(args, cli.max_memory),
        Command::Count(args) => count::run(args),
        Command::Automaton(args) => automaton::run(args, cli.max_memory),
        Command::Verify(args) => verify::run(args, cli.max_memory),
        Command::Grundy(args) => grundy::run(args, cli.max_memory),
        Command::Octahedron(args) => octahedron::run(args, cli.max_memory),
        Command::Render(args) => render::run(args, cli.max_memory),
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
