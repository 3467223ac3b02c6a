//! Numbered frame files (`-o frames/m-%03d.png`) and the LaTeX
//! `\animategraphics` snippet that plays them.

use super::frames::{Animation, Frames};
use crate::library::encode::gif::Repeat;
use crate::library::encode::{write_atomic, write_scene_to, Format, Metadata};
use crate::{Error, Result};
use std::path::{Path, PathBuf};

/// The share of `\textheight` an `\animategraphics` snippet lets its frames
/// take at most: a beamer frame keeps the rest for its title and the controls.
pub const FRAME_HEIGHT: &str = "0.8";

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
                return Err(Error::invalid_request(format!(
                    "-o {}: a frame number (%03d) belongs in the file name, not a folder",
                    path.display()
                )));
            }
            return Ok(None);
        };
        let bad = || {
            Error::invalid_request(format!(
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
    /// separator, then the frames' format (`frames/m-%03d.pdf` gives
    /// `frames/m-pdf.tex`; `frames/%d.png` gives `frames/frames-png.tex`), so PDF
    /// and PNG frames of one prefix never share, and overwrite, one snippet.
    pub fn tex_path(&self) -> PathBuf {
        let trimmed = self.prefix.trim_end_matches(['-', '_', '.', ' ']);
        let ext = self.format.extension();
        let path = Path::new(trimmed);
        match path.file_name() {
            Some(_) if !trimmed.ends_with('/') => PathBuf::from(format!("{trimmed}-{ext}.tex")),
            _ => Path::new(trimmed).join(format!("frames-{ext}.tex")),
        }
    }

    /// Refuses a padding too narrow for `count` frames (the files would not sort,
    /// and animate reads the width from the first and last numbers).
    pub fn check_count(&self, count: usize) -> Result<()> {
        let needed = count.to_string().len();
        if self.digits != 0 && self.digits < needed {
            return Err(Error::invalid_request(format!(
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
    pub fn animate_snippet(&self, count: usize, animation: &Animation, poster: usize) -> String {
        let digits = self.digits;
        let fps = 100.0 / f64::from(animation.delay_cs.max(1));
        let fps = crate::library::scene::units::trim_number(fps);
        let looping = if animation.repeat == Repeat::Forever {
            ",loop"
        } else {
            ""
        };
        let prefix = &self.prefix;
        let ext = self.format.extension();
        let first = format!("{:0digits$}", 1);
        let last = format!("{count:0digits$}");
        // animate numbers frames from 0.
        let zero_based = poster.saturating_sub(1);
        // The guard: frames at their natural size when they fit, else scaled down
        // to the line's width and FRAME_HEIGHT of the text height (a beamer frame
        // keeps room for its title and the controls), never up.
        format!(
            "% Made by nimscape: {count} frames, {prefix}{first}.{ext} to {prefix}{last}.{ext}.\n\
             % Needs \\usepackage{{animate}} in the preamble (texlive-latex-extra); paths are\n\
             % relative to the folder pdflatex runs in. Frames are shown at their natural size,\n\
             % scaled down only to fit \\linewidth and {FRAME_HEIGHT}\\textheight (a beamer frame).\n\
             % Before it plays it shows frame {poster}, {prefix}{poster:0digits$}.{ext} (poster counts from 0).\n\
             \\begingroup\n\
             \\sbox0{{\\includegraphics{{{prefix}{first}.{ext}}}}}%\n\
             \\def\\nimscapeframes#1{{\\animategraphics[controls{looping},poster={zero_based}#1]{{{fps}}}{{{prefix}}}{{{first}}}{{{last}}}}}%\n\
             \\ifdim\\wd0>\\linewidth\\def\\nimscapefit{{1}}\\fi\n\
             \\ifdim\\dimexpr\\ht0+\\dp0\\relax>{FRAME_HEIGHT}\\textheight\\def\\nimscapefit{{1}}\\fi\n\
             \\ifdefined\\nimscapefit\n\
             \\nimscapeframes{{,width=\\linewidth,height={FRAME_HEIGHT}\\textheight,keepaspectratio}}%\n\
             \\else\n\
             \\nimscapeframes{{}}%\n\
             \\fi\n\
             \\endgroup\n"
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
    super::frames::check_poster(frames.animation.poster, frames.count)?;
    let mut pick = super::frames::PosterPick {
        asked: frames.animation.poster,
        best: None,
    };
    let animation = frames.animation;
    let count = frames.count;
    let memory_limit = frames.memory_limit;
    let format = pattern.format;
    let mut written: Vec<PathBuf> = Vec::new();
    let result = frames
        .for_each_encoded(
            |_, scene| {
                let mut bytes = Vec::new();
                // One frame is short; the frames come through the figure's controlled
                // iterator, which stops a cancelled run between frames.
                write_scene_to(
                    &mut bytes,
                    format,
                    scene,
                    metadata,
                    memory_limit,
                    &crate::Control::default(),
                )?;
                Ok((bytes, super::frames::frame_detail(scene)))
            },
            |number, (bytes, detail)| {
                pick.offer(number, || detail);
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
                return Err(Error::invalid_request(format!(
                    "the animation promised {count} frames but drew {}",
                    written.len()
                )));
            }
            let tex = pattern.tex_path();
            write_atomic(&tex, output_limit, |out| {
                let poster = pick.number(count)?;
                out.write_all(
                    pattern
                        .animate_snippet(count, &animation, poster)
                        .as_bytes(),
                )
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
        assert_eq!(p.tex_path(), PathBuf::from("out/sweep-pdf.tex"));
        let tex = p.animate_snippet(12, &Animation::default(), 12);
        assert!(
            tex.contains("\\animategraphics[controls,loop,poster=11#1]{10}{out/sweep-}{001}{012}"),
            "{tex}"
        );
        let bare = FramePattern::parse(Path::new("f/%d.png")).unwrap().unwrap();
        assert_eq!(bare.frame_path(7), PathBuf::from("f/7.png"));
        assert_eq!(bare.tex_path(), PathBuf::from("f/frames-png.tex"));
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
