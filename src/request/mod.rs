//! The request layer: one typed way to ask for a figure, under every front end.
//!
//! The figure subcommands' clap definitions live here and are the one source of
//! parameter names, types, defaults and help. A front end reaches a validated
//! figure in one of two ways:
//!
//! * the command line parses its words with [`FigureCommand`] (flattened into
//!   its own subcommands) and calls `plan_command`;
//! * recipes, the HTTP server and the Python module hand `name = value` pairs to
//!   [`plan_pairs`], which looks every name up in the same definitions.
//!
//! Both end in [`Planned`]: the figure validated once, and its provenance (the
//! canonical `nimscape ...` command line that draws the same bytes). Errors are
//! [`crate::Error`] values whose parameter is data ([`crate::Error::parameter`]);
//! each front end shows parameter names its own way ([`Naming`]). Options that say
//! how or where rather than what (`-o`, `--threads`, `--max-memory`, `--quiet`,
//! `--format`) belong to the command line and are unknown parameters here.

mod args;
pub mod automaton;
pub mod count;
pub mod data;
mod folders;
pub mod grundy;
pub mod octahedron;
pub mod prove;
pub mod prove_square;
pub mod provenance;
pub mod square;
pub mod survey;

pub use crate::library::encode::animation::FramePattern;
pub(crate) use crate::library::encode::Metadata;
#[cfg(feature = "serve")]
pub(crate) use crate::library::encode::DEFAULT_OUTPUT_LIMIT;
pub use crate::library::encode::{write_atomic, Format};
use crate::library::figure::Figure;
use crate::{Control, Error, Result};
/// The command line's value parsers the figure subcommands share (sizes in
/// bytes, lengths, lists of `m`, formats).
pub use args::{parse_bytes, parse_format, parse_m_list, parse_size, MAX_BYTES};
use clap::{ArgMatches, FromArgMatches, Subcommand};
pub use folders::NewFolders;
use std::sync::LazyLock;

/// The figure subcommands, as the command line flattens them into its own.
#[derive(Debug, Subcommand)]
pub enum FigureCommand {
    /// P-position patterns of the chocolate game C(m,n): one board, a contact sheet, or a raw 1-bit board.
    Square(square::SquareArgs),
    /// g(m), the number of P-positions of C(m,m): a table, a chart, and checks of its identities.
    Count(count::CountArgs),
    /// The second-order automaton (2D Rule 60): frames, sheets, GIFs, residues mod p, exact values, --check.
    Automaton(automaton::AutomatonArgs),
    /// Grundy values of the papers' games: data, mod-3 tables, P-position plots, nim-sum analyses.
    Grundy(grundy::GrundyArgs),
    /// Sections of the Sierpinski octahedron S_n, its 3D view, and sweeps of the level (GIF, APNG, frames).
    Octahedron(octahedron::OctahedronArgs),
}

impl FigureCommand {
    /// Takes `-o` out of the parameters: where a figure goes is the front end's
    /// business, never part of the figure (nor of its provenance).
    pub fn take_output(&mut self) -> Option<std::path::PathBuf> {
        match self {
            FigureCommand::Square(a) => a.output.take(),
            FigureCommand::Count(a) => a.output.take(),
            FigureCommand::Automaton(a) => a.output.take(),
            FigureCommand::Grundy(a) => a.output.take(),
            FigureCommand::Octahedron(a) => a.take_output(),
        }
    }
}

/// The limits one request runs under: values passed in, never process-wide state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Refuse work whose estimated memory exceeds this many bytes.
    pub memory_limit: u64,
    /// Refuse outputs larger than this many bytes.
    pub output_limit: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            memory_limit: crate::error::DEFAULT_MEMORY_LIMIT,
            output_limit: crate::library::encode::DEFAULT_OUTPUT_LIMIT,
        }
    }
}

/// A figure validated once, with the command line that draws it.
pub struct Planned {
    figure: Box<dyn Figure + Send>,
    command_line: String,
    arguments: Vec<String>,
}

impl Planned {
    /// A validated figure that `command_line` draws (no words to re-run it with).
    pub(crate) fn new(figure: Box<dyn Figure + Send>, command_line: String) -> Planned {
        Planned {
            figure,
            command_line,
            arguments: Vec::new(),
        }
    }

    /// The validated figure.
    #[cfg(not(feature = "internals"))]
    pub(crate) fn figure(&self) -> &dyn Figure {
        self.figure.as_ref()
    }

