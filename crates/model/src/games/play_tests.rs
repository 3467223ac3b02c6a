//! A pass and misère play on the capped solvers, checked against a brute-force game
//! search written here and against the game-file solver (the generic reference).

use super::capped::{CappedGame, Play};
use super::file::GameFile;
use crate::Control;
use proptest::prelude::*;
use std::collections::HashMap;

const LIMIT: u64 = 1 << 30;

const PLAYS: [Play; 4] = [
    Play {
        pass: false,
        misere: false,
    },
    Play {
        pass: true,
        misere: false,
    },
    Play {
        pass: false,
        misere: true,
    },
    Play {
        pass: true,
        misere: true,
    },
];

/// The game searched as the rules say, with the pass as a fourth coordinate: the
/// options of `(x, y, z)` are `(x, t, z)` for `t < y`, `(t, min(y, cap(t, z)), z)`
/// for `t < x` and `(x, min(y, cap(x, t)), t)` for `t < z`, each with the pass as it
/// was; with the pass still available and some option, also `(x, y, z)` with the
/// pass used. No option: 0, or 1 in misère play. Otherwise the mex.
struct Search<'a> {
    cap: &'a dyn Fn(u32, u32) -> u32,
    terminal: u32,
    memo: HashMap<(u32, u32, u32, bool), u32>,
}

impl Search<'_> {
    fn value(&mut self, x: u32, y: u32, z: u32, pass: bool) -> u32 {
        if let Some(&v) = self.memo.get(&(x, y, z, pass)) {
            return v;
        }
        let mut options = Vec::new();
        for t in 0..y {
            options.push((x, t, z));
        }
        for t in 0..x {
            options.push((t, y.min((self.cap)(t, z)), z));
        }
        for t in 0..z {
            options.push((x, y.min((self.cap)(x, t)), t));
        }
        let v = if options.is_empty() {
            self.terminal
        } else {
            let mut seen: Vec<u32> = options
                .iter()
                .map(|&(a, b, c)| self.value(a, b, c, pass))
                .collect();
            if pass {
                seen.push(self.value(x, y, z, false));
            }
            (0..).find(|v| !seen.contains(v)).unwrap()
        };
        self.memo.insert((x, y, z, pass), v);
        v
    }
}

/// Every tuple of the box `b`: the fast solver's value against the search's.
fn same_as_search(source: &str, cap: &dyn Fn(u32, u32) -> u32, b: [u32; 3]) {
    for play in PLAYS {
        let game = CappedGame::with_expr(source).unwrap().with_play(play);
        let fast = game.solve(b, LIMIT, &crate::Control::default()).unwrap();
        let mut search = Search {
            cap,
            terminal: u32::from(play.misere),
            memo: HashMap::new(),
        };
        for x in 0..=b[0] {
            for z in 0..=b[2] {
                for y in 0..=b[1] {
                    let expect = (y <= cap(x, z)).then(|| search.value(x, y, z, play.pass) as u16);
                    assert_eq!(
                        fast.get(x, y, z),
                        expect,
                        "{source}{} at ({x}, {y}, {z})",
                        play.suffix()
                    );
                }
            }
        }
    }
}

#[test]
fn monotone_caps_equal_the_search() {
    // Boxes over 16 cross the tiled solver's tile edges.
    same_as_search("floor(min(x,z)/2)", &|x, z| x.min(z) / 2, [20, 9, 18]);
    same_as_search("floor(min(x,z)/1)", &|x, z| x.min(z), [17, 17, 17]);
    same_as_search("floor((x+z)/3)", &|x, z| (x + z) / 3, [19, 12, 21]);
    same_as_search("0", &|_, _| 0, [6, 0, 5]);
    same_as_search("floor(x/2)", &|x, _| x / 2, [9, 5, 0]);
}

#[test]
fn caps_that_are_not_monotone_equal_the_search() {
    same_as_search(
        "floor(max(x - z, z - x, 1)/2)",
        &|x, z| x.abs_diff(z).max(1) / 2,
        [14, 8, 13],
    );
    same_as_search(
        "floor(10 - x/2 - z/3)",
        &|x, z| (60 - 3 * x - 2 * z) / 6,
        [12, 10, 12],
    );
}

/// The game file of `y <= cap(x, z)` with the three move families, played `play`.
fn game_file(cap: &str, play: Play) -> String {
    format!(
        "heaps = [\"x\", \"y\", \"z\"]\npass = {}\nmisere = {}\nfunctions = [\"cap(x, z) = {cap}\"]\npositions = [\"y <= cap(x, z)\"]\n[[move]]\nlower = \"y\"\n[[move]]\nlower = \"x\"\nto = \"(t, min(y, cap(t, z)), z)\"\n[[move]]\nlower = \"z\"\nto = \"(x, min(y, cap(x, t)), t)\"\n",
        play.pass, play.misere
    )
}

/// The fast solver against the game-file solver on every tuple of the box.
fn same_as_game_file(cap: &str, b: [u32; 3]) {
    for play in PLAYS {
        let fast = CappedGame::with_expr(cap)
            .unwrap()
            .with_play(play)
            .solve(b, LIMIT, &crate::Control::default())
            .unwrap();
        let file = GameFile::parse("cap.toml", &game_file(cap, play), &[]).unwrap();
        let slow = file.solve_generic(&b, LIMIT, &Control::new()).unwrap();
        for x in 0..=b[0] {
            for y in 0..=b[1] {
                for z in 0..=b[2] {
                    assert_eq!(
                        fast.get(x, y, z),
                        slow.get(&[x, y, z]),
                        "{cap}{} at ({x}, {y}, {z})",
                        play.suffix()
                    );
                }
            }
        }
    }
}

#[test]
fn capped_solvers_equal_the_game_file_solver() {
    same_as_game_file("floor(min(x, z)/2)", [40, 20, 37]);
    same_as_game_file("floor(min(x, z)/3)", [33, 33, 33]);
    same_as_game_file("floor((x + z)**2/5)", [9, 60, 10]);
    same_as_game_file("floor(max(x - z, z - x, 2)/2)", [24, 12, 21]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random linear caps, monotone or not, against the search.
    #[test]
    fn random_caps_equal_the_search(
        a in 0u32..3, b in 0u32..3, c in 0u32..6, k in 1u32..4, falling in any::<bool>(),
        bx in 0u32..12, by in 0u32..10, bz in 0u32..12,
    ) {
        let (source, cap): (String, Box<dyn Fn(u32, u32) -> u32>) = if falling {
            // Falls along x: not monotone (the general solver).
            (format!("floor(max({c} + 12 - {a}*x, {b}*z)/{k})"),
             Box::new(move |x, z| ((c + 12).saturating_sub(a * x)).max(b * z) / k))
        } else {
            (format!("floor(({a}*x + {b}*z + {c})/{k})"),
             Box::new(move |x, z| (a * x + b * z + c) / k))
        };
        same_as_search(&source, cap.as_ref(), [bx, by, bz]);
    }
}
