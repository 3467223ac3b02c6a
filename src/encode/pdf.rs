//! PDF: the scene's SVG converted to vector PDF (svg2pdf), for pdflatex, which
//! cannot include SVG. Text stays text: svg2pdf embeds a subset of the DejaVu
//! font (a TrueType CID font, which `pdffonts` lists as embedded and subset),
//! so words can be searched and selected; `--text outlines` gives paths.
//! The page (MediaBox) is the scene's size in points, or exactly its paper size.

use crate::scene::Scene;
use crate::{Error, Result};
use std::sync::{Arc, OnceLock};

/// The embedded fonts as svg2pdf's font database: no system font is ever looked up.
fn fonts() -> Arc<svg2pdf::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<svg2pdf::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = svg2pdf::usvg::fontdb::Database::new();
        for bytes in [crate::font::DEJAVU_SANS, crate::font::DEJAVU_SERIF] {
            db.load_font_data(bytes.to_vec());
        }
        Arc::new(db)
    })
    .clone()
}

/// A scene as PDF bytes, the same bytes on every run.
pub fn scene_to_pdf(scene: &Scene, metadata: &super::metadata::Metadata) -> Result<Vec<u8>> {
    let mut svg = Vec::new();
    super::svg::write_svg_for(&mut svg, scene, metadata, super::svg::Purpose::Pdf)
        .map_err(crate::Error::write_failed)?;
    // SVG lengths in mm are read at usvg's 96 px to the inch; a page at 96 dpi turns
    // them back into exact points. Scenes not on paper keep one pixel per point.
    let dpi = if scene.paper.is_some() { 96.0 } else { 72.0 };
    convert(&svg, dpi)
}

/// Converts an SVG document to PDF bytes, the same bytes on every run.
pub fn svg_to_pdf(svg: &[u8]) -> Result<Vec<u8>> {
    convert(svg, 72.0)
}

fn convert(svg: &[u8], dpi: f32) -> Result<Vec<u8>> {
    // The file is named by whoever opened it ([`Error::at`]).
    let fail = |message: String| Error::Encode {
        path: std::path::PathBuf::new(),
        message,
    };
    let options = svg2pdf::usvg::Options {
        fontdb: fonts(),
        font_family: crate::font::Family::Sans.name().into(),
        ..Default::default()
    };
    let tree = svg2pdf::usvg::Tree::from_data(svg, &options)
        .map_err(|e| fail(format!("the SVG did not parse: {e}")))?;
    let pdf = svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions { dpi },
    )
    .map_err(|e| fail(format!("PDF conversion failed: {e}")))?;
    Ok(version_1_5(without_needless_page_group(
        objects_in_number_order(sort_resource_entries(pdf)),
    )))
}

/// svg2pdf gives every page a transparency group (sRGB, isolated), and pdfTeX
/// warns "multiple pdfs with page group included in a single page" as soon as
/// two such figures share a page of an article. A page that paints nothing
/// transparent (no ExtGState, no soft mask) looks the same without it, so its
/// group is blanked with spaces: no offset moves, the cross-reference table
/// stays true. Figures that do paint with alpha keep theirs.
fn without_needless_page_group(mut pdf: Vec<u8>) -> Vec<u8> {
    let has = |pdf: &[u8], what: &[u8]| pdf.windows(what.len()).any(|w| w == what);
    if has(&pdf, b"/ExtGState") || has(&pdf, b"/SMask") {
        return pdf;
    }
    let key = b"/Group <<";
    let mut from = 0;
    while let Some(at) = pdf[from..].windows(key.len()).position(|w| w == key) {
        let start = from + at;
        let Some(len) = pdf[start + key.len()..].windows(2).position(|w| w == b">>") else {
            break;
        };
        let end = start + key.len() + len + 2;
        if has(&pdf[start..end], b"/S /Transparency") && !has(&pdf[start + key.len()..end], b"<<") {
            for byte in &mut pdf[start..end] {
                if *byte != b'\n' {
                    *byte = b' ';
                }
            }
        }
        from = end;
    }
    pdf
}

/// svg2pdf heads every file `%PDF-1.7`, and pdflatex (which writes PDF 1.5 by
/// default) warns "found PDF version <1.7>, but at most version <1.5> allowed"
/// for every figure it includes. What svg2pdf writes for a scene is PDF 1.4 at
/// most (transparency groups and ExtGState alpha, CID TrueType fonts in
/// FontFile2, ICC colour spaces, a classic cross-reference table: no object or
/// cross-reference streams, no OpenType font files), so the header says 1.5,
/// the version LaTeX expects. The header keeps its length: no offset moves.
fn version_1_5(mut pdf: Vec<u8>) -> Vec<u8> {
    if pdf.starts_with(b"%PDF-1.7") {
        pdf[7] = b'5';
    }
    pdf
}

