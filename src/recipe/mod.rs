//! Figure recipes: a figure set as a TOML file in `templates/`.
//!
//! ```toml
//! title = "Recursive patterns in the chocolate game"
//! name = "okubo2026"                # output folder: output/okubo2026/
//! source = "Okubo, Kashiwagi, Niida, \"Recursive Patterns in the Chocolate Game\""
//! columns = 2                       # the paper's layout: wide figures become figure* in figures.tex
//! titles = true                     # keep the figures' generated titles (default: the caption is the caption)
//!
//! [defaults]                        # applied to every figure whose model takes the key
//! formats = ["png", "pdf"]
//!
//! [[figure]]
//! name = "figure-1"
//! model = "square"                  # a nimscape subcommand: square, automaton, octahedron section, ...
//! caption = "The scaled pattern (1/m)·R(m,m) for m = 1..24."
//! m = "1..24"                       # every other key is that subcommand's flag, without the dashes
//! width = 1200
//! quick = { m = "1..6" }            # overrides for `render --quick` (reduced-size runs, tests)
//!
//! [[survey]]                        # a conjecture survey's report: `nimscape survey`'s flags
//! name = "cap-square"               # files: cap-square.md (figures beside it), .json, .csv
//! formats = ["md", "json"]          # default ["md"]
//! cap = "floor((x+z)**2/k)"          # or game = "triangular", or game = "../games/x.toml"
//! param = "k=1..64"
//! box = 64
//! quick = { param = "k=1..4" }
//!
//! [[prove]]                         # a claim proved for every position: `nimscape prove`'s flags
//! name = "triangular-k3"            # the certificate's folder: okubo2026/triangular-k3/
//! game = "triangular"               # or cap = "...", or game = "square" with theorem = "..."
//! param = "k=3"
//! claim = "x^y^z == 0"              # or grundy = "x^y^z"; where = "..." for a region
//! ```
//!
//! The one idea: a figure's parameters *are* its subcommand's flags, so a
//! recipe is checked by the same command definition as the command line, and
//! every figure in a gallery comes with the exact command that redraws it.
//! This module parses TOML into [`Recipe`]s, keeping the line of every key so
//! errors can name it; [`render`] plans, checks and draws them, for any front end.

pub mod builtin;
mod file;
mod gallery;
mod plan;
mod run;

pub use file::{
    collect, same_key, Columns, FigureEntry, Param, ParamValue, ProveEntry, Recipe, SurveyEntry,
};
pub use run::{render, Isolate, Progress, RenderOptions, RenderReport};
