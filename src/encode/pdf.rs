//! PDF: the scene written straight to vector PDF (pdf-writer), for pdflatex,
//! which cannot include SVG. Paths and cell layers become PDF paths; text stays
//! text in the figure's family, placed glyph by glyph where the font module laid
//! it out, with a subset of the embedded DejaVu font (a TrueType CID font, which
//! `pdffonts` lists as embedded and subset) so words can be searched and
//! selected; `--text outlines` gives paths. The page (MediaBox) is the scene's
//! size in points, or exactly its paper size.
//!
//! The bytes depend only on the scene: objects are numbered in the order they
//! are written, nothing is kept in a hash map, and the file has no date and no
//! random identifier.

use super::metadata::Metadata;
use crate::library::scene::font::{self, Family};
use crate::library::scene::{CellLayer, Color, Item, PathCmd, PathItem, Scene, TextItem, TextMode};
use crate::{Error, Result};
use ab_glyph::Font as _;
use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use std::collections::BTreeMap;
use std::io::Write as _;

/// The one font resource of a page (a figure sets all its text in one family).
const FONT: Name<'static> = Name(b"F1");

/// SVG's default miter limit: the PDF joins corners as the SVG and PNG do.
const MITER_LIMIT: f32 = 4.0;

/// A scene as PDF bytes, the same bytes on every run.
pub fn scene_to_pdf(scene: &Scene, metadata: &Metadata) -> Result<Vec<u8>> {
    // The page in points: the paper's exact size, or one point per scene unit.
    let (page_width, page_height) = match &scene.paper {
        Some(paper) => (paper.width_pt, paper.height_pt),
        None => (f64::from(scene.width), f64::from(scene.height)),
    };
    let mut painter = Painter::new(scene.font);
    // Scene units (y down) to points (y up), once for the whole page.
    painter.content.transform([
        (page_width / f64::from(scene.width.max(1))) as f32,
        0.0,
        0.0,
        -(page_height / f64::from(scene.height.max(1))) as f32,
        0.0,
        page_height as f32,
    ]);
    painter.content.set_miter_limit(MITER_LIMIT);
    if scene.background.a > 0 {
        painter.fill_color(scene.background);
        painter
            .content
            .rect(0.0, 0.0, scene.width as f32, scene.height as f32);
        painter.content.fill_nonzero();
    }
    for item in &scene.items {
        match item {
            Item::Cells(layer) => painter.cells(layer),
            Item::Path(path) => painter.path(path),
            Item::Text(text) => match scene.text {
                TextMode::Text => painter.text(text),
                TextMode::Outlines => painter.path(&PathItem {
                    commands: font::text_path_in(scene.font, text),
                    fill: Some(text.color),
                    stroke: None,
                }),
            },
        }
    }
    painter.finish(metadata, (page_width, page_height))
}

/// Builds the page's content stream and remembers what it used: the glyphs of
/// the font and the opacities (each a graphics state).
struct Painter {
    family: Family,
    content: Content,
    /// Glyph id → the character it was drawn for (for copy and search).
    glyphs: BTreeMap<u16, char>,
    /// Opacity pairs (fill, stroke) in first-use order; the index names the state.
    alphas: Vec<(u8, u8)>,
    /// The opacities in force.
    alpha: (u8, u8),
}

impl Painter {
    fn new(family: Family) -> Self {
        Painter {
            family,
            content: Content::new(),
            glyphs: BTreeMap::new(),
            alphas: Vec::new(),
            alpha: (255, 255),
        }
    }

    /// Sets the opacities, through a graphics state, when they change.
    fn opacity(&mut self, fill: u8, stroke: u8) {
        if self.alpha == (fill, stroke) {
            return;
        }
        self.alpha = (fill, stroke);
        let index = match self.alphas.iter().position(|&a| a == (fill, stroke)) {
            Some(index) => index,
            None => {
                self.alphas.push((fill, stroke));
                self.alphas.len() - 1
            }
        };
        self.content
            .set_parameters(Name(state_name(index).as_bytes()));
    }

    fn fill_color(&mut self, color: Color) {
        let stroke = self.alpha.1;
        self.opacity(color.a, stroke);
        let [r, g, b] = unit_rgb(color);
        self.content.set_fill_rgb(r, g, b);
    }

