//! Command-line definitions: one file per subcommand, all turning flags into the
//! library's validated specs. Nothing here computes or draws.

mod args;
mod automaton;
mod count;
mod grundy;
mod octahedron;
mod render;
mod serve;
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
    /// Serve the interactive explorer: deep zoom into R(m,n), every figure's controls, exact downloads.
    Serve(serve::ServeArgs),
    /// Write the explorer as one offline HTML file with its tiles and frames embedded.
    Explore(serve::ExploreArgs),
}

/// Parses the command line and runs the chosen subcommand.
pub fn run() -> Result<()> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
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
    if let Some(threads) = cli.threads {
        if threads == 0 {
            anyhow::bail!("--threads must be at least 1");
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()?;
    }
    match cli.command {
        Command::Square(args) => square::run(args, cli.max_memory),
        Command::Count(args) => count::run(args),
        Command::Automaton(args) => automaton::run(args, cli.max_memory),
        Command::Verify(args) => verify::run(args, cli.max_memory),
        Command::Grundy(args) => grundy::run(args, cli.max_memory),
        Command::Octahedron(args) => octahedron::run(args, cli.max_memory),
        Command::Render(args) => render::run(args, cli.max_memory),
        Command::Serve(args) => serve::run(args, cli.max_memory),
        Command::Explore(args) => serve::run_explore(args, cli.max_memory),
    }
}
