//! The `nimscape` binary: parse the command line, run, report errors on one line.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    let code = run();
    // Test hook of the memory guard's tests (tests/suite/reliability_memory.rs): the
    // peak resident size, measured by the kernel, on stderr.
    if std::env::var_os("NIMSCAPE_REPORT_PEAK_RSS").is_some() {
        if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
            if let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:")) {
                eprintln!("peak-rss {}", line.trim_start_matches("VmHWM:").trim());
                eprintln!("estimate {} kB", nimscape::error::largest_estimate() / 1024);
            }
        }
    }
    code
}

fn run() -> ExitCode {
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // A closed pipe (`nimscape count ... | head`) is not a failure.
            if err.chain().any(|cause| {
                cause
                    .downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {}", cli::message(&err));
            // Words that do not parse exit 2, as clap's own errors do.
            if err.downcast_ref::<cli::UsageError>().is_some() {
                return ExitCode::from(2);
            }
            ExitCode::FAILURE
        }
    }
}
