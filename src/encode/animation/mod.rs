//! Animations: sequences of scenes as GIF frames whose colours are exact.
//!
//! The one idea: a GIF holds one palette of at most 256 colours, so the palette
//! is decided **before** any frame is drawn, from the colours the scenes are
//! allowed to use ([`FramePalette`]). Cells and shapes use those colours
//! exactly; the only pixels that fall between colours are the anti-aliased
//! edges of text and strokes, and for those the palette holds a few shades of
//! each text colour over the background, and every such pixel takes the nearest
//! palette colour. No quantiser, no dithering, no colour drift between frames.
//!
//! Frames are rasterised, indexed and LZW-compressed several at a time on the
//! rayon pool, then written in order, so a long animation is fast, never sits
//! in memory whole, and its bytes do not depend on the thread count.
//!
//! In files: [`frames`] (how an animation plays and its stream of scenes),
//! [`palette`] (the GIF palette), [`gif_frames`] (GIF), [`apng`] (APNG) and
//! [`files`] (numbered frame files and their LaTeX snippet). Laying boards out
//! as frames is the scene layer's work (`scene::frames`), not an encoder's: an
//! encoder knows scenes, not boards.

pub mod apng;
pub mod files;
pub mod frames;
pub mod gif_frames;
pub mod palette;

pub use apng::write_apng;
pub use files::{write_frame_files, FramePattern};
pub use frames::{check_poster, frame_detail, Animation, Frames, PosterPick};
pub use gif_frames::{check_frame_size, check_opaque_background, write_frames, write_gif};
pub use palette::{nearest_indices, FramePalette};
