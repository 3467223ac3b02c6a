//! Numbered frame files (`-o frames/m-%03d.png`) and the LaTeX
//! `\animategraphics` snippet that plays them.

use super::frames::{Animation, Frames};
use crate::encode::gif::Repeat;
use crate::encode::{write_atomic, write_scene_to, Format, Metadata};
use crate::{Error, Result};
use std::path::{Path, PathBuf};

/// Where a numbered frame sequence goes: `-o frames/m-%03d.png` (printf style,
/// as ffmpeg takes it) is `frames/m-` + the frame number padded to 3 digits +
/// `.png`. The number must sit right before the extension, which is where
/// LaTeX's animate package looks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FramePattern {
    /// Everything before the number, folders included (`frames/m-`).
    pub prefix: String,
    /// Digits the number is padded to (`%d` pads nothing: 0).
    pub digits: usize,
    /// The frames' format: `.png`, `.pdf` or `.svg`.
    pub format: Format,
}

impl FramePattern {
    /// The pattern in `path`, if its file name holds a `%`; `None` for an ordinary
    /// file name.
    pub fn parse(path: &Path) -> Result<Option<FramePattern>> {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            return Ok(None);
        };
        let Some(percent) = name.find('%') else {
            if path.to_str().is_some_and(|p| p.contains('%')) {
                return Err(Error::invalid(format!(
                    "-o {}: a frame number (%03d) belongs in the file name, not a folder",
                    path.display()
                )));
            }
            return Ok(None);
        };
        let bad = || {
            Error::invalid(format!(
                "-o {}: a frame sequence is named like frames/m-%03d.png (the number, %d or %0Nd, right before .png, .pdf or .svg)",
                path.display()
            ))
        };
        let rest = &name[percent + 1..];
        let spec_len = rest.find('d').ok_or_else(bad)?;
        let spec = &rest[..spec_len];
        let digits = if spec.is_empty() {
            0
        } else if spec.starts_with('0') && spec.len() > 1 {
            spec[1..].parse::<usize>().map_err(|_| bad())?
        } else {
            return Err(bad());
        };
        if digits > 9 {
            return Err(bad());
        }
        let after = &rest[spec_len + 1..];
        let format = match after.to_ascii_lowercase().as_str() {
            ".png" => Format::Png,
            ".pdf" => Format::Pdf,
            ".svg" => Format::Svg,
            _ => return Err(bad()),
        };
        if name[..percent].contains('%') {
            return Err(bad());
        }
        let folder = path
            .parent()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = if folder.is_empty() {
            name[..percent].to_string()
        } else {
            format!("{folder}/{}", &name[..percent])
        };
        Ok(Some(FramePattern {
            prefix,
            digits,
            format,
        }))
    }

    /// The file of frame `number` (from 1).
    pub fn frame_path(&self, number: usize) -> PathBuf {
        let digits = self.digits;
        PathBuf::from(format!(
            "{}{number:0digits$}.{}",
            self.prefix,
            self.format.extension()
        ))
    }

    /// The LaTeX file written beside the frames: the prefix without its trailing
    /// separator (`frames/m-` gives `frames/m.tex`; `frames/` gives `frames/frames.tex`).
    pub fn tex_path(&self) -> PathBuf {
        let trimmed = self.prefix.trim_end_matches(['-', '_', '.', ' ']);
        let path = Path::new(trimmed);
        match path.file_name() {
            Some(_) if !trimmed.ends_with('/') => path.with_extension("tex"),
            _ => Path::new(trimmed).join("frames.tex"),
        }
    }

    /// Refuses a padding too narrow for `count` frames (the files would not sort,
    /// and animate reads the width from the first and last numbers).
    pub fn check_count(&self, count: usize) -> Result<()> {
        let needed = count.to_string().len();
        if self.digits != 0 && self.digits < needed {
            return Err(Error::invalid(format!(
                "-o {}%0{}d.{}: {count} frames need {needed} digits; write %0{needed}d",
                self.prefix,
                self.digits,
                self.format.extension()
            )));
        }
        Ok(())
    }

    /// The `\animategraphics` lines (animate package, for beamer) that play the
    /// sequence: the frame rate from `--delay`, looping as the animation does. The
    /// paths are as given to `-o`: LaTeX resolves them from the folder it runs in.
    pub fn animate_snippet(&self, count: usize, animation: &Animation) -> String {
        let digits = self.digits;
        let fps = 100.0 / f64::from(animation.delay_cs.max(1));
        let fps = crate::scene::units::trim_number(fps);
        let looping = if animation.repeat == Repeat::Forever {
            ",loop"
        } else {
            ""
        };
        format!(
            "% Made by nimscape: {count} frames, {prefix}{first:0digits$}.{ext} to {prefix}{count:0digits$}.{ext}.\n% Needs \\usepackage{{animate}} in the preamble (texlive-latex-extra); paths are\n% relative to the folder pdflatex runs in. Frames are shown at their natural size.\n\\animategraphics[controls{looping}]{{{fps}}}{{{prefix}}}{{{first:0digits$}}}{{{count:0digits$}}}\n",
            prefix = self.prefix,
            ext = self.format.extension(),
            first = 1
        )
    }
}

