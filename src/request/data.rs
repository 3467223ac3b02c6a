//! Data for front ends that keep arrays in memory (the Python module): a plan's
//! `.npy` output as a typed array, the P-set of a board one value per cell, and
//! the explorer's exact P-share tiles.
//!
//! The one idea: an array is the same data the command line writes as `.npy`,
//! caught on its way out instead of written to a file, so a front end gets the
//! CLI's values without parsing a file and without a second implementation. Each
//! array is checked against the memory limit before anything is allocated.

use super::{
    from_clap, grundy, parse_pairs, plan_command, plan_pairs, Budget, FigureCommand, Planned, Value,
};
use crate::error::check_memory;
use crate::library::encode::Format;
use crate::library::figure::grundy::GrundyPlan;
use crate::library::figure::Figure;
use crate::pattern::tiles::TilePlan;
use crate::pattern::{p_grid, p_grid_bytes};
use crate::{Control, Error, Result};
use clap::FromArgMatches;
use rayon::prelude::*;
use std::io::{self, Write};

/// The values of an [`Array`], in C order (last axis fastest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Values {
    /// One flag per cell (a P-set).
    Bool(Vec<bool>),
    /// `|u1` data.
    U8(Vec<u8>),
    /// `<u2` data (Grundy values, automaton residues).
    U16(Vec<u16>),
    /// `<u8` data (counts).
    U64(Vec<u64>),
}

impl Values {
    fn zeros(dtype: &str, count: usize) -> io::Result<Values> {
        Ok(match dtype {
            "|u1" | "<u1" => Values::U8(vec![0; count]),
            "<u2" => Values::U16(vec![0; count]),
            "<u8" => Values::U64(vec![0; count]),
            other => {
                return Err(io::Error::other(format!(
                    "a .npy array of {other} is not an array type this front end knows"
                )))
            }
        })
    }

    /// The values as bytes, in the machine's order.
    fn bytes_mut(&mut self) -> &mut [u8] {
        match self {
            // Flags are made in memory (see [`p_set`]), never read from `.npy` bytes.
            Values::Bool(_) => &mut [],
            Values::U8(v) => v,
            Values::U16(v) => bytemuck::cast_slice_mut(v.as_mut_slice()),
            Values::U64(v) => bytemuck::cast_slice_mut(v.as_mut_slice()),
        }
    }

    /// `.npy` data is little-endian: on a big-endian machine, swap in place.
    fn swap_from_le(&mut self) {
        match self {
            Values::U16(v) => v.iter_mut().for_each(|x| *x = u16::from_le(*x)),
            Values::U64(v) => v.iter_mut().for_each(|x| *x = u64::from_le(*x)),
            Values::Bool(_) | Values::U8(_) => {}
        }
    }
}

/// An n-dimensional array of exact values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Array {
    /// The length of each axis.
    pub shape: Vec<usize>,
    /// `shape.iter().product()` values.
    pub values: Values,
}

impl Planned {
    /// The figure's `.npy` data as an array in memory: the values `-o x.npy`
    /// writes, refused over the budget's memory limit before anything is
    /// allocated, and stopped with [`Error::Cancelled`] once `control` is.
    pub fn array(&self, budget: &Budget, control: &Control) -> Result<Array> {
        let figure = self.figure();
        if !figure.formats().contains(&Format::Npy) {
            return Err(Error::unsupported(
                "this figure has no array data (.npy): its data is .csv or .json",
            ));
        }
        figure.check(Format::Npy)?;
        if let Some(bytes) = figure.output_bytes(Format::Npy) {
            check_array(bytes, budget)?;
        }
        let mut sink = Sink {
            header: Vec::new(),
            array: None,
            filled: 0,
            limit: budget.memory_limit,
            too_large: None,
        };
        let written = crate::library::figure::to_writer(
            figure,
            Format::Npy,
            &mut sink,
            &self.metadata(),
            control,
        );
        if let Some(needed) = sink.too_large {
            // The figure gave no estimate: the header's shape refused it.
            check_array(needed, budget)?;
        }
        written?;
        let mut array = sink
            .array
            .ok_or_else(|| Error::unsupported("the figure wrote no array"))?;
        if cfg!(target_endian = "big") {
            array.values.swap_from_le();
        }
        Ok(array)
    }
}

fn check_array(bytes: u64, budget: &Budget) -> Result<()> {
    check_memory(
        || "this array".to_string(),
        bytes,
        budget.memory_limit,
        "ask for less (a smaller board or box, fewer frames)",
    )
}