    fn cells(&mut self, layer: &CellLayer) {
        let (x0, y0) = (layer.rect.x, layer.rect.y);
        let rects = super::svg::merged_rectangles(layer);
        for (index, &color) in layer.palette.iter().enumerate() {
            if color.a == 0 {
                continue;
            }
            let mut any = false;
            for &(_, row, col, rows, cols) in rects.iter().filter(|r| usize::from(r.0) == index) {
                if !any {
                    self.fill_color(color);
                    any = true;
                }
                let (x, y) = (layer.col_edge(col), layer.row_edge(row));
                let (w, h) = (
                    layer.col_edge(col + cols) - x,
                    layer.row_edge(row + rows) - y,
                );
                self.content
                    .rect((x0 + x) as f32, (y0 + y) as f32, w as f32, h as f32);
            }
            if any {
                self.content.fill_nonzero();
            }
        }
        if let Some(grid) = layer.grid_line {
            self.fill_color(grid);
            let (xs, ys) = super::raster::grid_lines(layer);
            let (width, height) = (layer.rect.width as f32, layer.rect.height as f32);
            for x in xs {
                self.content.rect(x as f32, y0 as f32, 1.0, height);
            }
            for y in ys {
                self.content.rect(x0 as f32, y as f32, width, 1.0);
            }
            self.content.fill_nonzero();
        }
    }

    fn path(&mut self, path: &PathItem) {
        if path.fill.is_none() && path.stroke.is_none() {
            return;
        }
        let fill_alpha = path.fill.map_or(self.alpha.0, |c| c.a);
        let stroke_alpha = path.stroke.map_or(self.alpha.1, |(c, _)| c.a);
        self.opacity(fill_alpha, stroke_alpha);
        if let Some(fill) = path.fill {
            let [r, g, b] = unit_rgb(fill);
            self.content.set_fill_rgb(r, g, b);
        }
        if let Some((stroke, width)) = path.stroke {
            let [r, g, b] = unit_rgb(stroke);
            self.content.set_stroke_rgb(r, g, b);
            self.content.set_line_width(width as f32);
        }
        outline(&mut self.content, &path.commands);
        match (path.fill.is_some(), path.stroke.is_some()) {
            (true, true) => self.content.fill_nonzero_and_stroke(),
            (true, false) => self.content.fill_nonzero(),
            _ => self.content.stroke(),
        };
    }

    /// A text item as real text: one text object, one positioned string per
    /// styled run, each glyph where the font module's layout (kerning included)
    /// puts it; italic runs are the same face slanted, as the outlines are.
    fn text(&mut self, item: &TextItem) {
        self.fill_color(item.color);
        let face = font::face(self.family, false);
        let units = f64::from(face.units_per_em().unwrap_or(2048.0));
        let (dx, dy) = font::baseline_offset(self.family, item);
        let (sin, cos) = item.rotation.to_radians().sin_cos();
        self.content.begin_text();
        for run in font::placed_runs(self.family, &item.text, item.size) {
            let slant = if run.italic {
                font::SLANT.to_radians().tan()
            } else {
                0.0
            };
            // Text space (y up, one unit per point of type) to scene units (y
            // down): the run's origin, turned like the item, slanted, flipped.
            let (ox, oy) = (dx + run.dx, dy + run.dy);
            self.content.set_font(FONT, run.size as f32);
            self.content.set_text_matrix([
                cos as f32,
                sin as f32,
                (cos * slant + sin) as f32,
                (sin * slant - cos) as f32,
                (item.x + cos * ox - sin * oy) as f32,
                (item.y + sin * ox + cos * oy) as f32,
            ]);
            let mut positioned = self.content.show_positioned();
            let mut items = positioned.items();
            let mut pending: Vec<u8> = Vec::new();
            let mut previous = None;
            for ch in run.text.chars() {
                let id = face.glyph_id(ch);
                if let Some(prev) = previous {
                    let kern = f64::from(face.kern_unscaled(prev, id));
                    if kern != 0.0 {
                        items.show(Str(&pending));
                        pending.clear();
                        items.adjust((-kern * 1000.0 / units) as f32);
                    }
                }
                pending.extend_from_slice(&id.0.to_be_bytes());
                self.glyphs.entry(id.0).or_insert(ch);
                previous = Some(id);
            }
            if !pending.is_empty() {
                items.show(Str(&pending));
            }
        }
        self.content.end_text();
    }