    /// The validated figure (the `internals` door: this package's tests check
    /// its scene).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn figure(&self) -> &dyn Figure {
        self.figure.as_ref()
    }

    /// The formats the figure can be written as, the usual one first (PDF and
    /// TikZ wherever SVG is).
    pub fn formats(&self) -> Vec<Format> {
        Format::with_vectors(&self.figure.formats())
    }

    /// The size of the output in `format` where it is known before any work (data,
    /// long animations); `None` where outputs are small.
    pub fn output_bytes(&self, format: Format) -> Option<u64> {
        self.figure.output_bytes(format)
    }

    /// The file name it gets without `-o`, e.g. `square-11` (no extension).
    pub fn default_stem(&self) -> String {
        self.figure.default_stem()
    }

    /// Checks everything that can be checked before any work: parameters, and
    /// whether `format` can show this figure at all.
    pub fn check(&self, format: Format) -> Result<()> {
        self.figure.check(format)
    }

    /// The format of `path` among the figure's formats (PDF and TikZ wherever SVG
    /// is), with the figure's own choices named when it is not one.
    pub fn format_of(&self, path: &std::path::Path) -> Result<Format> {
        crate::library::figure::format_of(self.figure(), path)
    }

    /// The number of frames of an animated figure; still figures refuse.
    pub fn frame_count(&self) -> Result<usize> {
        Ok(self.figure.frames()?.count)
    }

    /// Which solver solves the figure's game and why no faster one applies, as
    /// `grundy --time` reports it; `None` for a figure of no one game.
    pub fn solver(&self, control: &Control) -> Result<Option<nimscape_model::games::SolverChoice>> {
        self.figure.solver(control)
    }

    /// A line to print after writing the figure, where the picture could read as
    /// wrong without it (a deep window that is one flat colour, correctly).
    pub fn note(&self, control: &Control) -> Option<String> {
        self.figure.note(control)
    }

    /// Checks the figure for `format`, then writes it to `path` atomically: nothing
    /// is left behind when any step fails; refused before any work when its known
    /// size is over `output_limit` or the free space.
    pub fn save(
        &self,
        format: Format,
        path: &std::path::Path,
        control: &Control,
        output_limit: u64,
    ) -> Result<()> {
        crate::library::figure::write_file(
            self.figure(),
            format,
            path,
            &self.metadata(),
            control,
            output_limit,
        )
    }

    /// Writes an animated figure as the numbered frame files of `pattern` plus its
    /// LaTeX `\animategraphics` snippet; `wrote` hears of every file written.
    pub fn save_frames(
        &self,
        pattern: &FramePattern,
        wrote: impl FnMut(&std::path::Path),
        control: &Control,
        output_limit: u64,
    ) -> Result<()> {
        crate::library::figure::write_frame_sequence(
            self.figure(),
            pattern,
            &self.metadata(),
            wrote,
            control,
            output_limit,
        )
    }

    /// The still of an animated figure as a PNG at `path` (the frame a LaTeX
    /// document shows): its `poster` frame, else the most detailed one.
    pub fn save_poster(
        &self,
        path: &std::path::Path,
        control: &Control,
        output_limit: u64,
    ) -> Result<()> {
        crate::library::figure::write_last_frame(
            self.figure(),
            path,
            &self.metadata(),
            control,
            output_limit,
        )
    }

    /// Writes the figure in `format` to `out` under `control`, after checking it
    /// (the Python module catches `.npy` data this way, straight into an array).
    pub fn write_to(
        &self,
        format: Format,
        out: &mut dyn std::io::Write,
        control: &Control,
    ) -> Result<()> {
        crate::library::figure::to_writer(self.figure(), format, out, &self.metadata(), control)
    }

    /// Refuses, before any work, a stream whose known size is over `output_limit`.
    pub fn check_stream_size(&self, format: Format, output_limit: u64) -> Result<()> {
        crate::library::figure::check_stream_size(self.figure(), format, output_limit)
    }

    /// `nimscape <subcommand> <flags>`: rebuilt from the parsed parameters, so the
    /// same figure asked for by any front end records the same words.
    pub fn command_line(&self) -> &str {
        &self.command_line
    }

    /// The words after `nimscape` that draw the same figure in another process
    /// (values as `--flag=value`, positionals after `--`); add `-o FILE` in front of
    /// a `--`.
    pub fn arguments(&self) -> &[String] {
        &self.arguments
    }

    /// The provenance written into image files.
    pub(crate) fn metadata(&self) -> Metadata {
        Metadata::with_parameters(self.command_line.clone())
    }

    /// The format a file with `extension` would have, among the figure's formats.
    pub fn format(&self, extension: &str) -> Result<Format> {
        let probe = std::path::PathBuf::from(format!("figure.{extension}"));
        crate::library::figure::format_of(self.figure(), &probe)
    }

    /// The figure's bytes in `format`, in memory; the work stops with
    /// [`Error::Cancelled`] soon after `control` is cancelled.
    pub fn render(&self, format: Format, control: &Control) -> Result<Vec<u8>> {
        crate::library::figure::to_bytes(self.figure(), format, &self.metadata(), control)
    }

    /// Writes the figure in `format` to the stream `out` (called `stream` in
    /// errors) as it is made, never whole in memory: refused before any work when
    /// its known size is over `output_limit`, stopped once it grows past it.
    pub fn write_stream(
        &self,
        format: Format,
        out: &mut dyn std::io::Write,
        stream: &std::path::Path,
        control: &Control,
        output_limit: u64,
    ) -> Result<()> {
        crate::library::figure::write_stream_to(
            self.figure(),
            format,
            out,
            stream,
            &self.metadata(),
            control,
            output_limit,
        )
    }
}

