//! How a figure's file is written: `--format` and the PNG `--compression`
//! of raw boards.

use clap::ValueEnum;

/// Parses a format name (`png`, `.svg`, `PDF`, ...) for `--format`.
pub fn parse_format(text: &str) -> Result<crate::library::encode::Format, String> {
    let name = text.trim().trim_start_matches('.').to_ascii_lowercase();
    crate::library::encode::Format::of_path(
        std::path::Path::new(&format!("x.{name}")),
        &crate::library::encode::Format::ALL,
    )
    .map_err(|_| {
        format!("'{text}' is not a format; use png, svg, pdf, tikz, gif, apng, csv, json or npy")
    })
}

/// PNG compression of 1-bit `--raw` images (`--compression`).
#[derive(Debug, Clone, Copy, Default, ValueEnum)]
pub enum CompressionArg {
    /// Fastest: about 3x quicker than balanced, but files up to 40x larger.
    Fast,
    /// zlib's default level: small files, still fast (the default).
    #[default]
    Balanced,
    /// zlib's highest level: slower, and rarely smaller than balanced.
    Best,
}

impl From<CompressionArg> for crate::library::encode::png::Compression {
    fn from(arg: CompressionArg) -> Self {
        use crate::library::encode::png::Compression;
        match arg {
            CompressionArg::Fast => Compression::Fast,
            CompressionArg::Balanced => Compression::Balanced,
            CompressionArg::Best => Compression::Best,
        }
    }
}