    /// The whole file: catalog, page, content, the font (if any text was set)
    /// and the opacity states, numbered in that order.
    fn finish(self, metadata: &Metadata, (width, height): (f64, f64)) -> Result<Vec<u8>> {
        let mut next = 0;
        let mut new_ref = || {
            next += 1;
            Ref::new(next)
        };
        let (catalog, pages, page, contents) = (new_ref(), new_ref(), new_ref(), new_ref());
        let font_refs = (!self.glyphs.is_empty()).then(|| FontRefs {
            type0: new_ref(),
            cid: new_ref(),
            descriptor: new_ref(),
            file: new_ref(),
            to_unicode: new_ref(),
        });
        let states: Vec<Ref> = self.alphas.iter().map(|_| new_ref()).collect();
        let info = (!metadata.entries.is_empty()).then(&mut new_ref);

        let mut pdf = Pdf::new();
        // pdflatex writes PDF 1.5 and warns of any newer figure; nothing here
        // needs more (a classic cross-reference table, TrueType in FontFile2).
        pdf.set_version(1, 5);
        pdf.catalog(catalog).pages(pages);
        pdf.pages(pages).kids([page]).count(1);
        let mut page_writer = pdf.page(page);
        page_writer
            .parent(pages)
            .media_box(Rect::new(0.0, 0.0, width as f32, height as f32))
            .contents(contents);
        // A page that paints nothing translucent has no transparency group:
        // pdfTeX warns when two figures with one share a page of an article.
        if self
            .alphas
            .iter()
            .any(|&(fill, stroke)| fill < 255 || stroke < 255)
        {
            page_writer
                .group()
                .transparency()
                .isolated(true)
                .knockout(false)
                .color_space()
                .device_rgb();
        }
        let mut resources = page_writer.resources();
        if let Some(refs) = &font_refs {
            resources.fonts().pair(FONT, refs.type0);
        }
        if !states.is_empty() {
            let mut dict = resources.ext_g_states();
            for (index, &state) in states.iter().enumerate() {
                dict.pair(Name(state_name(index).as_bytes()), state);
            }
        }
        resources.finish();
        page_writer.finish();

        let content = deflate(&self.content.finish())?;
        pdf.stream(contents, &content).filter(Filter::FlateDecode);
        if let Some(refs) = &font_refs {
            write_font(&mut pdf, refs, self.family, &self.glyphs)?;
        }
        for (&(fill, stroke), &state) in self.alphas.iter().zip(&states) {
            pdf.ext_graphics(state)
                .non_stroking_alpha(f32::from(fill) / 255.0)
                .stroking_alpha(f32::from(stroke) / 255.0);
        }
        if let Some(info) = info {
            // The provenance the PNG and SVG carry: the tool and the parameters.
            let mut dict = pdf.document_info(info);
            for (key, value) in &metadata.entries {
                match key.as_str() {
                    "Software" => dict.creator(TextStr(value)),
                    "Parameters" => dict.subject(TextStr(value)),
                    _ => dict.pair(Name(key.as_bytes()), TextStr(value)),
                };
            }
        }
        Ok(pdf.finish())
    }
}

struct FontRefs {
    type0: Ref,
    cid: Ref,
    descriptor: Ref,
    file: Ref,
    to_unicode: Ref,
}

