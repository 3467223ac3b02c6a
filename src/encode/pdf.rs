//! PDF: the scene's SVG converted to vector PDF (svg2pdf), for pdflatex, which
//! cannot include SVG. Text is already glyph outlines, so no font is needed here.

use crate::{Error, Result};
use std::path::Path;

/// Converts an SVG document to PDF bytes.
pub fn svg_to_pdf(svg: &[u8], path: &Path) -> Result<Vec<u8>> {
    let fail = |message: String| Error::Encode {
        path: path.to_path_buf(),
        message,
    };
    let tree = svg2pdf::usvg::Tree::from_data(svg, &svg2pdf::usvg::Options::default())
        .map_err(|e| fail(format!("the SVG did not parse: {e}")))?;
    svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions::default(),
    )
    .map_err(|e| fail(format!("PDF conversion failed: {e}")))
}
