//! `nimscape octahedron`: sections of the Sierpinski octahedron, its 3D view,
//! and animated sweeps of the section level.
//!
//! One file per subcommand (`section`, `view`, `sweep`); the arguments and
//! checks they share (scale, section style, camera, colours, 0..1 values) are
//! here.

mod common;
mod section;
mod sweep;
mod view;

use self::section::SectionArgs;
use self::sweep::SweepArgs;
use self::view::ViewArgs;
use crate::library::figure::Figure;
use crate::Result;
use clap::{Args, Subcommand};

/// Sections of the Sierpinski octahedron S_n, its 3D view, and sweeps of the level.
#[derive(Debug, Args)]
pub struct OctahedronArgs {
    #[command(subcommand)]
    command: OctahedronCommand,
}

impl OctahedronArgs {
    /// Takes `-o` out of the parameters: where a figure goes is the front end's.
    pub fn take_output(&mut self) -> Option<std::path::PathBuf> {
        match &mut self.command {
            OctahedronCommand::Section(a) => a.output.take(),
            OctahedronCommand::View(a) => a.output.take(),
            OctahedronCommand::Sweep(a) => a.output.take(),
        }
    }
}

#[derive(Debug, Subcommand)]
enum OctahedronCommand {
    /// The section H(n,m) or H_r of S_n: alone, in a row of levels, beside R(m,m), or as data.
    Section(SectionArgs),
    /// A shaded 3D picture of S_n, optionally with the section plane, or operation T.
    View(ViewArgs),
    /// The section as the level r sweeps from --from to --to: a GIF, an APNG or frames.
    Sweep(SweepArgs),
}

/// The figure the subcommand's flags describe, validated.
pub(crate) fn plan(args: OctahedronArgs, memory_limit: u64) -> Result<Box<dyn Figure + Send>> {
    Ok(match args.command {
        OctahedronCommand::Section(a) => Box::new(section::plan(a, memory_limit)?),
        OctahedronCommand::View(a) => Box::new(view::plan(a, memory_limit)?),
        OctahedronCommand::Sweep(a) => Box::new(sweep::plan(a, memory_limit)?),
    })
}