/// The family's face as a Type 0 font over a CID TrueType font whose CIDs are
/// the glyph ids, with the used glyphs' widths, a subset of the font file
/// (other glyphs emptied, ids kept) and a ToUnicode map for copy and search.
fn write_font(
    pdf: &mut Pdf,
    refs: &FontRefs,
    family: Family,
    glyphs: &BTreeMap<u16, char>,
) -> Result<()> {
    let face = font::face(family, false);
    let units = f64::from(face.units_per_em().unwrap_or(2048.0));
    let per_mille = |value: f64| (value * 1000.0 / units) as f32;
    // The subset tag ("ABCDEF+") is made from the glyphs, so equal figures share it.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &id in glyphs.keys() {
        for byte in id.to_be_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    let tag: String = (0..6)
        .map(|k| char::from(b'A' + ((hash >> (5 * k)) % 26) as u8))
        .collect();
    let base = format!("{tag}+{}", family.name().replace(' ', ""));
    let base = Name(base.as_bytes());
    let system = SystemInfo {
        registry: Str(b"Adobe"),
        ordering: Str(b"Identity"),
        supplement: 0,
    };

    pdf.type0_font(refs.type0)
        .base_font(base)
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(refs.cid)
        .to_unicode(refs.to_unicode);

    let mut cid = pdf.cid_font(refs.cid);
    cid.subtype(CidFontType::Type2)
        .base_font(base)
        .system_info(system)
        .font_descriptor(refs.descriptor)
        .cid_to_gid_map_predefined(Name(b"Identity"));
    let mut widths = cid.widths();
    let ids: Vec<u16> = glyphs.keys().copied().collect();
    for group in ids.chunk_by(|a, b| b.checked_sub(*a) == Some(1)) {
        widths.consecutive(
            group[0],
            group
                .iter()
                .map(|&id| per_mille(f64::from(face.h_advance_unscaled(ab_glyph::GlyphId(id))))),
        );
    }
    widths.finish();
    cid.finish();

    let bytes = family.bytes();
    let metrics = FontMetrics::read(bytes)
        .ok_or_else(|| encode_error(format!("the font {} has no head table", family.name())))?;
    let [x_min, y_min, x_max, y_max] = metrics.bbox.map(f64::from);
    // Symbolic: DejaVu has glyphs outside the standard Latin set (Greek, arrows).
    let mut flags = FontFlags::SYMBOLIC;
    if family == Family::Serif {
        flags |= FontFlags::SERIF;
    }
    pdf.font_descriptor(refs.descriptor)
        .name(base)
        .flags(flags)
        .bbox(Rect::new(
            per_mille(x_min),
            per_mille(y_min),
            per_mille(x_max),
            per_mille(y_max),
        ))
        .italic_angle(0.0)
        .ascent(per_mille(f64::from(metrics.ascent)))
        .descent(per_mille(f64::from(metrics.descent)))
        .cap_height(per_mille(f64::from(metrics.cap_height)))
        .stem_v(metrics.stem_v)
        .font_file2(refs.file);

    let subset = subsetter::subset(bytes, 0, subsetter::Profile::pdf(&ids))
        .ok()
        .and_then(|subset| only_tables(&subset, &PDF_TABLES))
        .ok_or_else(|| encode_error(format!("the font {} could not be subset", family.name())))?;
    let packed = deflate(&subset)?;
    pdf.stream(refs.file, &packed)
        .filter(Filter::FlateDecode)
        .pair(Name(b"Length1"), subset.len() as i32);

    let mut cmap = UnicodeCmap::new(Name(b"Custom"), system);
    for (&id, &ch) in glyphs {
        cmap.pair(id, ch);
    }
    let cmap = deflate(&cmap.finish())?;
    pdf.cmap(refs.to_unicode, &cmap).filter(Filter::FlateDecode);
    Ok(())
}

/// The tables of a TrueType font program in a PDF (ISO 32000-1, 9.9, "Embedded
/// font programs"): the glyphs and their metrics and hints. The subset keeps
/// `cmap` (the PDF maps codes to glyphs itself), `name`, `post` and `OS/2` too,
/// about 9 kB compressed of every figure; the font program stays valid without
/// them.
const PDF_TABLES: [&[u8; 4]; 9] = [
    b"cvt ", b"fpgm", b"glyf", b"head", b"hhea", b"hmtx", b"loca", b"maxp", b"prep",
];

/// A table of a TrueType font by its tag.
fn table<'a>(font: &'a [u8], tag: &[u8; 4]) -> Option<&'a [u8]> {
    let count = usize::from(u16_at(font, 4)?);
    (0..count).find_map(|k| {
        let record = 12 + 16 * k;
        if font.get(record..record + 4)? != tag {
            return None;
        }
        let (offset, length) = (u32_at(font, record + 8)?, u32_at(font, record + 12)?);
        font.get(offset as usize..offset as usize + length as usize)
    })
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// The font's own numbers for its descriptor, in font units: bounding box
/// (`head`), typographic ascent, descent and cap height and the stem width of
/// its weight (`OS/2`), which poppler reads for the boxes of words.
struct FontMetrics {
    bbox: [i16; 4],
    ascent: i16,
    descent: i16,
    cap_height: i16,
    stem_v: f32,
}