/// Writes every frame to its own numbered file (`pattern`), each atomically, and
/// the `\animategraphics` snippet beside them; calls `wrote` with each path. On
/// failure the files this call wrote are removed again, so a half sequence is
/// never left behind.
pub fn write_frame_files(
    pattern: &FramePattern,
    frames: Frames<'_>,
    metadata: &Metadata,
    mut wrote: impl FnMut(&Path),
    output_limit: u64,
) -> Result<()> {
    pattern.check_count(frames.count)?;
    frames.animation.validate()?;
    let animation = frames.animation;
    let count = frames.count;
    let memory_limit = frames.memory_limit;
    let format = pattern.format;
    let mut written: Vec<PathBuf> = Vec::new();
    let result = frames
        .for_each_encoded(
            |_, scene| {
                let mut bytes = Vec::new();
                write_scene_to(&mut bytes, format, scene, metadata, memory_limit)?;
                Ok(bytes)
            },
            |number, bytes| {
                let path = pattern.frame_path(number);
                write_atomic(&path, output_limit, |out| {
                    out.write_all(&bytes).map_err(Error::write_failed)
                })?;
                written.push(path);
                Ok(())
            },
        )
        .and_then(|()| {
            if written.len() != count {
                return Err(Error::invalid(format!(
                    "the animation promised {count} frames but drew {}",
                    written.len()
                )));
            }
            let tex = pattern.tex_path();
            write_atomic(&tex, output_limit, |out| {
                out.write_all(pattern.animate_snippet(count, &animation).as_bytes())
                    .map_err(Error::write_failed)
            })?;
            written.push(tex);
            Ok(())
        });
    match result {
        Ok(()) => {
            for path in &written {
                wrote(path);
            }
            Ok(())
        }
        Err(e) => {
            for path in &written {
                let _ = std::fs::remove_file(path);
            }
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_patterns_name_files_and_their_animate_line_agrees() {
        let p = FramePattern::parse(Path::new("out/sweep-%03d.pdf"))
            .unwrap()
            .unwrap();
        assert_eq!(p.frame_path(1), PathBuf::from("out/sweep-001.pdf"));
        assert_eq!(p.frame_path(12), PathBuf::from("out/sweep-012.pdf"));
        assert_eq!(p.tex_path(), PathBuf::from("out/sweep.tex"));
        let tex = p.animate_snippet(12, &Animation::default());
        assert!(
            tex.contains("\\animategraphics[controls,loop]{10}{out/sweep-}{001}{012}"),
            "{tex}"
        );
        let bare = FramePattern::parse(Path::new("f/%d.png")).unwrap().unwrap();
        assert_eq!(bare.frame_path(7), PathBuf::from("f/7.png"));
        assert_eq!(bare.tex_path(), PathBuf::from("f/frames.tex"));
        assert!(p.check_count(999).is_ok() && p.check_count(1000).is_err());
        assert_eq!(FramePattern::parse(Path::new("a.png")).unwrap(), None);
        // Only the file name carries the pattern: a folder may have '%' in its name.
        let folder = FramePattern::parse(Path::new("f%/g-%d.png"))
            .unwrap()
            .unwrap();
        assert_eq!(folder.frame_path(2), PathBuf::from("f%/g-2.png"));
        for bad in ["f-%03d-x.png", "f-%3d.png", "f-%03d.gif", "%x.png"] {
            assert!(FramePattern::parse(Path::new(bad)).is_err(), "{bad}");
        }
    }
}