// A front end that reads a plan's own reports first (`automaton --check`,
// `count`'s table, `grundy --compare-nim-sum`) then writes the figure: the plan
// becomes a `Planned`, its model computed once for both.

impl crate::library::figure::automaton::AutomatonPlan {
    /// The figure to write, after its `--check` report; `command_line` is what
    /// its files record.
    pub fn into_planned(self, command_line: String) -> Planned {
        Planned::new(Box::new(self), command_line)
    }
}

impl crate::library::figure::count::CountPlan {
    /// The figure to write, once the table's rows have been read for a report;
    /// `command_line` is what its files record.
    pub fn into_planned(self, command_line: String) -> Planned {
        Planned::new(Box::new(self), command_line)
    }
}

impl grundy::GrundyPlan {
    /// The figure to write, once the reports have read its solution (solved
    /// once); `command_line` is what its files record.
    pub fn into_planned(self, command_line: String) -> Planned {
        Planned::new(Box::new(self), command_line)
    }
}

/// One value of a `name = value` pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A value as typed (numbers too: `"11"`, `"1..24"`, `"85mm"`).
    Text(String),
    /// A switch's state (a TOML boolean, say). A switch also takes `Text` of
    /// `true`/`false`, `1`/`0`, `on`/`off` or the empty string (on).
    Switch(bool),
}

/// How a front end shows a parameter's name in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// `--cell`, as the command line writes it.
    Flags,
    /// `cell`, as a recipe key, a query parameter or a Python keyword (dashes kept;
    /// Python shows underscores, see [`Naming::Keywords`]).
    Keys,
    /// `cell`, `p_color`: Python's keyword arguments.
    Keywords,
}

impl Naming {
    /// `name` (a long flag name without dashes) as this front end shows it.
    pub fn show(self, name: &str) -> String {
        match self {
            Naming::Flags => format!("--{name}"),
            Naming::Keys => name.to_string(),
            Naming::Keywords => name.replace('-', "_"),
        }
    }

    /// `err`'s one-line message with every parameter name shown this way.
    pub fn message(self, err: &Error) -> String {
        err.message_with(|name| self.show(name))
    }
}

/// LaTeX's escapes of plain text, for the recipes' `figures.tex`.
pub(crate) use crate::library::encode::latex::{tex_comment, tex_escape};

/// A length on paper (`85mm`, `3.5in`, `240pt`) in millimetres; `None` for a
/// length in pixels or text that is no length.
pub(crate) fn millimetres(text: &str) -> Option<f64> {
    let length = parse_size(text).ok()?;
    length
        .is_physical()
        .then(|| length.points(crate::library::scene::units::Print::default()) / 72.0 * 25.4)
}

/// The explorer's raw tile bytes packed with zlib's default level, as its page
/// embeds them: the server's one need of an encoder, met here.
#[cfg(feature = "serve")]
pub(crate) fn pack_tile(raw: &[u8]) -> std::io::Result<Vec<u8>> {
    crate::library::encode::png::zlib(raw)
}

/// The figure subcommands' definition, built once per process: building it
/// (clap's derive) costs more than parsing.
fn definition() -> &'static clap::Command {
    static DEFINITION: LazyLock<clap::Command> =
        LazyLock::new(|| FigureCommand::augment_subcommands(clap::Command::new("nimscape")));
    &DEFINITION
}

/// Options of the figure subcommands that are not figure parameters: where the
/// figure goes is the front end's business.
const NOT_PARAMETERS: [&str; 3] = ["output", "help", "version"];

/// The figure models by name: `square`, `octahedron section`, ...
pub fn models() -> Vec<String> {
    let mut names = Vec::new();
    for sub in definition().get_subcommands() {
        if sub.has_subcommands() {
            for inner in sub.get_subcommands() {
                names.push(format!("{} {}", sub.get_name(), inner.get_name()));
            }
        } else {
            names.push(sub.get_name().to_string());
        }
    }
    names
}

/// The definition of the model `command` (`["octahedron", "section"]`).
fn model_definition(command: &[&str]) -> Result<&'static clap::Command> {
    let unknown = || {
        Error::invalid_request(format!(
            "unknown model '{}'; allowed: {}",
            command.join(" "),
            models().join(", ")
        ))
    };
    let mut found = definition();
    for word in command {
        found = found.find_subcommand(word).ok_or_else(unknown)?;
    }
    if command.is_empty() || found.has_subcommands() {
        return Err(Error::invalid_request(format!(
            "model '{}' needs one more word; allowed: {}",
            command.join(" "),
            models().join(", ")
        )));
    }
    Ok(found)
}

