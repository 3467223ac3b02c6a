//! The recognised game files against the generic solver: every shipped file, and
//! random files written many ways (heap names and order, the cap inline or as a
//! helper, `>=` or `<=`, `to` or `then`, a pass, misère play), with near misses that
//! must not be recognised.

use super::GameFile;
use crate::Control;
use proptest::prelude::*;

const LIMIT: u64 = 1 << 30;

/// Both solvers on the box: the same positions and values (or both refuse).
fn same_values(file: &GameFile, bounds: &[u32]) -> String {
    let control = Control::new();
    let fast = file.solve(bounds, LIMIT, &control);
    let slow = file.solve_generic(bounds, LIMIT, &control);
    match (fast, slow) {
        (Ok(fast), Ok(slow)) => {
            assert_eq!(fast.names(), slow.names(), "{}", file.name());
            assert_eq!(fast.len(), slow.len(), "{} {bounds:?}", file.name());
            assert!(
                fast.positions().eq(slow.positions()),
                "{} {bounds:?}: the values differ",
                file.name()
            );
        }
        (Err(_), Err(_)) => {}
        (fast, slow) => panic!(
            "{} {bounds:?}: one solver refused: fast {:?}, generic {:?}",
            file.name(),
            fast.map(|g| g.len()),
            slow.map(|g| g.len())
        ),
    }
    file.solver_choice(bounds, &control).unwrap().solver
}

fn shipped(name: &str) -> &'static str {
    match name {
        "band-7-1" => include_str!("../../../../../games/band-7-1.toml"),
        "band-7-2" => include_str!("../../../../../games/band-7-2.toml"),
        "triangular" => include_str!("../../../../../games/triangular.toml"),
        "min-half" => include_str!("../../../../../games/min-half.toml"),
        "min-k" => include_str!("../../../../../games/min-k.toml"),
        "min-k-pass" => include_str!("../../../../../games/min-k-pass.toml"),
        "min-k-misere" => include_str!("../../../../../games/min-k-misere.toml"),
        "cap-square" => include_str!("../../../../../games/cap-square.toml"),
        "six-sided" => include_str!("../../../../../games/six-sided.toml"),
        "nim" => include_str!("../../../../../games/nim.toml"),
        "nim-pass" => include_str!("../../../../../games/nim-pass.toml"),
        "misere-nim" => include_str!("../../../../../games/misere-nim.toml"),
        "wythoff" => include_str!("../../../../../games/wythoff.toml"),
        "wythoff-pass" => include_str!("../../../../../games/wythoff-pass.toml"),
        other => panic!("no shipped game {other}"),
    }
}

#[test]
fn every_shipped_file_gives_the_generic_values_on_its_solver() {
    let six = crate::games::SixSided::seed_box(1).to_vec();
    /// A shipped file, its parameters, a box and the solver it must run on.
    type Case = (
        &'static str,
        &'static [(&'static str, i64)],
        Vec<u32>,
        &'static str,
    );
    let cases: [Case; 22] = [
        ("triangular", &[], vec![25, 25, 25], "capped (tiled)"),
        (
            "triangular",
            &[("k", 1)],
            vec![18, 30, 17],
            "capped (tiled)",
        ),
        ("min-half", &[], vec![30, 14, 33], "capped (tiled)"),
        ("min-k", &[], vec![34, 34, 34], "capped (tiled)"),
        ("min-k", &[("k", 1)], vec![20, 20, 20], "capped (tiled)"),
        ("min-k", &[("k", 5)], vec![40, 8, 40], "capped (tiled)"),
        ("min-k-pass", &[], vec![30, 30, 30], "capped (tiled)"),
        (
            "min-k-pass",
            &[("k", 1)],
            vec![18, 18, 18],
            "capped (tiled)",
        ),
        (
            "min-k-misere",
            &[("k", 3)],
            vec![33, 33, 33],
            "capped (tiled)",
        ),
        ("cap-square", &[], vec![9, 60, 10], "capped (tiled)"),
        ("nim", &[], vec![9, 7, 12], "nim-sum"),
        ("nim-pass", &[], vec![9, 6, 11], "nim with a pass"),
        ("misere-nim", &[], vec![6, 6, 6], "generic"),
        ("wythoff", &[], vec![20, 20], "generic"),
        ("wythoff-pass", &[], vec![20, 20], "generic"),
        ("band-7-1", &[], vec![22, 23], "band"),
        ("band-7-1", &[], vec![61, 40], "band"),
        ("band-7-2", &[], vec![30, 30], "band"),
        ("band-7-2", &[("k", 2), ("h", 1)], vec![41, 25], "band"),
        ("band-7-2", &[("k", 3), ("h", 7)], vec![40, 9], "band"),
        // h < k - 1: a move of x leaves the band, which the generic solver refuses.
        ("band-7-2", &[("k", 3), ("h", 1)], vec![12, 12], "generic"),
        ("six-sided", &[], six, "generic"),
    ];
    for (name, params, bounds, solver) in cases {
        let params: Vec<(String, i64)> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let file = GameFile::parse(&format!("games/{name}.toml"), shipped(name), &params).unwrap();
        assert_eq!(same_values(&file, &bounds), solver, "{name} {params:?}");
    }
}

