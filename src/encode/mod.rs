//! Encoders: turn scenes and models into the bytes of image and data files.
pub mod gif;