/// The parameter names of model `command`, as a user writes them (long flag names,
/// positionals by their id), hidden ones left out.
pub fn parameters(command: &[&str]) -> Result<Vec<String>> {
    Ok(parameter_help(command)?
        .into_iter()
        .map(|(name, _)| name)
        .collect())
}

/// The parameters of model `command` as [`parameters`] names them, each with its
/// one-line help (what `--help` says of it), for front ends that document
/// themselves (Python's docstrings).
pub fn parameter_help(command: &[&str]) -> Result<Vec<(String, String)>> {
    Ok(parameter_help_of(model_definition(command)?))
}

/// [`parameter_help`] of a command's definition.
pub(crate) fn parameter_help_of(found: &clap::Command) -> Vec<(String, String)> {
    let mut seen = std::collections::HashSet::new();
    found
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !NOT_PARAMETERS.contains(&a.get_id().as_str()))
        .filter_map(|a| {
            let name = if a.is_positional() {
                a.get_id().to_string()
            } else {
                a.get_long()?.to_string()
            };
            let help = a.get_help().map(ToString::to_string).unwrap_or_default();
            Some((name, help))
        })
        // `grundy`'s `game` is a positional and a flag (`--game FILE`): one name.
        .filter(|(name, _)| seen.insert(name.clone()))
        .collect()
}

/// Whether `name` names the parameter `arg` (by long name, alias or positional
/// id); `_` and `-` are the same.
fn names_arg(arg: &clap::Arg, name: &str) -> bool {
    let same = |a: &str| a.replace('_', "-") == name.replace('_', "-");
    arg.get_long().is_some_and(same)
        || arg
            .get_all_aliases()
            .is_some_and(|aliases| aliases.into_iter().any(same))
        || (arg.is_positional() && same(arg.get_id().as_str()))
}

/// Whether model `command` takes a parameter called `name`.
pub(crate) fn takes(command: &[&str], name: &str) -> bool {
    model_definition(command).is_ok_and(|found| {
        found
            .get_arguments()
            .any(|a| names_arg(a, name) && !NOT_PARAMETERS.contains(&a.get_id().as_str()))
    })
}

/// The figure model `command` with parameters `pairs`, validated: the one path
/// from `name = value` pairs to a plan, for recipes, the server and Python.
/// A name is a long flag name (`_` for `-` allowed) or a positional's id (`game`);
/// a value is never read as an option.
pub fn plan_pairs(command: &[&str], pairs: &[(String, Value)], budget: &Budget) -> Result<Planned> {
    plan_pairs_with(command, pairs, budget, grundy::GameFiles::Disk)
}

/// [`plan_pairs`] with game files read from `files` (a game the explorer holds
/// in memory, say).
pub(crate) fn plan_pairs_with(
    command: &[&str],
    pairs: &[(String, Value)],
    budget: &Budget,
    files: grundy::GameFiles<'_>,
) -> Result<Planned> {
    let matches = parse_pairs(command, pairs)?;
    let figure = FigureCommand::from_arg_matches(&matches).map_err(|e| from_clap(&e))?;
    plan_command_with(figure, &matches, budget, files)
}

/// The bytes of model `command` drawn with text `pairs` as `extension` (`png`,
/// `csv`, ...): the same bytes `nimscape <command> --<name> <value> ... -o
/// figure.<extension>` writes.
pub fn render_pairs(
    command: &[&str],
    pairs: &[(String, String)],
    extension: &str,
    budget: &Budget,
    control: &Control,
) -> Result<Vec<u8>> {
    render_pairs_with(
        command,
        pairs,
        extension,
        budget,
        control,
        grundy::GameFiles::Disk,
    )
}

/// [`render_pairs`] with game files read from `files`.
pub(crate) fn render_pairs_with(
    command: &[&str],
    pairs: &[(String, String)],
    extension: &str,
    budget: &Budget,
    control: &Control,
    files: grundy::GameFiles<'_>,
) -> Result<Vec<u8>> {
    let pairs: Vec<(String, Value)> = pairs
        .iter()
        .map(|(name, value)| (name.clone(), Value::Text(value.clone())))
        .collect();
    let planned = plan_pairs_with(command, &pairs, budget, files)?;
    let format = planned.format(extension)?;
    planned.render(format, control)
}

/// `pairs` parsed by the model's own definition, as the command line would parse
/// `--name=value` words.
pub(crate) fn parse_pairs(command: &[&str], pairs: &[(String, Value)]) -> Result<ArgMatches> {
    parse_pairs_in(definition(), model_definition(command)?, command, pairs)
}

