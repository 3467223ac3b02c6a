//! Parsers and option groups shared by subcommands, one idea per file: lists
//! of numbers, byte sizes, lengths, captions, the print group, the board and
//! chart groups, animation, palettes, output formats, and the "did you mean"
//! of a mistyped name. Subcommands name them all as `args::…`.

mod animation;
mod board;
mod bytes;
mod captions;
mod chart;
mod lengths;
mod lists;
mod output;
mod palette;
mod print;
mod shown;
mod suggest;

pub use crate::error::excerpt;
pub use animation::{AnimationArgs, FrameScale};
pub use board::BoardStyleArgs;
pub use bytes::{parse_bytes, MAX_BYTES};
pub use captions::{parse_caption, parse_caption_size};
pub use chart::ChartLabelArgs;
pub use lengths::{length_units, parse_size, parse_spacing, spacing};
pub use lists::{parse_list, parse_m_list, parse_side, required_m, ValueList};
pub use output::{parse_format, CompressionArg};
pub use palette::PaletteArg;
pub use print::PrintArgs;
pub use shown::{hex, joined};
pub use suggest::suggestion;