/// svg2pdf writes a figure's fonts (DejaVu Sans and its italic, say) in hash-map
/// order: the objects keep their numbers but trade places from run to run. This
/// writes every object in number order and rebuilds the cross-reference table, so
/// the bytes depend only on the figure. Anything unexpected leaves the file as it was.
fn objects_in_number_order(pdf: Vec<u8>) -> Vec<u8> {
    reorder_objects(&pdf).unwrap_or(pdf)
}

fn reorder_objects(pdf: &[u8]) -> Option<Vec<u8>> {
    let text_at = |from: usize| std::str::from_utf8(&pdf[from..]).ok();
    let tail = pdf.len().saturating_sub(64);
    let start_key = pdf[tail..].windows(9).rposition(|w| w == b"startxref")? + tail;
    let xref_at: usize = text_at(start_key + 9)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let xref = text_at(xref_at)?;
    let mut lines = xref.lines();
    if lines.next()? != "xref" {
        return None;
    }
    let mut header = lines.next()?.split_whitespace();
    let (first, count): (usize, usize) =
        (header.next()?.parse().ok()?, header.next()?.parse().ok()?);
    if first != 0 {
        return None;
    }
    // (offset, number) of every object in use.
    let mut objects = Vec::new();
    for number in 0..count {
        let line = lines.next()?.trim_end_matches('\r');
        let mut words = line.split_whitespace();
        let (offset, _generation, kind) = (words.next()?, words.next()?, words.next()?);
        if kind == "n" {
            objects.push((offset.parse::<usize>().ok()?, number));
        }
    }
    let trailer_at = xref_at + xref.find("trailer")?;
    objects.sort_unstable();
    let body_start = objects.first()?.0;
    // Each object runs to the next one (or the table): its bytes, blank lines included.
    let mut spans: Vec<(usize, &[u8])> = objects
        .iter()
        .enumerate()
        .map(|(k, &(offset, number))| {
            let end = objects.get(k + 1).map_or(xref_at, |next| next.0);
            (number, &pdf[offset..end])
        })
        .collect();
    if spans
        .iter()
        .any(|(number, bytes)| !bytes.starts_with(format!("{number} 0 obj").as_bytes()))
    {
        return None;
    }
    spans.sort_unstable_by_key(|span| span.0);
    let mut out = pdf[..body_start].to_vec();
    let mut offsets = vec![None; count];
    for (number, bytes) in spans {
        offsets[number] = Some(out.len());
        out.extend_from_slice(bytes);
    }
    let new_xref = out.len();
    out.extend_from_slice(format!("xref\n0 {count}\n").as_bytes());
    for offset in offsets {
        match offset {
            Some(at) => out.extend_from_slice(format!("{at:010} 00000 n\r\n").as_bytes()),
            None => out.extend_from_slice(b"0000000000 65535 f\r\n"),
        }
    }
    let trailer = &pdf[trailer_at..start_key];
    out.extend_from_slice(trailer);
    out.extend_from_slice(format!("startxref\n{new_xref}\n%%EOF").as_bytes());
    Some(out)
}