/// `parse_pairs` under any root definition (`root`, whose subcommand at the
/// words `command` is `found`): the survey has a definition of its own.
pub(crate) fn parse_pairs_in(
    root: &clap::Command,
    found: &clap::Command,
    command: &[&str],
    pairs: &[(String, Value)],
) -> Result<ArgMatches> {
    let mut words: Vec<String> = command.iter().map(|w| w.to_string()).collect();
    let mut positional = Vec::new();
    for (name, value) in pairs {
        let arg = found
            .get_arguments()
            .find(|a| names_arg(a, name) && !NOT_PARAMETERS.contains(&a.get_id().as_str()))
            .ok_or_else(|| unknown_parameter(found, command, name))?;
        let long = arg.get_long().unwrap_or(arg.get_id().as_str()).to_string();
        let switch = matches!(arg.get_action(), clap::ArgAction::SetTrue);
        match (value, switch) {
            (Value::Switch(true), true) => words.push(format!("--{long}")),
            (Value::Switch(false), true) => {}
            (Value::Text(text), true) => match text.as_str() {
                "" | "true" | "1" | "on" => words.push(format!("--{long}")),
                "false" | "0" | "off" => {}
                other => {
                    return Err(Error::invalid_parameter(
                        &long,
                        format!("`{long}` is a switch: give true or false, not '{other}'"),
                    ))
                }
            },
            (Value::Switch(_), false) => {
                return Err(Error::invalid_parameter(
                    &long,
                    format!("`{long}` takes a value, not true or false"),
                ))
            }
            (Value::Text(text), false) if arg.is_positional() => positional.push(text.clone()),
            // `--name=value` keeps a value that starts with '-' a value.
            (Value::Text(text), false) => words.push(format!("--{long}={text}")),
        }
    }
    // After `--` a positional is a value even when it starts with '-'.
    if !positional.is_empty() {
        words.push("--".into());
        words.extend(positional);
    }
    let argv = std::iter::once("nimscape".to_string()).chain(words);
    root.clone()
        .try_get_matches_from(argv)
        .map_err(|e| from_clap(&e))
}

fn unknown_parameter(found: &clap::Command, command: &[&str], name: &str) -> Error {
    /// Options of the command line that say how or where to draw, not what.
    const HOW_OR_WHERE: [&str; 8] = [
        "max-memory",
        "max-output",
        "threads",
        "quiet",
        "format",
        "output",
        "o",
        "q",
    ];
    let allowed = parameter_help_of(found)
        .into_iter()
        .map(|(name, _)| name)
        .collect::<Vec<_>>();
    let wanted = name.replace('_', "-");
    let (why, suggested) = if HOW_OR_WHERE.contains(&wanted.as_str()) {
        (" (it says how or where to draw, not what)", String::new())
    } else {
        let suggested =
            args::suggestion(&wanted, &allowed).map(|s| format!("; did you mean '`{s}`'?"));
        ("", suggested.unwrap_or_default())
    };
    // The allowed names are marked as parameters: each front end shows them its
    // own way (`p-color` as a key, `p_color` as a Python keyword).
    let marked: Vec<String> = allowed.iter().map(|a| format!("`{a}`")).collect();
    Error::invalid_parameter(
        name,
        format!(
            "'{}' is not a parameter of model '{}'{why}; allowed: {}{suggested}",
            args::excerpt(name),
            command.join(" "),
            marked.join(", ")
        ),
    )
}

/// The canonical command line of parsed `matches` (of the command line's root or
/// of `parse_pairs`): see [`provenance`].
pub fn command_line(matches: &ArgMatches) -> String {
    provenance::command_line(definition(), matches)
}

/// Plans a parsed figure command; `matches` are those it was parsed from (for
/// its provenance), at the root of the command line or of `parse_pairs`.
pub(crate) fn plan_command(
    command: FigureCommand,
    matches: &ArgMatches,
    budget: &Budget,
) -> Result<Planned> {
    plan_command_with(command, matches, budget, grundy::GameFiles::Disk)
}

/// `plan_command` with game files read from `files`.
pub(crate) fn plan_command_with(
    command: FigureCommand,
    matches: &ArgMatches,
    budget: &Budget,
    files: grundy::GameFiles<'_>,
) -> Result<Planned> {
    refuse_control_characters(matches)?;
    Ok(Planned {
        figure: plan_figure(command, budget.memory_limit, files)?,
        command_line: command_line(matches),
        arguments: provenance::arguments(definition(), matches),
    })
}

/// Plans a figure command a front end parsed (and checked with
/// [`refuse_control_characters`]) itself; `command_line` is its canonical
/// [`command_line`], recorded in the figure's files.
pub fn plan_parsed(
    command: FigureCommand,
    command_line: String,
    budget: &Budget,
) -> Result<Planned> {
    let figure = plan_figure(command, budget.memory_limit, grundy::GameFiles::Disk)?;
    Ok(Planned::new(figure, command_line))
}

