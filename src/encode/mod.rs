//! Encoders: scenes and models to bytes on disk.
//!
//! Every file is written atomically: into a temporary file beside the target,
//! then renamed over it, so a failed or interrupted run never leaves half a
//! figure. Output is deterministic: the same scene gives the same bytes,
//! whatever the thread count.
//!
//! One file per format (`png`, `svg`, `pdf`, ...), and one per idea shared by
//! all of them: `format` (which extension is which), `atomic` (the write
//! itself), `budget` (the output limit and free space), `estimate` (memory
//! before drawing), `picture` (a scene in the format asked) and `csv`.

pub mod animation;
pub mod gif;
pub mod latex;
pub mod lzw;
pub mod metadata;
pub mod npy;
pub mod pdf;
pub mod png;
pub mod raster;
pub mod svg;
pub mod tikz;

mod atomic;
mod budget;
mod csv;
mod estimate;
mod format;
mod picture;

pub use atomic::{check_output_path, write_atomic};
pub use budget::{check_output_size, OutputBudget, DEFAULT_OUTPUT_LIMIT};
pub use csv::write_csv;
pub use estimate::{run_bytes, scene_peak_bytes};
pub use format::Format;
pub use metadata::Metadata;
pub use picture::write_scene_to;
