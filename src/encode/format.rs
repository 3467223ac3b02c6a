//! The file formats nimscape writes, chosen by a file's extension.

use crate::{Error, Result};
use std::path::Path;

/// The file formats nimscape writes, chosen by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Raster image.
    Png,
    /// Vector image.
    Svg,
    /// Vector PDF (for pdflatex, written from the same scene), wherever SVG is written.
    Pdf,
    /// Animated GIF.
    Gif,
    /// Animated PNG: full colour, played by browsers and slide software.
    Apng,
    /// Comma-separated data with a header line.
    Csv,
    /// JSON data.
    Json,
    /// A NumPy array (`numpy.load` reads it as is).
    Npy,
    /// A LaTeX table (`tabular`, coloured with `colortbl`) to `\input`.
    Tex,
    /// A TikZ picture to `\input` (`.tikz` or `.pgf`), its text set by LaTeX,
    /// wherever SVG is written.
    Tikz,
}

impl Format {
    /// Every format nimscape writes.
    pub const ALL: [Format; 10] = [
        Format::Png,
        Format::Svg,
        Format::Pdf,
        Format::Gif,
        Format::Apng,
        Format::Csv,
        Format::Json,
        Format::Npy,
        Format::Tex,
        Format::Tikz,
    ];

    /// The lower-case extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Svg => "svg",
            Format::Pdf => "pdf",
            Format::Gif => "gif",
            Format::Apng => "apng",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Npy => "npy",
            Format::Tex => "tex",
            Format::Tikz => "tikz",
        }
    }

    /// True for the animations (GIF, APNG).
    pub fn is_animation(self) -> bool {
        matches!(self, Format::Gif | Format::Apng)
    }

    /// True for the still-image formats (PNG, SVG, PDF, TikZ).
    pub fn is_image(self) -> bool {
        matches!(self, Format::Png | Format::Svg | Format::Pdf | Format::Tikz)
    }

    /// `formats` with PDF and TikZ after SVG where they are missing: every figure
    /// that can be SVG can also be PDF and TikZ (written from the same scene).
    pub fn with_vectors(formats: &[Format]) -> Vec<Format> {
        let mut all = formats.to_vec();
        for vector in [Format::Tikz, Format::Pdf] {
            if all.contains(&Format::Svg) && !all.contains(&vector) {
                all.insert(
                    all.iter().position(|&f| f == Format::Svg).unwrap_or(0) + 1,
                    vector,
                );
            }
        }
        all
    }

    /// The format of `path` by its extension, if it is one of `allowed` (with
    /// [`Format::with_vectors`]); `.pgf` is another name for `.tikz`.
    pub fn of_path(path: &Path, allowed: &[Format]) -> Result<Format> {
        let allowed = &Format::with_vectors(allowed)[..];
        let list = allowed
            .iter()
            .map(|f| match f {
                Format::Tikz => ".tikz, .pgf".to_string(),
                f => format!(".{}", f.extension()),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let Some(ext) = ext else {
            return Err(Error::invalid_request(format!(
                "output '{}' has no extension; name it with one of {list}",
                path.display()
            )));
        };
        allowed
            .iter()
            .copied()
            .find(|f| f.extension() == ext || (*f == Format::Tikz && ext == "pgf"))
            .ok_or_else(|| {
                if matches!(ext.as_str(), "tikz" | "pgf") && !allowed.iter().any(|f| f.is_image())
                {
                    return Error::invalid_request(format!(
                        "output '{}': a TikZ picture is one still figure and this one is an animation; use one of {list}",
                        path.display()
                    ));
                }
                Error::invalid_request(format!(
                    "output '{}': unknown extension '.{ext}' here; use one of {list}",
                    path.display()
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_by_extension_names_the_choices() {
        assert_eq!(
            Format::of_path(Path::new("a/b.PNG"), &[Format::Png]).unwrap(),
            Format::Png
        );
        let err = Format::of_path(Path::new("x.bmp"), &[Format::Png, Format::Svg])
            .unwrap_err()
            .to_string();
        assert!(err.contains(".bmp") && err.contains(".png, .svg"), "{err}");
    }
}