/// The figure of one parsed command, validated.
fn plan_figure(
    command: FigureCommand,
    memory_limit: u64,
    files: grundy::GameFiles<'_>,
) -> Result<Box<dyn Figure + Send>> {
    Ok(match command {
        FigureCommand::Square(args) => square::plan(args, memory_limit)?,
        FigureCommand::Count(args) => Box::new(count::plan(args, memory_limit)?),
        FigureCommand::Automaton(args) => Box::new(automaton::plan(args, memory_limit)?),
        FigureCommand::Grundy(args) => grundy::plan_figure_with(&args, memory_limit, files)?,
        FigureCommand::Octahedron(args) => octahedron::plan(args, memory_limit)?,
    })
}

/// Refuses a value holding a control character (`--caption $'a\x01b'`): text is
/// drawn on one line, and no format could carry it alike (SVG would not be
/// well-formed XML, PDF refuses it). Checked for every parameter at once, so every
/// front end and every format refuses it the same way. `matches` are at the root of
/// the command line or of `parse_pairs`; other subcommands pass.
pub fn refuse_control_characters(matches: &ArgMatches) -> Result<()> {
    refuse_control_characters_under(definition(), matches)
}

pub(crate) fn refuse_control_characters_under(
    definition: &clap::Command,
    matches: &ArgMatches,
) -> Result<()> {
    for id in matches.ids() {
        if NOT_PARAMETERS.contains(&id.as_str()) {
            continue;
        }
        let Ok(Some(values)) = matches.try_get_raw(id.as_str()) else {
            continue;
        };
        for value in values {
            let text = value.to_string_lossy();
            if let Some(control) = text.chars().find(|c| c.is_control()) {
                let name = definition
                    .get_arguments()
                    .find(|a| a.get_id() == id)
                    .and_then(|a| a.get_long())
                    .unwrap_or(id.as_str());
                return Err(Error::invalid_parameter(
                    name,
                    format!(
                        "`{name}` holds a control character (U+{:04X}) in '{}'; \
                         write it as one line of plain text",
                        u32::from(control),
                        args::excerpt(&text.replace(|c: char| c.is_control(), "?"))
                    ),
                ));
            }
        }
    }
    match matches.subcommand() {
        Some((name, sub)) => match definition.find_subcommand(name) {
            Some(found) => refuse_control_characters_under(found, sub),
            None => Ok(()),
        },
        None => Ok(()),
    }
}

/// A clap parse error as the library's: a bad parameter named as data, with
/// clap's detail (the possible values, "did you mean") on the same line.
pub fn from_clap(err: &clap::Error) -> Error {
    from_clap_among(err, &[])
}