impl FontMetrics {
    fn read(font: &[u8]) -> Option<Self> {
        let head = table(font, b"head")?;
        let i16_at = |bytes: &[u8], at: usize| u16_at(bytes, at).map(|v| v as i16);
        let bbox = [
            i16_at(head, 36)?,
            i16_at(head, 38)?,
            i16_at(head, 40)?,
            i16_at(head, 42)?,
        ];
        let os2 = table(font, b"OS/2")?;
        let version = u16_at(os2, 0)?;
        let weight = f32::from(u16_at(os2, 4)?);
        let (ascent, descent) = (i16_at(os2, 68)?, i16_at(os2, 70)?);
        let cap_height = if version >= 2 {
            i16_at(os2, 88)?
        } else {
            ascent
        };
        Some(FontMetrics {
            bbox,
            ascent,
            descent,
            cap_height,
            // The usual estimate from the weight class (400: 95.4).
            stem_v: 10.0 + 0.244 * (weight - 50.0),
        })
    }
}

/// The font with only the tables `keep` names (in the order of its own
/// directory, which is sorted by tag), checksums made anew.
fn only_tables(font: &[u8], keep: &[&[u8; 4]]) -> Option<Vec<u8>> {
    let count = usize::from(u16_at(font, 4)?);
    let mut kept = Vec::new();
    for k in 0..count {
        let record = 12 + 16 * k;
        let tag: [u8; 4] = font.get(record..record + 4)?.try_into().ok()?;
        if keep.contains(&&tag) {
            kept.push((tag, table(font, &tag)?));
        }
    }
    let tables = u16::try_from(kept.len()).ok()?;
    let power = 1u16 << (15 - tables.max(1).leading_zeros());
    let mut out = font.get(..4)?.to_vec();
    for value in [
        tables,
        power * 16,
        power.trailing_zeros() as u16,
        tables * 16 - power * 16,
    ] {
        out.extend_from_slice(&value.to_be_bytes());
    }
    let checksum = |bytes: &[u8]| {
        bytes.chunks(4).fold(0u32, |sum, word| {
            let mut padded = [0u8; 4];
            padded[..word.len()].copy_from_slice(word);
            sum.wrapping_add(u32::from_be_bytes(padded))
        })
    };
    let mut offset = 12 + 16 * kept.len();
    let mut body = Vec::new();
    let mut head_at = None;
    for (tag, data) in &kept {
        let mut data = data.to_vec();
        if tag == b"head" {
            // The whole file's checksum adjustment is counted as zero.
            data.get_mut(8..12)?.fill(0);
            head_at = Some(offset - (12 + 16 * kept.len()));
        }
        out.extend_from_slice(tag);
        out.extend_from_slice(&checksum(&data).to_be_bytes());
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let padded = data.len().next_multiple_of(4);
        body.extend_from_slice(&data);
        body.resize(body.len() + padded - data.len(), 0);
        offset += padded;
    }
    out.extend_from_slice(&body);
    if let Some(head) = head_at {
        let at = 12 + 16 * kept.len() + head + 8;
        let adjustment = 0xB1B0_AFBAu32.wrapping_sub(checksum(&out));
        out[at..at + 4].copy_from_slice(&adjustment.to_be_bytes());
    }
    Some(out)
}

/// A path's steps as PDF operators; quadratic curves become the equal cubics.
fn outline(content: &mut Content, commands: &[PathCmd]) {
    let (mut current, mut start) = ((0.0, 0.0), (0.0, 0.0));
    for &command in commands {
        match command {
            PathCmd::MoveTo(x, y) => {
                content.move_to(x as f32, y as f32);
                (current, start) = ((x, y), (x, y));
            }
            PathCmd::LineTo(x, y) => {
                content.line_to(x as f32, y as f32);
                current = (x, y);
            }
            PathCmd::QuadTo(cx, cy, x, y) => {
                let (x0, y0) = current;
                content.cubic_to(
                    (x0 + 2.0 / 3.0 * (cx - x0)) as f32,
                    (y0 + 2.0 / 3.0 * (cy - y0)) as f32,
                    (x + 2.0 / 3.0 * (cx - x)) as f32,
                    (y + 2.0 / 3.0 * (cy - y)) as f32,
                    x as f32,
                    y as f32,
                );
                current = (x, y);
            }
            PathCmd::CubicTo(ax, ay, bx, by, x, y) => {
                content.cubic_to(
                    ax as f32, ay as f32, bx as f32, by as f32, x as f32, y as f32,
                );
                current = (x, y);
            }
            PathCmd::Close => {
                content.close_path();
                current = start;
            }
        }
    }
}

