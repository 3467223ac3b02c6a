//! The `nimscape` binary: parse the command line, run, report errors on one line.

use std::process::ExitCode;

fn main() -> ExitCode {
    match nimscape::cli::run() {
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
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