/// [`from_clap`] for an error of a command whose long flags (without dashes) are
/// `flags`: an unknown flag gets the nearest of them by edit distance
/// (`--palete`: `--palette`), not clap's guess by its own measure.
pub fn from_clap_among(err: &clap::Error, flags: &[String]) -> Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let strings = |kind: ContextKind| -> Vec<String> {
        match err.get(kind) {
            Some(ContextValue::Strings(values)) => values.clone(),
            Some(ContextValue::String(value)) => vec![value.clone()],
            _ => Vec::new(),
        }
    };
    // clap shows an argument as `--cell <PX>`, `--raw` or `[GAME]`: its name is the
    // long flag, or the positional's id.
    let name_of = |shown: &str| -> String {
        let shown = shown.trim();
        match shown.strip_prefix("--") {
            Some(rest) => rest
                .split([' ', '=', '<'])
                .next()
                .unwrap_or_default()
                .to_string(),
            None => shown
                .trim_matches(|c| c == '[' || c == ']' || c == '<' || c == '>' || c == '.')
                .to_ascii_lowercase()
                .replace('_', "-"),
        }
    };
    // A flag is marked as a parameter (each front end names it its way); a
    // positional (`<RECIPE>...`) has no flag to show, so it stays as clap wrote it.
    let marked = |shown: &str| {
        if shown.trim().starts_with("--") {
            format!("`{}`", name_of(shown))
        } else {
            shown.trim().to_string()
        }
    };
    let invalid = strings(ContextKind::InvalidArg);
    let first = invalid.first().map(|s| name_of(s));
    let mut message = match err.kind() {
        // A flag at the end of the line, its value missing (`square --m`).
        ErrorKind::InvalidValue
            if strings(ContextKind::InvalidValue).concat().is_empty()
                && std::error::Error::source(err).is_none() =>
        {
            let shown = invalid.first().cloned().unwrap_or_default();
            let arg = marked(&shown);
            let form = shown
                .split_once(' ')
                .map(|(_, form)| format!(": {arg} {form}"))
                .unwrap_or_default();
            format!("{arg} needs a value after it{form}")
        }
        ErrorKind::ValueValidation | ErrorKind::InvalidValue => {
            let value = strings(ContextKind::InvalidValue).join(" ");
            let arg = invalid.first().map(|a| marked(a)).unwrap_or_default();
            let mut line = format!("invalid value '{}' for {arg}", args::excerpt(&value));
            if let Some(source) = std::error::Error::source(err) {
                // A parser may quote the whole value back: cut it too.
                let source = match source.to_string().as_str() {
                    // Rust's own integer parsing, in words a reader can act on.
                    "invalid digit found in string" | "cannot parse integer from empty string" => {
                        "not a whole number; write digits, e.g. 3".to_string()
                    }
                    "number too large to fit in target type" => "too large a number".to_string(),
                    other => other.to_string(),
                };
                let cut: String = source.chars().take(240).collect();
                let ellipsis = if cut.len() < source.len() { "..." } else { "" };
                line.push_str(&format!(": {cut}{ellipsis}"));
            }
            line
        }
        ErrorKind::ArgumentConflict => {
            let arg = invalid.first().map(|a| marked(a)).unwrap_or_default();
            let prior: Vec<String> = strings(ContextKind::PriorArg)
                .iter()
                .map(|a| marked(a))
                .collect();
            if prior.is_empty() {
                format!("{arg} cannot be used with the other options given")
            } else {
                format!("{arg} cannot be used with {}", prior.join(", "))
            }
        }
        ErrorKind::MissingRequiredArgument => {
            let args: Vec<String> = invalid.iter().map(|a| marked(a)).collect();
            format!("{} required", {
                let list = args.join(", ");
                if args.len() == 1 {
                    format!("{list} is")
                } else {
                    format!("{list} are")
                }
            })
        }
        _ => first_line(err),
    };
    let values = strings(ContextKind::ValidValue);
    if !values.is_empty() {
        message.push_str(&format!("; possible values: {}", values.join(", ")));
    }
    // One suggestion, the nearest to what was typed (clap may list several,
    // its best last).
    let typed = |kind: ContextKind| strings(kind).first().cloned().unwrap_or_default();
    for (kind, wrong) in [
        (ContextKind::SuggestedArg, typed(ContextKind::InvalidArg)),
        (
            ContextKind::SuggestedValue,
            typed(ContextKind::InvalidValue),
        ),
        (
            ContextKind::SuggestedSubcommand,
            typed(ContextKind::InvalidSubcommand),
        ),
    ] {
        let mut candidates = strings(kind);
        let own_flags = kind == ContextKind::SuggestedArg
            && err.kind() == ErrorKind::UnknownArgument
            && !flags.is_empty()
            && wrong.starts_with("--");
        if own_flags {
            // Ours or none: clap's measure finds `--panel` near `--palete`.
            candidates = args::suggestion(&name_of(&wrong), flags)
                .map(|own| format!("--{own}"))
                .into_iter()
                .collect();
        }
        let wrong = wrong.split('=').next().unwrap_or_default();
        let best = candidates
            .iter()
            .rev()
            .min_by_key(|candidate| strsim::levenshtein(wrong, candidate));
        if let Some(best) = best {
            message.push_str(&format!("; did you mean '{best}'?"));
        }
    }
    match first {
        Some(name) if !name.is_empty() => Error::invalid_parameter(&name, message),
        _ => Error::invalid_request(message),
    }
}

/// clap's own first line, without its `error: ` prefix, cut to a sane length.
fn first_line(err: &clap::Error) -> String {
    let text = err.to_string();
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("invalid arguments")
        .trim_end()
        .trim_start_matches("error: ");
    const LONGEST: usize = 300;
    if first.chars().count() <= LONGEST {
        first.to_string()
    } else {
        format!("{}...", first.chars().take(LONGEST).collect::<String>())
    }
}