#[test]
fn the_choice_says_why_a_faster_solver_does_not_apply() {
    let why = |name: &str, bounds: &[u32]| {
        GameFile::parse("g.toml", shipped(name), &[])
            .unwrap()
            .solver_choice(bounds, &Control::new())
            .unwrap()
            .why
    };
    assert_eq!(
        why("wythoff", &[5, 5]),
        "not a capped game: it has 2 heaps, not 3; not Nim: move 2 (take from x, y) takes from several heaps at once; not a band game: as Example 7.1, its positions are not the band's; as Example 7.2, it has no parameters k and h"
    );
    assert_eq!(
        why("band-7-1", &[5, 5]),
        "the file is the built-in band-7-1 (Example 7.1 of Miyadera et al.'s web book), position condition and moves tree for tree"
    );
    assert_eq!(
        why("min-k", &[5, 5, 5]),
        "the file is y <= cap(x, z) with the capped games' three moves; the cap never decreases in the box"
    );
    let text = shipped("min-k").replace(
        "to = \"(t, min(y, cap(t, z)), z)\"",
        "to = \"(t, min(y, cap(t, z) + 1), z)\"",
    );
    let file = GameFile::parse("g.toml", &text, &[]).unwrap();
    assert_eq!(
        file.solver_choice(&[5, 5, 5], &Control::new()).unwrap().why,
        "not a capped game: move 2 (lower x) sets y by an expression that is not min(y, cap(...)) with the cap of the positions; not Nim: its positions are limited ('y <= cap(x, z)'); not a band game: it has 3 heaps, not 2"
    );
    let negative = shipped("min-k").replace("floor(min(x, z)/k)", "floor(min(x, z)/k) - 1");
    let file = GameFile::parse("g.toml", &negative, &[]).unwrap();
    assert_eq!(
        file.solver_choice(&[5, 5, 5], &Control::new()).unwrap().why,
        "a capped game, but the cap is negative (-1) at (x, z) = (0, 0) (the generic solver handles it as the file says)"
    );
}

/// A random cap over `a` and `b`: linear, floors, min and max, abs, mod, powers;
/// monotone or not, some negative or faulting somewhere.
fn cap_source(kind: u8, p: [i64; 4], [a, b]: [&str; 2]) -> String {
    let [c0, c1, c2, k] = p;
    let k = k.max(1);
    match kind % 8 {
        0 => format!("floor(({c0}*{a} + {c1}*{b} + {c2})/{k})"),
        1 => format!("floor(min({a}, {b})/{k}) + {c2}"),
        2 => format!("floor(max({a} - {b}, {b} - {a}, {c0})/{k})"),
        3 => format!("mod({c0}*{a} + {c1}*{b} + {c2}, {k} + 2)"),
        4 => format!("floor(({a} + {b})**2/({k} + 3))"),
        5 => format!("abs({a} - {c1}*{b}) + {c2} - 2"),
        6 => format!("isqrt({c0}*{a}*{b} + {c2})"),
        _ => format!("{c2} + 8 - {a} - floor({b}/{k})"),
    }
}