fn state_name(index: usize) -> String {
    format!("A{index}")
}

fn unit_rgb(color: Color) -> [f32; 3] {
    [color.r, color.g, color.b].map(|v| f32::from(v) / 255.0)
}

/// Zlib-compressed bytes (a stream's FlateDecode), the same on every run.
fn deflate(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut encoder = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(bytes.len() / 2),
        flate2::Compression::default(),
    );
    encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .map_err(|e| encode_error(format!("compressing a PDF stream failed: {e}")))
}

/// The file is named by whoever opened it ([`Error::at`]).
fn encode_error(message: String) -> Error {
    Error::Encode {
        path: std::path::PathBuf::new(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::scene::{Color, PathItem, Scene, TextItem};

    fn words_scene() -> Scene {
        let mut scene = Scene::new(200, 60, Color::WHITE);
        scene.push(TextItem::centered(
            100.0,
            30.0,
            "$S_4$ and $H(4,11)$",
            14.0,
            Color::BLACK,
        ));
        scene
    }

    #[test]
    fn math_markup_gives_one_font_and_the_same_bytes_every_run() {
        let metadata = Metadata::with_parameters("count --m 1..9");
        let first = scene_to_pdf(&words_scene(), &metadata).unwrap();
        for _ in 0..12 {
            assert_eq!(scene_to_pdf(&words_scene(), &metadata).unwrap(), first);
        }
        // Italic variables are the one font slanted: a single embedded subset.
        let text = String::from_utf8_lossy(&first);
        assert_eq!(text.matches("/Subtype /Type0").count(), 1);
        assert_eq!(text.matches("/FontFile2").count(), 1);
        // A header pdflatex includes without a version warning, and nothing in
        // the file that PDF 1.5 lacks (OpenType font files came with 1.6).
        assert!(first.starts_with(b"%PDF-1.5\n"), "{:?}", &first[..9]);
        assert!(!text.contains("/FontFile3") && !text.contains("/OpenType"));
        // No date, no file identifier: nothing that changes from run to run.
        assert!(!text.contains("/CreationDate") && !text.contains("/ID"));
        // Objects in number order, and the table points at each of them.
        let at = |n: usize| {
            let needle = format!("{n} 0 obj");
            first
                .windows(needle.len())
                .position(|w| w == needle.as_bytes())
                .unwrap()
        };
        assert!(at(1) < at(2) && at(2) < at(3));
        let xref = text.rfind("xref\n0 ").unwrap();
        // Line 4 of the table: "xref", "0 N", the free entry 0, object 1, object 2.
        let entry = &text[xref..].lines().nth(4).unwrap()[..10];
        assert_eq!(entry.parse::<usize>().unwrap(), at(2));
    }

    #[test]
    fn the_subset_keeps_the_drawn_glyphs_and_is_far_smaller_than_the_font() {
        let pdf = scene_to_pdf(&words_scene(), &Metadata::default()).unwrap();
        // The whole DejaVu Sans is about 740 kB (about 350 kB compressed).
        assert!(pdf.len() < 30_000, "{} bytes", pdf.len());
        let mut painter = Painter::new(Family::Sans);
        let item = TextItem::centered(0.0, 0.0, "abc", 10.0, Color::BLACK);
        painter.text(&item);
        let ids: Vec<u16> = painter.glyphs.keys().copied().collect();
        let subset =
            subsetter::subset(font::DEJAVU_SANS, 0, subsetter::Profile::pdf(&ids)).unwrap();
        // The outlines of the drawn glyphs are in the subset, read back by ab_glyph.
        let face = ab_glyph::FontRef::try_from_slice(&subset).unwrap();
        for ch in ['a', 'b', 'c'] {
            let id = font::face(Family::Sans, false).glyph_id(ch);
            assert!(face.outline(id).is_some(), "no outline for {ch}");
        }
        let unused = font::face(Family::Sans, false).glyph_id('z');
        assert!(face.outline(unused).is_none());
    }

    #[test]
    fn an_opaque_page_has_no_transparency_group_and_a_translucent_one_keeps_it() {
        let metadata = Metadata::default();
        let mut scene = Scene::new(100, 50, Color::WHITE);
        scene.push(PathItem::rect(10.0, 10.0, 20.0, 20.0).filled(Color::rgb(0, 0x72, 0xb2)));
        let opaque = scene_to_pdf(&scene, &metadata).unwrap();
        let text = String::from_utf8_lossy(&opaque);
        assert!(!text.contains("/Group") && !text.contains("/Transparency"));
        assert!(!text.contains("/ExtGState") && !text.contains("/Font"));
        // A cousin with a translucent fill paints through its group: kept.
        let mut translucent = scene.clone();
        translucent
            .push(PathItem::rect(0.0, 0.0, 30.0, 30.0).filled(Color::BLACK.with_alpha(0x40)));
        let kept = scene_to_pdf(&translucent, &metadata).unwrap();
        let text = String::from_utf8_lossy(&kept);
        assert!(text.contains("/S /Transparency") && text.contains("/ca 0.25"));
    }

    #[test]
    fn quadratic_steps_become_the_equal_cubics() {
        let mut content = Content::new();
        outline(
            &mut content,
            &[
                PathCmd::MoveTo(0.0, 0.0),
                PathCmd::QuadTo(3.0, 3.0, 6.0, 0.0),
            ],
        );
        let ops = String::from_utf8(content.finish().into_vec()).unwrap();
        assert_eq!(ops.trim(), "0 0 m\n2 2 4 2 6 0 c");
    }

    #[test]
    fn the_descriptor_numbers_are_the_fonts_own() {
        // Read back independently with ab_glyph (its hhea view) and by hand.
        for family in [Family::Sans, Family::Serif] {
            let metrics = FontMetrics::read(family.bytes()).unwrap();
            let face = font::face(family, false);
            let [x0, y0, x1, y1] = metrics.bbox;
            assert!(
                f32::from(y1) >= face.ascent_unscaled() && f32::from(y0) <= face.descent_unscaled()
            );
            assert!(x0 < 0 && x1 > 2048);
            assert!(metrics.ascent > 0 && metrics.descent < 0);
            assert!((0.6..0.8).contains(&(f64::from(metrics.cap_height) / 2048.0)));
        }
    }

    #[test]
    fn the_font_program_keeps_only_the_tables_a_pdf_reads_and_stays_a_font() {
        let ids: Vec<u16> = "P-positions"
            .chars()
            .map(|ch| font::face(Family::Serif, false).glyph_id(ch).0)
            .collect();
        let subset =
            subsetter::subset(font::DEJAVU_SERIF, 0, subsetter::Profile::pdf(&ids)).unwrap();
        let program = only_tables(&subset, &PDF_TABLES).unwrap();
        for tag in PDF_TABLES {
            let (kept, original) = (table(&program, tag).unwrap(), table(&subset, tag).unwrap());
            // The head's checksum adjustment (bytes 8..12) is the new file's.
            let skip = if tag == b"head" { 12 } else { 0 };
            assert_eq!(kept.len(), original.len());
            assert_eq!(kept[skip..], original[skip..]);
        }
        assert!(table(&program, b"cmap").is_none() && table(&program, b"name").is_none());
        // The whole file sums to the magic number, as the format asks.
        let sum = program.chunks(4).fold(0u32, |sum, word| {
            let mut padded = [0u8; 4];
            padded[..word.len()].copy_from_slice(word);
            sum.wrapping_add(u32::from_be_bytes(padded))
        });
        assert_eq!(sum, 0xB1B0_AFBA);
        // ab_glyph still reads it and finds the outlines by glyph id.
        let face = ab_glyph::FontRef::try_from_slice(&program).unwrap();
        for &id in &ids {
            assert!(face.outline(ab_glyph::GlyphId(id)).is_some());
        }
    }
}