/// Where the cells of a Grundy figure are, for the explorer's hover readout:
/// `{"width":W,"height":H,"grids":[{"x","y","width","height","rows","cols"}]}`
/// in pixels of the scene the same flags draw (the PNG at its default size),
/// game files read from `files`. A table is one grid whose first row and column
/// are the headers.
#[cfg(feature = "serve")]
pub(crate) fn grundy_layout_with(
    pairs: &[(String, Value)],
    budget: &Budget,
    control: &Control,
    files: grundy::GameFiles<'_>,
) -> crate::Result<Vec<u8>> {
    let matches = parse_pairs(&["grundy"], pairs)?;
    let FigureCommand::Grundy(args) =
        FigureCommand::from_arg_matches(&matches).map_err(|e| from_clap(&e))?
    else {
        return Err(crate::Error::invalid_request(
            "a Grundy layout needs grundy parameters",
        ));
    };
    let plan = grundy::plan_with(&args, budget.memory_limit, files)?;
    let scene = plan.scene(plan.solution(control)?)?;
    let grids: Vec<serde_json::Value> = scene
        .items
        .iter()
        .filter_map(|item| match item {
            crate::library::scene::Item::Cells(layer) => Some(serde_json::json!({
                "x": layer.rect.x,
                "y": layer.rect.y,
                "width": layer.rect.width,
                "height": layer.rect.height,
                "rows": layer.rows,
                "cols": layer.cols,
            })),
            _ => None,
        })
        .collect();
    let layout =
        serde_json::json!({ "width": scene.width, "height": scene.height, "grids": grids });
    Ok(layout.to_string().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::figure::plan::counts;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// The parsers the figure layer calls on a parameter's text (the command
        /// line's own fuzzing reaches them only through whole commands): hostile
        /// text never panics.
        #[test]
        fn the_figure_layers_value_parsers_never_panic(text in prop_oneof![
            "[0-9,.=x -]{0,40}",
            "([0-9]{1,30}|\\.\\.|\\.\\.=|,|=|-|e|E|[xyzXYZ]|#|[0-9a-fA-F]{1,8}|NaN|inf| ){0,16}",
            any::<String>(),
            "[\\x00-\\x1f\\u{80}-\\u{10ffff}0-9.,]{0,30}",
        ]) {
            let _ = text.parse::<crate::library::figure::grundy::Slice>();
            let _ = crate::library::figure::automaton::Values::parse(&text);
            let _ = crate::library::scene::Color::parse(&text, "--color");
        }
    }

    fn text(pairs: &[(&str, &str)]) -> Vec<(String, Value)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), Value::Text(v.to_string())))
            .collect()
    }

    /// Every format a figure draws, from one plan: validation and the model (or
    /// scene, or solution) each happen once.
    #[test]
    fn a_figure_is_validated_once_and_its_model_computed_once_for_every_format() {
        /// A model, its parameters, and the formats written from one plan.
        type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a [Format]);
        let cases: &[Case] = &[
            (
                &["square"],
                &[("m", "1..6"), ("decompose", "true")],
                &[
                    Format::Png,
                    Format::Svg,
                    Format::Pdf,
                    Format::Csv,
                    Format::Json,
                ],
            ),
            (
                &["square"],
                &[("m", "12"), ("overlay", "nim-pass")],
                &[Format::Png, Format::Svg, Format::Pdf],
            ),
            (
                &["automaton"],
                &[("frames", "1..6"), ("modulus", "3")],
                &[
                    Format::Png,
                    Format::Svg,
                    Format::Pdf,
                    Format::Csv,
                    Format::Json,
                ],
            ),
            (
                &["octahedron", "view"],
                &[("n", "2")],
                &[Format::Png, Format::Svg, Format::Pdf],
            ),
            // A section's PNG is its per-pixel coverage, SVG and PDF its exact
            // polygons: two pictures by design, each drawn once.
            (
                &["octahedron", "section"],
                &[("n", "4"), ("level", "11")],
                &[Format::Svg, Format::Pdf],
            ),
            (
                &["grundy", "triangular"],
                &[("k", "3"), ("box", "12"), ("slice", "z=5")],
                &[
                    Format::Png,
                    Format::Svg,
                    Format::Pdf,
                    Format::Csv,
                    Format::Json,
                    Format::Npy,
                ],
            ),
        ];
        for (command, pairs, formats) in cases {
            let (validations, computations) = counts::during(|| {
                let planned = if command[0] == "grundy" {
                    let mut all = text(pairs);
                    all.push(("game".into(), Value::Text(command[1].into())));
                    plan_pairs(&command[..1], &all, &Budget::default()).unwrap()
                } else {
                    plan_pairs(command, &text(pairs), &Budget::default()).unwrap()
                };
                for &format in *formats {
                    let bytes = planned.render(format, &Control::default()).unwrap();
                    assert!(!bytes.is_empty(), "{command:?} {format:?}");
                }
            });
            assert_eq!(validations, 1, "{command:?}: validated {validations} times");
            assert_eq!(
                computations, 1,
                "{command:?}: computed {computations} times"
            );
        }
    }

    #[test]
    fn a_square_animation_counts_each_frame_by_its_cells_and_pixels() {
        // Boards 1..4096 spend nearly all their time on the last boards: counted one
        // a frame, a GIF promised 3 s at 36% and ran 27 s.
        let planned =
            plan_pairs(&["square"], &text(&[("m", "1..30")]), &Budget::default()).unwrap();
        let control = Control::new();
        let gif = planned.render(Format::Gif, &control).unwrap();
        assert!(gif.starts_with(b"GIF89a"));
        let (done, total) = control.progress();
        assert_eq!(done, total);
        // Σ m² plus 30 frames of equal pixels: the pixels are what is left.
        let cells: u64 = (1..=30u64).map(|m| m * m).sum();
        assert!(total > cells, "{total} units for {cells} cells");
        let pixels = total - cells;
        assert!(pixels > 0 && pixels.is_multiple_of(30), "{total} {cells}");
    }

    #[test]
    fn a_cancelled_control_stops_a_render_with_cancelled() {
        let planned = plan_pairs(
            &["grundy"],
            &text(&[("game", "triangular"), ("k", "3"), ("box", "300")]),
            &Budget::default(),
        )
        .unwrap();
        let control = Control::new();
        control.cancel();
        for format in [Format::Npy, Format::Csv, Format::Png] {
            assert!(matches!(
                planned.render(format, &control),
                Err(Error::Cancelled)
            ));
        }
    }
}