/// svg2pdf lists a page's resources (`/gs3 9 0 R`, one per line) in hash-map order,
/// which changes from run to run. Sorting each run of such lines makes the file
/// deterministic without moving any object: the lines only change places inside
/// their dictionary, so every byte offset in the cross-reference table still holds.
fn sort_resource_entries(pdf: Vec<u8>) -> Vec<u8> {
    let is_entry = |line: &[u8]| {
        let text = match std::str::from_utf8(line) {
            Ok(text) => text.trim(),
            Err(_) => return false,
        };
        let mut words = text.split(' ');
        let (Some(name), Some(number), Some("0"), Some("R"), None) = (
            words.next(),
            words.next(),
            words.next(),
            words.next(),
            words.next(),
        ) else {
            return false;
        };
        name.starts_with('/') && name.len() > 1 && number.bytes().all(|b| b.is_ascii_digit())
    };
    let mut out = Vec::with_capacity(pdf.len());
    let mut group: Vec<&[u8]> = Vec::new();
    let mut in_stream = false;
    let flush = |group: &mut Vec<&[u8]>, out: &mut Vec<u8>| {
        group.sort_unstable();
        for line in group.drain(..) {
            out.extend_from_slice(line);
        }
    };
    for line in pdf.split_inclusive(|&b| b == b'\n') {
        let bare = line.strip_suffix(b"\n").unwrap_or(line);
        if !in_stream && is_entry(bare) && line.ends_with(b"\n") {
            group.push(line);
            continue;
        }
        flush(&mut group, &mut out);
        if bare == b"stream" {
            in_stream = true;
        } else if bare == b"endstream" {
            in_stream = false;
        }
        out.extend_from_slice(line);
    }
    flush(&mut group, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_markup_gives_one_font_and_the_same_bytes_every_run() {
        use crate::scene::{Color, Scene, TextItem};
        let mut scene = Scene::new(200, 60, Color::WHITE);
        scene.push(TextItem::centered(
            100.0,
            30.0,
            "$S_4$ and $H(4,11)$",
            14.0,
            Color::BLACK,
        ));
        let metadata = super::super::metadata::Metadata::default();
        let first = scene_to_pdf(&scene, &metadata).unwrap();
        for _ in 0..12 {
            assert_eq!(scene_to_pdf(&scene, &metadata).unwrap(), first);
        }
        // Italic variables are the one font slanted: a single embedded subset.
        let text = String::from_utf8_lossy(&first);
        assert_eq!(text.matches("/Subtype /Type0").count(), 1);
        // Objects in number order, and the table points at each of them.
        // Byte offsets (the header's binary comment makes the lossy text longer).
        let at = |n: usize| {
            let needle = format!("\n{n} 0 obj");
            first
                .windows(needle.len())
                .position(|w| w == needle.as_bytes())
                .unwrap()
        };
        assert!(at(1) < at(2) && at(2) < at(3));
        // A header pdflatex includes without a version warning, and nothing in
        // the file that PDF 1.5 lacks (OpenType font files came with 1.6).
        assert!(first.starts_with(b"%PDF-1.5\n"), "{:?}", &first[..9]);
        assert!(!text.contains("/FontFile3") && !text.contains("/OpenType"));
        let xref = text.rfind("xref\n0 ").unwrap();
        let entry = &text[xref..].lines().nth(4).unwrap()[..10];
        assert_eq!(entry.parse::<usize>().unwrap(), at(2) + 1);
    }

    #[test]
    fn an_opaque_page_has_no_transparency_group_and_a_translucent_one_keeps_it() {
        use crate::scene::{Color, PathItem, Scene};
        let metadata = super::super::metadata::Metadata::default();
        let mut scene = Scene::new(100, 50, Color::WHITE);
        scene.push(PathItem::rect(10.0, 10.0, 20.0, 20.0).filled(Color::rgb(0, 0x72, 0xb2)));
        let opaque = scene_to_pdf(&scene, &metadata).unwrap();
        let text = String::from_utf8_lossy(&opaque);
        assert!(!text.contains("/Group") && !text.contains("/Transparency"));
        // Nothing moved: the table still points at each object.
        let xref = text.rfind("xref\n0 ").unwrap();
        for (n, line) in text[xref..].lines().skip(3).enumerate() {
            let Some(offset) = line.get(..10).and_then(|o| o.parse::<usize>().ok()) else {
                break;
            };
            let needle = format!("{} 0 obj", n + 1);
            assert!(opaque[offset..].starts_with(needle.as_bytes()), "{needle}");
        }
        // A cousin with a translucent fill paints through its group: kept.
        let mut translucent = scene.clone();
        translucent
            .push(PathItem::rect(0.0, 0.0, 30.0, 30.0).filled(Color::BLACK.with_alpha(0x40)));
        let kept = scene_to_pdf(&translucent, &metadata).unwrap();
        assert!(String::from_utf8_lossy(&kept).contains("/S /Transparency"));
    }

    #[test]
    fn resource_lines_are_sorted_and_nothing_moves() {
        let pdf = b"1 0 obj\n<<\n  /gs25 31 0 R\n  /gs4 10 0 R\n>>\nstream\n  /gs9 1 0 R\n  /gs1 2 0 R\nendstream\n".to_vec();
        let sorted = sort_resource_entries(pdf.clone());
        assert_eq!(sorted.len(), pdf.len());
        let text = String::from_utf8(sorted).unwrap();
        assert!(text.contains("  /gs25 31 0 R\n  /gs4 10 0 R\n"));
        // Inside a stream nothing is touched.
        assert!(text.contains("  /gs9 1 0 R\n  /gs1 2 0 R\n"));
    }
}
