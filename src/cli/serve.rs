//! `nimscape serve` and `nimscape explore`: the interactive explorer.

use anyhow::{Context, Result};
use clap::Args;
use nimscape::serve::{self, ServeOptions};
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;

/// Serve the interactive explorer on this machine.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port).
    #[arg(long, value_name = "N", default_value_t = 8737)]
    port: u16,
    /// Address to bind. Anything but loopback lets other machines in: a warning is printed.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    host: IpAddr,
    /// Open the explorer in the default browser.
    #[arg(long)]
    open: bool,
    /// Longest time one request may compute, seconds.
    #[arg(long, value_name = "S", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    time_limit: u64,
}

pub fn run(args: ServeArgs, memory_limit: u64, output_limit: u64) -> Result<()> {
    let mut options = ServeOptions::local(memory_limit);
    options.output_limit = output_limit;
    options.host = args.host;
    options.port = args.port;
    options.time_limit = std::time::Duration::from_secs(args.time_limit);
    if !serve::is_loopback(args.host) {
        eprintln!(
            "warning: --host {} is not loopback: anyone who can reach this machine can use the explorer",
            args.host
        );
    }
    let server = serve::start(&options)
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    let url = server.url();
    {
        let mut out = std::io::stdout().lock();
        // A closed stdout must not stop the server.
        let _ = writeln!(out, "nimscape explorer at {url} (Ctrl-C stops it)");
        let _ = out.flush();
    }
    if args.open {
        open_browser(&url);
    }
    server.wait().context("the server stopped")?;
    Ok(())
}

/// Best effort: the URL is printed anyway.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(err) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("could not open a browser ({opener}: {err}); open {url} yourself");
    }
}

/// Write the explorer as one self-contained offline HTML file (square boards and automaton frames embedded).
#[derive(Debug, Args)]
pub struct ExploreArgs {
    /// Boards R(m,m) to include, e.g. 11 or 11,12,23 (each with R(2m+1,2m+1) beside it).
    #[arg(long, value_name = "M,..", default_value = "11", value_delimiter = ',')]
    m: Vec<u64>,
    /// Zoom levels below the fitted view to include (each one halves the cell size).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=62))]
    zoom_levels: u32,
    /// Automaton frames 1..N to include (0: leave the automaton out).
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = clap::value_parser!(u32).range(0..=1024))]
    frames: u32,
    /// Most tiles the file may hold (each is 256 x 256, compressed).
    #[arg(long, value_name = "N", default_value_t = 2000)]
    max_tiles: usize,
    /// The HTML file to write (missing folders are made).
    #[arg(
        short,
        long,
        value_name = "FILE",
        default_value = "output/explorer.html"
    )]
    output: PathBuf,
}

pub fn run_explore(args: ExploreArgs, ctx: &super::Context) -> Result<()> {
    if args.output.extension().and_then(|e| e.to_str()) != Some("html") {
        anyhow::bail!("-o {} must end in .html", args.output.display());
    }
    let spec = serve::ExploreSpec {
        boards: args.m,
        zoom_levels: args.zoom_levels,
        frames: args.frames,
        max_tiles: args.max_tiles,
    };
    let page = serve::explorer_html(&spec, ctx.memory_limit, &ctx.control)?;
    let folders = nimscape::request::NewFolders::make_parent(&args.output)?;
    // As every figure: a temporary file beside the target, renamed when whole (never
    // half a page, none left when stopped), readable by others, under --max-output.
    nimscape::request::write_atomic(&args.output, ctx.output_limit, |out| {
        out.write_all(page.as_bytes())
            .map_err(|source| nimscape::Error::Io {
                path: args.output.clone(),
                source,
            })
    })?;
    folders.keep();
    // On stderr, as every command's: stdout stays for reports and data.
    super::emit::announce(&args.output, ctx);
    Ok(())
}