/// Writes a capped game file in one of many equivalent ways; `miss` changes one move
/// so that it is no longer the capped game's (still a valid game).
#[allow(clippy::too_many_arguments)]
fn capped_text(
    names: [&str; 3],
    y_at: usize,
    cap: &str,
    helper: bool,
    ge: bool,
    then: bool,
    swap_min: bool,
    pass: bool,
    misere: bool,
    miss: u8,
) -> String {
    let mut heaps = vec![names[0], names[2]];
    heaps.insert(y_at, names[1]);
    let (x, y, z) = (names[0], names[1], names[2]);
    let capped = |a: &str, b: &str| -> String {
        if helper {
            format!("cap({a}, {b})")
        } else {
            format!("({})", cap.replace("{a}", a).replace("{b}", b))
        }
    };
    let clamp = |a: &str, b: &str, bump: &str| {
        if swap_min {
            format!("min({}{bump}, {y})", capped(a, b))
        } else {
            format!("min({y}, {}{bump})", capped(a, b))
        }
    };
    let tuple = |vx: &str, vy: &str, vz: &str| {
        let mut t = vec![vx.to_string(), vz.to_string()];
        t.insert(y_at, vy.to_string());
        format!("({})", t.join(", "))
    };
    let mut text = format!(
        "heaps = [{}]\npass = {pass}\nmisere = {misere}\n",
        heaps
            .iter()
            .map(|h| format!("\"{h}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if helper {
        let body = cap.replace("{a}", "aa").replace("{b}", "bb");
        text.push_str(&format!("functions = [\"cap(aa, bb) = {body}\"]\n"));
    }
    let condition = if ge {
        format!("{} >= {y}", capped(x, z))
    } else {
        format!("{y} <= {}", capped(x, z))
    };
    text.push_str(&format!("positions = [\"{condition}\"]\n"));
    // The near misses: y clamped one lower, the z move's clamp written with a third
    // argument (the same game, not recognised), or an extra diagonal move.
    let bump = if miss == 1 { " - 1" } else { "" };
    text.push_str(&format!("[[move]]\nlower = \"{y}\"\n"));
    if then {
        let y_then = if miss == 2 {
            format!("min({y}, {}, {})", capped(x, z), capped(x, z))
        } else {
            clamp(x, z, bump)
        };
        text.push_str(&format!(
            "[[move]]\nlower = [\"{x}\", \"{z}\"]\nthen = \"{}\"\n",
            tuple(x, &y_then, z)
        ));
    } else {
        text.push_str(&format!(
            "[[move]]\nlower = \"{x}\"\nto = \"{}\"\n",
            tuple("t", &clamp("t", z, bump), z)
        ));
        let z_move = if miss == 2 {
            // The same options (y <= cap(x, z) already), written otherwise.
            tuple(
                x,
                &format!("min({y}, {}, {})", capped(x, "t"), capped(x, z)),
                "t",
            )
        } else {
            tuple(x, &clamp(x, "t", ""), "t")
        };
        text.push_str(&format!("[[move]]\nlower = \"{z}\"\nto = \"{z_move}\"\n"));
    }
    if miss == 3 {
        text.push_str(&format!(
            "[[move]]\ntake = [\"{x}\", \"{z}\"]\nthen = \"{}\"\n",
            tuple(x, &clamp(x, z, ""), z)
        ));
    }
    text
}

/// A band game file of Example 7.1 (`seven_two` false) or 7.2, with the heaps
/// named `names` and the moves in either order; `miss` 1..=4 changes it slightly (a
/// bound of the band, a move, a function, the order of a `min`): still a game file,
/// but no longer the built-in game's definition tree for tree.
fn band_text(
    seven_two: bool,
    names: [&str; 2],
    swap_moves: bool,
    (k, h): (i64, i64),
    play: u8,
    miss: u8,
) -> String {
    let (positions, moves) = if seven_two {
        (
            [
                "X/k >= Y >= (X - h)/k",
                "X/k >= Y >= (X - h - 1)/k",
                "floor(X/k) >= Y >= (X - h)/k",
            ],
            [
                ["(t, min(floor(t/k), Y))", "(t, min(Y, floor(t/k)))"],
                ["(min(k*t + h, X), t)", "(min(k*t + h, X) - 0, t)"],
            ],
        )
    } else {
        (
            [
                "res(X) >= Y >= res2(X)",
                "res(X) >= Y",
                "res(X) >= Y >= res2(X)",
            ],
            [
                ["(t, min(res(t), Y))", "(t, min(res(t), Y, res(t)))"],
                [
                    "(min(inverseres2(X), t), t)",
                    "(min(inverseres2(X) + 1, t), t)",
                ],
            ],
        )
    };
    let named = |s: &str| s.replace('X', names[0]).replace('Y', names[1]);
    let position = match miss {
        1 => positions[1],
        4 => positions[2],
        _ => positions[0],
    };
    let mut text = format!(
        "heaps = [\"{}\", \"{}\"]\npass = {}\nmisere = {}\npositions = [\"{}\"]\n",
        names[0],
        names[1],
        play == 1,
        play == 2,
        named(position)
    );
    if seven_two {
        text.push_str(&format!("[params]\nk = {k}\nh = {h}\n"));
    } else {
        // miss 4 of Example 7.1: res one higher.
        let res = if miss == 4 { "2" } else { "1" };
        text.insert_str(0, &format!(
            "functions = [\"res(a) = 2*floor(a/2) + {res}\", \"res2(a) = max(2*floor(a/2) - 2, 0)\", \"inverseres2(a) = 2*floor(a/2) + 3\"]\n"
        ));
    }
    let move_x = format!(
        "[[move]]\nlower = \"{}\"\nto = \"{}\"\n",
        names[0],
        named(moves[0][usize::from(miss == 2)])
    );
    let move_y = format!(
        "[[move]]\nlower = \"{}\"\nto = \"{}\"\n",
        names[1],
        named(moves[1][usize::from(miss == 3)])
    );
    if swap_moves {
        format!("{text}{move_y}{move_x}")
    } else {
        format!("{text}{move_x}{move_y}")
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(320))]

    /// Band files of both examples, with any heap names, parameters and move order:
    /// on the band solver exactly when they are the built-in game's definition
    /// (Example 7.2 only where no move leaves the band), the generic values either way.
    #[test]
    fn random_band_files_give_the_generic_values(
        seven_two: bool,
        names in prop_oneof![Just(["x", "y"]), Just(["p", "q"])],
        swap_moves: bool, k in 1i64..5, h in 0i64..6,
        play in prop_oneof![6 => Just(0u8), 1 => 1u8..3],
        miss in prop_oneof![3 => Just(0u8), 1 => 1u8..5],
        b in proptest::array::uniform2(0u32..26),
    ) {
        let text = band_text(seven_two, names, swap_moves, (k, h), play, miss);
        let file = GameFile::parse("band.toml", &text, &[]).unwrap();
        let solver = same_values(&file, &b);
        let recognised = miss == 0 && play == 0 && (!seven_two || h + 1 >= k);
        prop_assert_eq!(solver, if recognised { "band" } else { "generic" }, "{}", text);
    }

    /// Random capped files, written many ways: recognised exactly when they are the
    /// capped game, and the same values as the generic solver either way.
    #[test]
    fn random_capped_files_give_the_generic_values(
        kind in 0u8..8, p in proptest::array::uniform4(0i64..4),
        names in prop_oneof![Just(["x", "y", "z"]), Just(["a", "h", "b"]), Just(["z", "x", "y"])],
        y_at in 0usize..3, helper: bool, ge: bool, then: bool, swap_min: bool,
        pass: bool, misere: bool, miss in prop_oneof![4 => Just(0u8), 1 => 1u8..4],
        b in proptest::array::uniform3(0u32..9),
    ) {
        let cap = cap_source(kind, p, ["{a}", "{b}"]);
        let text = capped_text(names, y_at, &cap, helper, ge, then, swap_min, pass, misere, miss);
        let file = GameFile::parse("random.toml", &text, &[]).unwrap();
        let solver = same_values(&file, &b);
        let choice = file.solver_choice(&b, &Control::new()).unwrap();
        if miss != 0 {
            prop_assert_eq!(solver, "generic", "{}", text);
            prop_assert!(choice.why.contains("not a capped game"), "{}", choice.why);
        } else if solver == "generic" {
            // Only a cap that is negative or faults in the box keeps a capped file off.
            prop_assert!(choice.why.starts_with("a capped game, but the cap"), "{}\n{}", text, choice.why);
        }
    }

    /// Nim written with any heap names, moves as one list or one per heap, in any
    /// order, with or without a pass; with a `take` or misère it is not Nim.
    #[test]
    fn random_nim_files_give_the_generic_values(
        heaps in 2usize..5, order: bool, listed: bool, pass: bool, extra in 0u8..4,
        b in proptest::array::uniform4(0u32..6),
    ) {
        let names: Vec<String> = (0..heaps).map(|i| format!("h{i}")).collect();
        let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
        let mut text = format!("heaps = [{}]\npass = {pass}\nmisere = {}\n", quoted.join(", "), extra == 1);
        let mut order_of: Vec<&String> = names.iter().collect();
        if order {
            order_of.reverse();
        }
        if listed {
            let list: Vec<String> = order_of.iter().map(|n| format!("\"{n}\"")).collect();
            text.push_str(&format!("[[move]]\nlower = [{}]\n", list.join(", ")));
        } else {
            for n in &order_of {
                text.push_str(&format!("[[move]]\nlower = \"{n}\"\n"));
            }
        }
        if extra == 2 {
            text.push_str(&format!("[[move]]\ntake = [\"{}\", \"{}\"]\n", names[0], names[1]));
        }
        let file = GameFile::parse("nim.toml", &text, &[]).unwrap();
        let solver = same_values(&file, &b[..heaps]);
        let expect = match (extra, pass) {
            (1 | 2, _) => "generic",
            (_, true) => "nim with a pass",
            _ => "nim-sum",
        };
        prop_assert_eq!(solver, expect, "{}", text);
    }
}