/// A `Write` that reads a `.npy` header, allocates the array it announces and
/// copies the data that follows into it.
struct Sink {
    header: Vec<u8>,
    array: Option<Array>,
    filled: usize,
    limit: u64,
    /// The bytes of an announced array over `limit`, refused before allocating.
    too_large: Option<u64>,
}

impl Sink {
    /// The header, once all of it has arrived: dtype and shape.
    fn parse_header(&self) -> Option<io::Result<(String, Vec<usize>)>> {
        if self.header.len() < 10 {
            return None;
        }
        let length = usize::from(u16::from_le_bytes([self.header[8], self.header[9]]));
        if self.header.len() < 10 + length {
            return None;
        }
        let bad = || io::Error::other("not a .npy header");
        let parse = || -> io::Result<(String, Vec<usize>)> {
            if &self.header[..6] != b"\x93NUMPY" {
                return Err(bad());
            }
            let dict = std::str::from_utf8(&self.header[10..10 + length]).map_err(|_| bad())?;
            let after = |key: &str| dict.split_once(key).map(|(_, rest)| rest).ok_or_else(bad);
            let descr = after("'descr': '")?.split('\'').next().ok_or_else(bad)?;
            let shape = after("'shape': (")?.split(')').next().ok_or_else(bad)?;
            let shape = shape
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<usize>().map_err(|_| bad()))
                .collect::<io::Result<Vec<usize>>>()?;
            Ok((descr.to_string(), shape))
        };
        Some(parse())
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        if self.array.is_none() {
            // Byte by byte up to the end of the header: it is short.
            while self.array.is_none() && !rest.is_empty() {
                self.header.push(rest[0]);
                rest = &rest[1..];
                if let Some(parsed) = self.parse_header() {
                    let (dtype, shape) = parsed?;
                    let count = shape
                        .iter()
                        .try_fold(1usize, |n, &d| n.checked_mul(d))
                        .ok_or_else(|| io::Error::other("array too large"))?;
                    let width = match dtype.as_str() {
                        "<u2" => 2,
                        "<u8" => 8,
                        _ => 1,
                    };
                    let bytes = (count as u64).saturating_mul(width);
                    if bytes > self.limit {
                        self.too_large = Some(bytes);
                        return Err(io::Error::other("over the memory limit"));
                    }
                    let values = Values::zeros(&dtype, count)?;
                    self.array = Some(Array { shape, values });
                }
            }
        }
        if let Some(array) = &mut self.array {
            let bytes = array.values.bytes_mut();
            let end = self.filled + rest.len();
            if end > bytes.len() {
                return Err(io::Error::other("more data than the .npy header announced"));
            }
            bytes[self.filled..end].copy_from_slice(rest);
            self.filled = end;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Grundy values of a game on a box, from `nimscape grundy`'s parameters: see
/// [`grundy_values`].
pub enum GrundyValues {
    /// The whole box, solved: the front end allocates [`SolvedBox::shape`] values
    /// and has [`SolvedBox::fill`] write them in place.
    Whole(Box<SolvedBox>),
    /// A slice of the box: the figure's `.npy` data (see [`Planned::array`]).
    Slice(Array),
}

/// A solved game whose whole box is about to become an array.
pub struct SolvedBox(GrundyPlan);

impl SolvedBox {
    /// The array's shape: one axis per coordinate, a capped game's `y` up to its
    /// tallest column (the `.npy` file's shape).
    pub fn shape(&self) -> Result<Vec<usize>> {
        let solution = self.0.solution(&Control::default())?;
        Ok(solution.data_shape().iter().map(|&d| d as usize).collect())
    }

    /// Writes every value into `out` (C order, [`crate::games::OUTSIDE`] where a
    /// tuple is not a position), in parallel.
    pub fn fill(&self, out: &mut [u16], control: &Control) -> Result<()> {
        self.0.solution(control)?.fill_dense(out, control)
    }
}

/// The Grundy values `nimscape grundy ... -o x.npy` writes, as an array: the
/// game is solved first (refused, before anything is allocated, when the array
/// or the solver's own memory passes the budget), then the values are written
/// straight into the array on every core, without the `.npy` stream in between.
pub fn grundy_values(
    pairs: &[(String, Value)],
    budget: &Budget,
    control: &Control,
) -> Result<GrundyValues> {
    let matches = parse_pairs(&["grundy"], pairs)?;
    let FigureCommand::Grundy(args) =
        FigureCommand::from_arg_matches(&matches).map_err(|e| from_clap(&e))?
    else {
        return Err(Error::invalid_request(
            "Grundy values need grundy parameters",
        ));
    };
    let plan = grundy::plan(&args, budget.memory_limit)?;
    if !plan.is_whole_box()? {
        let planned = plan_command(FigureCommand::Grundy(args), &matches, budget)?;
        return planned.array(budget, control).map(GrundyValues::Slice);
    }
    Figure::check(&plan, Format::Npy)?;
    let array = Figure::output_bytes(&plan, Format::Npy);
    if let Some(bytes) = array {
        check_array(bytes, budget)?;
    }
    // The solution stays while the front end's array is filled from it: the
    // two are checked together (apart, each fitted the limit and their sum
    // passed it by 40%).
    let figure = plan.spec();
    let bounds = figure.game.resolve_box(&figure.game_box)?;
    let solving = figure.game.solve_bytes(&bounds, control)?;
    check_memory(
        || {
            format!(
                "Grundy values of {} in the box {} and the array they fill",
                figure.game.name(),
                bounds
                    .iter()
                    .map(|b| format!("0..{b}"))
                    .collect::<Vec<_>>()
                    .join(" x ")
            )
        },
        solving.saturating_add(array.unwrap_or(0)),
        budget.memory_limit,
        "use a smaller `box`",
    )?;
    plan.solution(control)?;
    Ok(GrundyValues::Whole(Box::new(SolvedBox(plan))))
}

/// The P-set of the chocolate bar R(m,n) (n = m when `None`): `true` at
/// `[i-1, j-1]` when cell (i,j) is a P-position. See `p_set_shape` and
/// `p_set_into`, which a front end uses to fill memory it allocated itself.
pub fn p_set(m: u64, n: Option<u64>, budget: &Budget, control: &Control) -> Result<Array> {
    let (rows, cols) = p_set_shape(m, n, budget)?;
    let mut values = vec![false; rows * cols];
    p_set_into(rows, cols, &mut values, control)?;
    Ok(Array {
        shape: vec![rows, cols],
        values: Values::Bool(values),
    })
}

/// The shape `(m, n)` of the P-set of R(m,n), with `m` and `n` checked as the
/// command line's `nimscape square --m M --n N --raw` checks them and the memory
/// (one byte per cell and the bit grid `p_set_into` builds) checked against the
/// budget, before anything is allocated.
pub(crate) fn p_set_shape(m: u64, n: Option<u64>, budget: &Budget) -> Result<(usize, usize)> {
    let mut pairs = vec![
        ("m".to_string(), Value::Text(m.to_string())),
        ("raw".to_string(), Value::Switch(true)),
    ];
    if let Some(n) = n {
        pairs.push(("n".to_string(), Value::Text(n.to_string())));
    }
    plan_pairs(&["square"], &pairs, budget)?;
    let n = n.unwrap_or(m);
    check_memory(
        || format!("the P-set of R({m},{n}) as an array"),
        m.saturating_mul(n).saturating_add(p_grid_bytes(m, n)),
        budget.memory_limit,
        "ask for a smaller board, or draw it with `raw`",
    )?;
    let side = |v: u64| {
        usize::try_from(v)
            .map_err(|_| Error::invalid_parameter("m", format!("`m` {v} is too large here")))
    };
    Ok((side(m)?, side(n)?))
}

/// Fills `out` (`rows * cols` flags, all `false`) with the P-set of
/// R(rows, cols): the bit grid of [`p_grid`] unpacked to one value per
/// cell, rows in parallel; a word of all P-cells is one fill, an empty one is
/// skipped.
pub(crate) fn p_set_into(
    rows: usize,
    cols: usize,
    out: &mut [bool],
    control: &Control,
) -> Result<()> {
    if out.len() != rows * cols {
        return Err(Error::invalid_request(format!(
            "a P-set of {rows} x {cols} needs {} cells, not {}",
            rows * cols,
            out.len()
        )));
    }
    if out.is_empty() {
        return Ok(());
    }
    let grid = p_grid(rows, cols, control)?;
    out.par_chunks_mut(cols).enumerate().for_each(|(row, out)| {
        if control.is_cancelled() {
            return;
        }
        for (chunk, &word) in out.chunks_mut(64).zip(grid.row_words(row)) {
            match word {
                0 => {}
                u64::MAX => chunk.fill(true),
                _ => {
                    for (eight, byte) in chunk.chunks_mut(8).zip(word.to_le_bytes()) {
                        let unpacked = &UNPACKED[usize::from(byte)];
                        eight.copy_from_slice(&unpacked[..eight.len()]);
                    }
                }
            }
        }
    });
    control.check()
}

/// The eight flags of a byte, least significant bit first (the bit grid's order).
static UNPACKED: [[bool; 8]; 256] = {
    let mut table = [[false; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte][bit] = byte >> bit & 1 == 1;
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The explorer's exact P-share tiles of C(m,n) at zoom `level`: for every
/// block of `2^level` rows by `2^level` columns in block rows `rows` and block
/// columns `cols`, the number of P-cells and the number of cells (0 off the
/// board), row-major. The share of a block is `counts / areas`, exactly.
pub struct Tiles {
    /// Block rows by block columns.
    pub shape: [usize; 2],
    /// P-cells per block.
    pub counts: Vec<u128>,
    /// Cells per block.
    pub areas: Vec<u128>,
}

/// The most blocks one [`tiles`] call returns.
pub(crate) const MAX_TILE_BLOCKS: u64 = 1 << 24;

/// See [`Tiles`]. `rows` and `cols` default to every block of the board.
pub fn tiles(
    m: u64,
    n: u64,
    level: u32,
    rows: Option<std::ops::Range<u64>>,
    cols: Option<std::ops::Range<u64>>,
    budget: &Budget,
    control: &Control,
) -> Result<Tiles> {
    let plan = TilePlan::new(m, n, level)?;
    let rows = rows.unwrap_or(0..plan.row_blocks());
    let cols = cols.unwrap_or(0..plan.col_blocks());
    for (name, range) in [("rows", &rows), ("cols", &cols)] {
        if range.start > range.end {
            return Err(Error::invalid_parameter(
                name,
                format!(
                    "`{name}` {}..{} is empty: write the smaller end first",
                    range.start, range.end
                ),
            ));
        }
    }
    let blocks = (rows.end - rows.start).saturating_mul(cols.end - cols.start);
    if blocks > MAX_TILE_BLOCKS {
        return Err(Error::invalid_parameter("level", format!(
            "{blocks} blocks asked for, at most {MAX_TILE_BLOCKS}: give a larger `level` or smaller `rows` and `cols`"
        )));
    }
    check_memory(
        || format!("{blocks} tiles"),
        blocks.saturating_mul(32),
        budget.memory_limit,
        "ask for fewer blocks",
    )?;
    let width = (cols.end - cols.start) as usize;
    let height = (rows.end - rows.start) as usize;
    let mut counts = vec![0u128; width * height];
    let mut areas = vec![0u128; width * height];
    counts
        .par_chunks_mut(width.max(1))
        .zip(areas.par_chunks_mut(width.max(1)))
        .enumerate()
        .for_each(|(r, (count_row, area_row))| {
            if control.is_cancelled() {
                return;
            }
            let q = rows.start + r as u64;
            for (c, (count, area)) in count_row.iter_mut().zip(area_row).enumerate() {
                let p = cols.start + c as u64;
                *count = plan.count(q, p);
                *area = plan.area(q, p);
            }
        });
    control.check()?;
    Ok(Tiles {
        shape: [height, width],
        counts,
        areas,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::is_p;

    fn text(pairs: &[(&str, &str)]) -> Vec<(String, Value)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), Value::Text(v.to_string())))
            .collect()
    }

    #[test]
    fn a_p_set_is_the_criterion_cell_by_cell() {
        for (m, n) in [(1, 1), (11, 11), (7, 70), (64, 65), (130, 3)] {
            let array = p_set(m, Some(n), &Budget::default(), &Control::default()).unwrap();
            assert_eq!(array.shape, vec![m as usize, n as usize]);
            let Values::Bool(values) = array.values else {
                panic!("a P-set is flags")
            };
            for i in 1..=m {
                for j in 1..=n {
                    let at = ((i - 1) * n + (j - 1)) as usize;
                    assert_eq!(values[at], is_p(m, n, i, j), "R({m},{n}) at ({i},{j})");
                }
            }
        }
    }

    #[test]
    fn an_array_is_the_npy_data_of_the_same_plan() {
        let planned = plan_pairs(
            &["grundy"],
            &text(&[("game", "triangular"), ("k", "3"), ("box", "12")]),
            &Budget::default(),
        )
        .unwrap();
        let array = planned
            .array(&Budget::default(), &Control::default())
            .unwrap();
        let npy = planned.render(Format::Npy, &Control::default()).unwrap();
        let Values::U16(values) = &array.values else {
            panic!("Grundy values are uint16")
        };
        let data = &npy[npy.len() - values.len() * 2..];
        let le: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(le, data);
        assert_eq!(array.shape.iter().product::<usize>(), values.len());
    }

    #[test]
    fn grundy_values_of_the_whole_box_are_its_npy_data() {
        for pairs in [
            &[("game", "triangular"), ("k", "3"), ("box", "40")][..],
            &[("game", "min-half"), ("box", "9,5,12")][..],
            &[("game", "nim-pass"), ("heaps", "3"), ("box", "6")][..],
        ] {
            let whole = match grundy_values(&text(pairs), &Budget::default(), &Control::default()) {
                Ok(GrundyValues::Whole(solved)) => solved,
                _ => panic!("{pairs:?}: the whole box"),
            };
            let mut values = vec![0u16; whole.shape().unwrap().iter().product()];
            whole.fill(&mut values, &Control::default()).unwrap();
            let planned = plan_pairs(&["grundy"], &text(pairs), &Budget::default()).unwrap();
            let Values::U16(streamed) = planned
                .array(&Budget::default(), &Control::default())
                .unwrap()
                .values
            else {
                panic!("uint16")
            };
            assert_eq!(values, streamed, "{pairs:?}");
        }
        let slice = &[
            ("game", "triangular"),
            ("k", "3"),
            ("box", "12"),
            ("slice", "z=5"),
        ];
        assert!(matches!(
            grundy_values(&text(slice), &Budget::default(), &Control::default()),
            Ok(GrundyValues::Slice(_))
        ));
    }

    #[test]
    fn the_solution_and_its_array_are_checked_together() {
        // Nim on three heaps of 0..99: 10^6 tuples, a solve of 3 bytes a tuple
        // and an array of 2. A limit of 4 bytes a tuple held each alone, and
        // let the two together (about 4.1) pass it.
        let pairs = &[("game", "nim"), ("heaps", "3"), ("box", "99")];
        let tight = Budget {
            memory_limit: 4_000_000,
            ..Budget::default()
        };
        let err = match grundy_values(&text(pairs), &tight, &Control::default()) {
            Err(err) => err.to_string(),
            Ok(_) => panic!("a solve and its array over the limit together went through"),
        };
        assert!(
            err.starts_with("Grundy values of nim heaps=3 in the box 0..99 x 0..99 x 0..99 and the array they fill would need about 4.8 MiB"),
            "{err}"
        );
        let enough = Budget {
            memory_limit: 5_100_000,
            ..Budget::default()
        };
        assert!(grundy_values(&text(pairs), &enough, &Control::default()).is_ok());
    }

    #[test]
    fn an_array_over_the_limit_is_refused_before_work() {
        let budget = Budget {
            memory_limit: 1 << 20,
            ..Budget::default()
        };
        let err = p_set(4096, None, &budget, &Control::default()).unwrap_err();
        assert!(matches!(err, Error::TooLarge { .. }), "{err}");
        let planned = plan_pairs(
            &["grundy"],
            &text(&[("game", "triangular"), ("k", "3"), ("box", "300")]),
            &budget,
        )
        .unwrap();
        let err = planned.array(&budget, &Control::default()).unwrap_err();
        assert!(matches!(err, Error::TooLarge { .. }), "{err}");
    }

    #[test]
    fn tiles_count_the_p_cells_of_their_blocks() {
        let (m, n) = (37, 29);
        let t = tiles(m, n, 2, None, None, &Budget::default(), &Control::default()).unwrap();
        assert_eq!(t.shape, [10, 8]);
        for q in 0..10u64 {
            for p in 0..8u64 {
                let (mut count, mut area) = (0, 0);
                for i in q * 4 + 1..=(q * 4 + 4).min(m) {
                    for j in p * 4 + 1..=(p * 4 + 4).min(n) {
                        area += 1;
                        count += u128::from(is_p(m, n, i, j));
                    }
                }
                let at = (q * 8 + p) as usize;
                assert_eq!((t.counts[at], t.areas[at]), (count, area), "block {q},{p}");
            }
        }
    }
}
