//! `nimscape serve` and `nimscape explore`: the interactive explorer.

use crate::serve::{self, ServeOptions};
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::net::IpAddr;

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

pub fn run(args: ServeArgs, memory_limit: u64) -> Result<()> {
    let mut options = ServeOptions::local(memory_limit);
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
