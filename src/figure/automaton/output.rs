//! Which formats show this figure, and writing it in one of them (the raw
//! mod-2 board streamed as a 1-bit PNG).

use super::{AutomatonMode, AutomatonPlan, Frame, Values};
use crate::automaton::rule60;
use crate::error::check_memory;
use crate::library::encode::{self, png as png_enc, Format, Metadata};
use crate::Control;
use crate::{Error, Result};
use std::io::Write;

impl AutomatonPlan {
    /// Refuses, before any work, a format that cannot show this figure.
    pub(super) fn check_format(&self, format: Format) -> Result<()> {
        if format == Format::Npy {
            if self.rule60 {
                return Err(Error::unsupported(
                    "`rule60` draws one diagram: write .png or .svg",
                ));
            }
            if self.values == Values::Exact {
                return Err(Error::unsupported(
                    "exact values outgrow 64 bits by frame 40: write them as .csv or .json, or a .npy of residues with `modulus` p",
                ));
            }
            return Ok(());
        }
        if self.values == Values::Exact && (format.is_image() || format.is_animation()) {
            return Err(Error::unsupported(
                "`modulus` exact writes data: use -o .csv or .json (images colour residues: use `modulus` p)",
            ));
        }
        match (format, &self.mode) {
            (Format::Csv | Format::Json | Format::Gif | Format::Apng, _) if self.rule60 => Err(
                Error::unsupported("`rule60` draws one diagram: write .png or .svg"),
            ),
            (
                Format::Csv | Format::Json | Format::Gif | Format::Apng,
                AutomatonMode::Raw { .. },
            ) => Err(Error::unsupported(
                "`raw` draws one image; write .png or .svg, or drop `raw`",
            )),
            _ => Ok(()),
        }
    }

    /// Writes the figure as `format`: `.png`/`.svg` (one frame, a sheet, Rule 60),
    /// `.gif` (an animation of the frames), `.csv`/`.json` (the non-zero cells of every frame).
    pub(super) fn write_format(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        match (format, &self.mode) {
            (Format::Png, AutomatonMode::Raw { compression, .. })
                if self.values == Values::Modulus(2) =>
            {
                self.write_raw_png(out, *compression, metadata, control)
            }
            (Format::Gif, AutomatonMode::Styled { .. }) => self.write_gif(out, control),
            (Format::Apng, _) => encode::animation::write_apng(
                out,
                crate::library::figure::controlled(self.board_frames()?, control),
                metadata,
            ),
            (Format::Npy, _) => self.write_npy(out, control),
            (Format::Csv | Format::Json, _) => {
                let csv = format == Format::Csv;
                let frames = self.data_frames(control)?;
                self.write_data(out, frames, csv)
                    .map_err(Error::write_failed)?;
                control.check()
            }
            _ => encode::write_scene_to(
                out,
                format,
                &*self.scene(control)?,
                metadata,
                self.memory_limit,
                control,
            ),
        }
    }

    fn write_raw_png(
        &self,
        out: &mut dyn Write,
        compression: png_enc::Compression,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        let n = self.last();
        // The grid (checked with the spec) and the PNG encoder's bands of rows.
        let grid_bytes = if self.rule60 {
            crate::automaton::rule60_bytes(n)
        } else {
            crate::pattern::p_grid_bytes(n as u64, n as u64)
        };
        check_memory(
            || format!("a raw {n} x {n} frame as a 1-bit .png"),
            grid_bytes.saturating_add(png_enc::bilevel_peak_bytes(n as u64, n as u64)),
            self.memory_limit,
            "ask for fewer `frames`",
        )?;
        let grid = if self.rule60 {
            rule60(n, self.memory_limit, control)?
        } else {
            let first = self.computed_frames(control)?.next();
            control.check()?;
            match first {
                Some(Frame::Parity(_, grid)) => grid,
                _ => {
                    return Err(Error::invalid_parameter(
                        "modulus",
                        "raw 1-bit output needs `modulus` 2",
                    ))
                }
            }
        };
        // Odd cells black.
        png_enc::write_bilevel_grid(out, &grid, compression, metadata, control)
    }
}
