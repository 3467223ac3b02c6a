//! The `nimscape` binary: parse the command line, run, report errors on one line.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // First of all: a SIGTERM while the command line is still being read must end
    // with the shell's 143 too, not the default action's death by signal.
    cli::signals::install();
    let result = cli::run();
    // Ctrl-C or SIGTERM: the work was cancelled and has unwound (no file left);
    // exit with the shell's code for the signal, whatever error the unwinding gave.
    if let Some(code) = cli::signals::exit_code() {
        return ExitCode::from(code);
    }
    match result {
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
