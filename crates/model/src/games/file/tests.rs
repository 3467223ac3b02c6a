//! Game files against the built-in solvers, the papers' memoised recursion and the
//! known answers (Wythoff, misère Nim), and every refusal with its message.

use super::GameFile;
use crate::games::solver::{Game, MemoSolver};
use crate::games::{Band, CappedGame, GameBox, GameSpec, Nim, NimPass, SixSided, Solution};
use crate::Control;
use proptest::prelude::*;

const LIMIT: u64 = 1 << 30;

/// The shipped game files, read at compile time from the repository's `games/`.
fn shipped(name: &str) -> &'static str {
    match name {
        "band-7-1" => include_str!("../../../../../games/band-7-1.toml"),
        "band-7-2" => include_str!("../../../../../games/band-7-2.toml"),
        "triangular" => include_str!("../../../../../games/triangular.toml"),
        "min-half" => include_str!("../../../../../games/min-half.toml"),
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

pub(super) fn game(name: &str, params: &[(&str, i64)]) -> GameFile {
    let params: Vec<(String, i64)> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    GameFile::parse(&format!("games/{name}.toml"), shipped(name), &params).unwrap()
}

/// The generic solver's values: the files' reference, whatever faster solver a
/// file is recognised for (those are checked against it in `recognise_tests.rs`).
fn solve(g: &GameFile, bounds: &[u32]) -> Solution {
    Solution::Dense(g.solve_generic(bounds, LIMIT, &Control::new()).unwrap())
}

/// Every position and value, and the box: the whole of a solution.
fn whole(s: &Solution) -> (Vec<u32>, Vec<(Vec<u32>, u16)>) {
    (s.bounds(), s.positions().collect())
}

fn solve_builtin(spec: GameSpec, bounds: &[u32]) -> Solution {
    spec.solve(
        &GameBox::Each(bounds.to_vec()),
        LIMIT,
        &crate::Control::default(),
    )
    .unwrap()
}

#[test]
fn band_files_give_the_built_in_values() {
    for bounds in [[22, 23], [60, 61]] {
        let file = solve(&game("band-7-1", &[]), &bounds);
        let reference = solve_builtin(GameSpec::Band(Band::Example71), &bounds);
        assert!(file.len() > 40);
        assert_eq!(whole(&file), whole(&reference), "band-7-1 {bounds:?}");
    }
    for (k, h) in [(1, 3), (2, 1), (3, 5)] {
        let file = solve(&game("band-7-2", &[("k", k), ("h", h)]), &[30, 30]);
        let reference = solve_builtin(
            GameSpec::Band(Band::example72(k as u32, h as u32).unwrap()),
            &[30, 30],
        );
        assert_eq!(whole(&file), whole(&reference), "band-7-2 k={k} h={h}");
    }
}

#[test]
fn capped_files_give_the_built_in_values() {
    for k in [1, 2, 3, 5] {
        let file = solve(&game("triangular", &[("k", k)]), &[12, 12, 12]);
        let reference = solve_builtin(
            GameSpec::Capped(CappedGame::triangular(k as u32).unwrap()),
            &[12, 12, 12],
        );
        assert_eq!(whole(&file), whole(&reference), "triangular k={k}");
    }
    let file = solve(&game("min-half", &[]), &[14, 9, 14]);
    let reference = solve_builtin(GameSpec::Capped(CappedGame::min_half()), &[14, 9, 14]);
    assert_eq!(whole(&file), whole(&reference));
    let file = solve(&game("cap-square", &[]), &[8, 20, 8]);
    let reference = solve_builtin(
        GameSpec::Capped(CappedGame::with_expr("floor((x+z)**2/5)").unwrap()),
        &[8, 20, 8],
    );
    assert_eq!(whole(&file), whole(&reference));
}

#[test]
fn six_sided_and_nim_files_give_the_built_in_values() {
    for ss in [1, 2] {
        let bounds = SixSided::seed_box(ss);
        let file = solve(&game("six-sided", &[]), &bounds);
        let reference = solve_builtin(GameSpec::SixSided, &bounds);
        assert_eq!(whole(&file), whole(&reference), "six-sided {ss}");
    }
    // The paper's counts: 76 positions and 20 P-positions in the first box.
    let first = solve(&game("six-sided", &[]), &SixSided::seed_box(1));
    assert_eq!((first.len(), first.p_positions().len()), (76, 20));
    let file = solve(&game("nim", &[]), &[7, 5, 9]);
    let reference = solve_builtin(GameSpec::Nim(Nim::new(3).unwrap()), &[7, 5, 9]);
    assert_eq!(whole(&file), whole(&reference));
    let file = solve(&game("nim-pass", &[]), &[9, 6, 11]);
    let reference = solve_builtin(GameSpec::NimPass(NimPass::new(3).unwrap()), &[9, 6, 11]);
    assert_eq!(whole(&file), whole(&reference));
}

/// `(floor(n phi), floor(n phi^2))` in integers: `floor(n phi) = (n + isqrt(5 n^2)) / 2`
/// because `sqrt(5) n` is irrational for `n > 0`, and `n phi^2 = n phi + n`.
fn wythoff_pair(n: u64) -> (u64, u64) {
    let s = crate::exact::isqrt(u128::from(5 * n * n)) as u64;
    let a = (n + s) / 2;
    (a, a + n)
}

#[test]
fn wythoff_p_positions_are_the_beatty_pairs_and_their_mirrors() {
    assert_eq!(
        (1..=5).map(wythoff_pair).collect::<Vec<_>>(),
        [(1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]
    );
    let n = 200u32;
    let s = solve(&game("wythoff", &[]), &[n, n]);
    let mut expected = vec![vec![0, 0]];
    for k in 1.. {
        let (a, b) = wythoff_pair(k);
        if a > u64::from(n) {
            break;
        }
        expected.push(vec![a as u32, b as u32]);
        expected.push(vec![b as u32, a as u32]);
    }
    expected.retain(|p| p.iter().all(|&c| c <= n));
    expected.sort();
    assert_eq!(s.p_positions(), expected);
}

/// Whether the player to move wins misère Nim, by plain recursion over the options
/// (the player who cannot move has won: the opponent took the last counter).
fn misere_mover_wins(p: [u32; 3], memo: &mut std::collections::HashMap<[u32; 3], bool>) -> bool {
    if let Some(&w) = memo.get(&p) {
        return w;
    }
    let mut wins = p == [0, 0, 0];
    for d in 0..3 {
        for t in 0..p[d] {
            let mut o = p;
            o[d] = t;
            wins |= !misere_mover_wins(o, memo);
        }
    }
    memo.insert(p, wins);
    wins
}

#[test]
fn misere_nim_p_positions_follow_the_known_rule() {
    // Bouton's misère rule: P (the player who moved last wins) iff the nim-sum is 0,
    // except when every heap is at most 1: then P iff an odd number of heaps are 1.
    let s = solve(&game("misere-nim", &[]), &[7, 6, 9]);
    let mut memo = std::collections::HashMap::new();
    let mut p_count = 0;
    for (p, v) in s.positions() {
        let small = p.iter().all(|&c| c <= 1);
        let expected_p = if small {
            p.iter().filter(|&&c| c == 1).count() % 2 == 1
        } else {
            p[0] ^ p[1] ^ p[2] == 0
        };
        assert_eq!(v == 0, expected_p, "{p:?}");
        assert_eq!(
            v == 0,
            !misere_mover_wins([p[0], p[1], p[2]], &mut memo),
            "{p:?}"
        );
        p_count += usize::from(v == 0);
    }
    assert!(p_count > 40, "{p_count}");
}

/// A game with its pass as a third coordinate (1 while available), solved by the
/// papers' memoised recursion: an independent check of the game-file pass.
struct WithPassFlag<'a>(&'a GameFile);

impl Game for WithPassFlag<'_> {
    fn name(&self) -> String {
        "with pass flag".into()
    }
    fn coordinate_names(&self) -> Vec<String> {
        vec!["x".into(), "y".into(), "pass".into()]
    }
    fn is_position(&self, _: &[u32]) -> bool {
        true
    }
    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
        let mut any = false;
        Oracle(self.0).for_each_option(&p[..2], &mut |o: &[u32]| {
            any = true;
            f(&[o[0], o[1], p[2]]);
        });
        if any && p[2] == 1 {
            f(&[p[0], p[1], 0]);
        }
    }
}

/// A game file as a [`Game`], for [`MemoSolver`] (normal play, no pass).
struct Oracle<'a>(&'a GameFile);

impl Game for Oracle<'_> {
    fn name(&self) -> String {
        self.0.name()
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.0.heap_names().to_vec()
    }
    fn is_position(&self, p: &[u32]) -> bool {
        self.0.is_position(p)
    }
    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
        self.0
            .for_each_option(p, &mut |o, _, _| {
                let q: Vec<u32> = o.iter().map(|&c| u32::try_from(c).unwrap()).collect();
                f(&q);
                Ok(())
            })
            .unwrap();
    }
}

#[test]
fn wythoff_with_a_pass_agrees_with_memoised_recursion() {
    let file = game("wythoff-pass", &[]);
    let s = solve(&file, &[30, 30]);
    let plain = game("wythoff", &[]);
    let flagged = WithPassFlag(&plain);
    let mut memo = MemoSolver::new(&flagged);
    for (p, v) in s.positions() {
        assert_eq!(u32::from(v), memo.grundy(&[p[0], p[1], 1]), "{p:?}");
    }
    // The pass changes the game: (0, 0) stays P, (1, 2) is no longer P.
    assert_eq!(s.get(&[0, 0]), Some(0));
    assert_ne!(s.get(&[1, 2]), Some(0));
}

#[test]
fn shipped_files_agree_with_memoised_recursion() {
    for (name, bounds) in [
        ("band-7-1", vec![15, 16]),
        ("triangular", vec![7, 5, 7]),
        ("six-sided", SixSided::seed_box(1).to_vec()),
        ("wythoff", vec![12, 12]),
    ] {
        let file = game(name, &[]);
        let s = solve(&file, &bounds);
        let oracle = Oracle(&file);
        let mut memo = MemoSolver::new(&oracle);
        for (p, v) in s.positions() {
            assert_eq!(u32::from(v), memo.grundy(&p), "{name} {p:?}");
        }
    }
}

/// A random capped three-heap game: y <= floor((a x + b z)/c), lower any heap
/// (x and z clamp y), optionally Wythoff's diagonal on x and z clamped the same way.
fn random_file(a: u8, b: u8, c: u8, diagonal: bool, clamp_all: bool) -> String {
    let mut text = format!(
        "heaps = [\"x\", \"y\", \"z\"]\nfunctions = [\"cap(x, z) = floor((a*x + b*z)/c)\"]\npositions = [\"y <= cap(x, z)\"]\n[params]\na = {a}\nb = {b}\nc = {c}\n[[move]]\nlower = \"y\"\n"
    );
    if clamp_all {
        text.push_str("[[move]]\nlower = [\"x\", \"z\"]\nthen = \"(x, min(y, cap(x, z)), z)\"\n");
    } else {
        text.push_str("[[move]]\nlower = \"x\"\nto = \"(t, min(y, cap(t, z)), z)\"\n[[move]]\nlower = \"z\"\nto = \"(x, min(y, cap(x, t)), t)\"\n");
    }
    if diagonal {
        text.push_str("[[move]]\ntake = [\"x\", \"z\"]\nthen = \"(x, min(y, cap(x, z)), z)\"\n");
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_game_files_agree_with_memoised_recursion(
        a in 0u8..4, b in 0u8..4, c in 1u8..5, diagonal: bool, clamp_all: bool,
        bx in 0u32..7, bz in 0u32..7,
    ) {
        let text = random_file(a, b, c, diagonal, clamp_all);
        let file = GameFile::parse("random.toml", &text, &[]).unwrap();
        let by = 12;
        let s = file.solve(&[bx, by, bz], LIMIT, &Control::default()).unwrap();
        let oracle = Oracle(&file);
        let mut memo = MemoSolver::new(&oracle);
        let mut positions = 0;
        for x in 0..=bx {
            for y in 0..=by {
                for z in 0..=bz {
                    let is = file.is_position(&[x, y, z]);
                    prop_assert_eq!(s.get(&[x, y, z]).is_some(), is);
                    if is {
                        positions += 1;
                        prop_assert_eq!(u32::from(s.get(&[x, y, z]).unwrap()), memo.grundy(&[x, y, z]));
                    }
                }
            }
        }
        prop_assert_eq!(s.len(), positions);
    }
}

fn refusal(text: &str, bounds: &[u32]) -> String {
    let file = GameFile::parse("g.toml", text, &[]).unwrap();
    file.solve(bounds, LIMIT, &Control::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn a_move_that_leaves_the_game_is_refused_with_position_and_move() {
    // Lowering x without clamping y leaves the band y <= x.
    let err = refusal(
        "heaps = [\"x\", \"y\"]\npositions = [\"y <= x\"]\n[[move]]\nlower = \"x\"\n",
        &[3, 3],
    );
    assert_eq!(
        err,
        "g: move 1 (lower x) from (1, 1) with t = 0 goes to (0, 1), which is not a position of the game (it breaks y <= x); a move must land on a position"
    );
    let err = refusal(
        "heaps = [\"x\", \"y\"]\n[[move]]\nlower = \"x\"\nto = \"(t, y - 1)\"\n",
        &[3, 3],
    );
    assert!(
        err.contains(
            "from (1, 0) with t = 0 goes to (0, -1), which leaves the game (y would be negative)"
        ),
        "{err}"
    );
}

#[test]
fn a_move_that_does_not_go_down_is_refused_as_loopy() {
    let err = refusal(
        "heaps = [\"x\", \"y\"]\n[[move]]\nlower = \"y\"\nto = \"(x + 1, t)\"\n",
        &[3, 3],
    );
    assert_eq!(
        err,
        "g: move 1 (lower y) from (0, 1) with t = 0 goes to (1, 0), which is not lower (lexicographically) than where it starts; every move must go down so the game ends: loopy games are out of scope"
    );
    // Lexicographically lower but outside the box: a larger box is the fix.
    let err = refusal(
        "heaps = [\"x\", \"y\"]\n[[move]]\nlower = \"x\"\nto = \"(t, y + 1)\"\n",
        &[3, 3],
    );
    assert!(err.contains("from (1, 3) with t = 0 goes to (0, 4), outside the box 0..3 x 0..3 (y raised); give a `box`"), "{err}");
}

#[test]
fn overflow_and_memory_are_refused() {
    let err = refusal(
        "heaps = [\"x\", \"y\"]\n[[move]]\nlower = \"x\"\nto = \"(t, min(y, (2**(60 + t))**3))\"\n",
        &[2, 2],
    );
    assert_eq!(
        err,
        "g: move 1 (lower x) from (1, 0) with t = 0: arithmetic overflow (a value beyond 128-bit fractions) in its 'to'; the game file's arithmetic must stay within 128-bit fractions"
    );
    let err = refusal("heaps = [\"x\", \"y\"]\npositions = [\"y <= 10**40 * 10**x\"]\n[[move]]\nlower = \"x\"\nto = \"(t, 0)\"\n", &[2, 2]);
    assert!(
        err.starts_with("g: at (0, 0): arithmetic overflow"),
        "{err}"
    );
    let file = game("nim", &[]);
    let err = file
        .solve(&[2000, 2000, 2000], 1 << 30, &Control::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("Grundy values of nim in the box 0..2000 x 0..2000 x 0..2000")
            && err.contains("over the limit of 1.0 GiB"),
        "{err}"
    );
}

#[test]
fn parse_errors_name_file_line_and_key() {
    let err = |text: &str| {
        GameFile::parse("my.toml", text, &[])
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err("heaps = [\"x\"]\n[[move]]\nlower = \"x\"\n"),
        "my.toml:1: heaps: 1 heaps given; a game file has 2 to 6 heaps, e.g. heaps = [\"x\", \"y\"]"
    );
    assert_eq!(
        err("heaps = [\"x\", \"y\"]\npositions = [\"y <= res(x)\"]\n[[move]]\nlower = \"x\"\n"),
        "my.toml:2: positions: unknown function 'res' (the functions are floor, ceil, round, sqrt, isqrt, abs, mod, min, max, xor; a game file defines more under 'functions') at column 6 in 'y <= >>res<<(x)'"
    );
    assert_eq!(
        err("heaps = [\"x\", \"y\"]\n\n[[move]]\nlower = \"w\"\n"),
        "my.toml:4: move 1, lower: 'w' is not a heap; the heaps are x, y"
    );
    assert!(
        err("heaps = [\"x\", \"y\"]\n[[move]]\nlower = \"x\"\nto = \"(t)\"\n")
            .starts_with("my.toml:4: move 1, to: '(t)' has 1 entries; the game has 2 heaps")
    );
    assert!(err("heaps = [\"x\", \"y\"]\nmoves = 3\n")
        .starts_with("my.toml:2: TOML: unknown key `moves`"));
    assert!(err("heaps = [\"x\", \"y\"]\n").contains("no moves; add a [[move]] table"));
    let e = GameFile::parse("my.toml", shipped("triangular"), &[("q".into(), 1)])
        .unwrap_err()
        .to_string();
    assert_eq!(e, "`param` q=1: my.toml has no parameter 'q'; it takes k");
}

#[test]
fn parameters_and_names_reach_the_game() {
    let spec =
        GameSpec::from_game_file("t.toml", shipped("triangular"), &[("k".into(), 4)]).unwrap();
    assert_eq!(spec.name(), "triangular k=4");
    assert_eq!(spec.coordinate_names(), ["x", "y", "z"]);
    let g = game("triangular", &[("k", 7)]);
    assert_eq!(g.name(), "triangular k=7");
    assert!(g.is_position(&[7, 2, 7]) && !g.is_position(&[7, 3, 7]));
    assert_eq!(game("band-7-1", &[]).default_box(), Some(&[22u32, 23][..]));
}

#[test]
fn the_same_values_whatever_the_thread_count() {
    // 1.2 million tuples: over the size from which positions are found in parallel.
    let file = game("band-7-1", &[]);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| whole(&solve(&file, &[1100, 1101])));
    let many = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap()
        .install(|| whole(&solve(&file, &[1100, 1101])));
    assert_eq!(one.1.len(), 4400);
    assert_eq!(one, many);
}

#[test]
fn a_solve_of_days_is_refused_with_its_option_count_before_any_value() {
    // One heap of 10^7 lowered to anything below: sum of x = 5 * 10^13 options,
    // over two weeks; refused once the positions are known, counted exactly.
    let text = "heaps = [\"x\", \"y\"]\n[[move]]\nlower = \"x\"\n";
    let file = GameFile::parse("g.toml", text, &[]).unwrap();
    let err = file
        .solve(&[10_000_000, 0], 1 << 30, &Control::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "g: the box 0..10000000 x 0..0 has 50000005000000 options to try (about 17 days at about 30 ns each), over the 1000000000000 a solve may take; use a smaller `box`"
    );
    // The count is exact: a guard first (`y <= 0`, here every tuple) and a
    // second family on y add nothing, a take of both adds min(x, y) = 0 each.
    let file = GameFile::parse(
        "g.toml",
        "heaps = [\"x\", \"y\"]\npositions = [\"y <= 0\"]\n[[move]]\nlower = \"y\"\n[[move]]\ntake = [\"x\", \"y\"]\n",
        &[],
    )
    .unwrap();
    let (valid, _) = file
        .position_bits(&[1000, 0], 1001, &Control::default())
        .unwrap();
    assert_eq!(file.option_count(&[1000, 0], &valid), 0);
    let file = game("nim", &[]);
    let bounds = [3u32, 4, 5];
    let (valid, _) = file
        .position_bits(&bounds, 4 * 5 * 6, &Control::default())
        .unwrap();
    // Nim's options from (x, y, z) are x + y + z: summed over the box, by brute force.
    let mut brute = 0u64;
    for x in 0..=3u64 {
        for y in 0..=4u64 {
            for z in 0..=5u64 {
                brute += x + y + z;
            }
        }
    }
    assert_eq!(file.option_count(&bounds, &valid), brute);
}

#[test]
fn progress_counts_every_option_tried() {
    // The bar moves with the options (one unit a position besides), so a box
    // whose late positions have many options is not "stuck at 50%".
    let file = game("nim", &[]);
    let control = Control::default();
    file.solve_generic(&[3, 4, 5], LIMIT, &control).unwrap();
    let (done, total) = control.progress();
    let tuples = 4 * 5 * 6;
    let options: u64 = (0..=3u64)
        .flat_map(|x| (0..=4u64).flat_map(move |y| (0..=5u64).map(move |z| x + y + z)))
        .sum();
    assert_eq!((done, total), (2 * tuples + options, 2 * tuples + options));
}

/// The capped game y <= x ^ z, solved by memoised recursion with Rust's `^`:
/// an independent check of a game file that uses XOR in its positions and moves.
struct XorCap;

impl Game for XorCap {
    fn name(&self) -> String {
        "xor cap".into()
    }
    fn coordinate_names(&self) -> Vec<String> {
        vec!["x".into(), "y".into(), "z".into()]
    }
    fn is_position(&self, p: &[u32]) -> bool {
        p[1] <= p[0] ^ p[2]
    }
    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
        let [x, y, z] = [p[0], p[1], p[2]];
        for t in 0..y {
            f(&[x, t, z]);
        }
        for t in 0..x {
            f(&[t, y.min(t ^ z), z]);
        }
        for t in 0..z {
            f(&[x, y.min(x ^ t), t]);
        }
    }
}

#[test]
fn a_game_file_with_xor_in_its_positions_and_moves_agrees_with_rusts_xor() {
    let text = r#"
heaps = ["x", "y", "z"]
functions = ["cap(a, b) = a ^ b"]
positions = ["y <= x ^ z", "x ^ y ^ z >= 0", "(x & z) | (x ^ z) == x | z"]

[[move]]
lower = "y"

[[move]]
lower = "x"
to = "(t, min(y, cap(t, z)), z)"

[[move]]
lower = "z"
to = "(x, min(y, xor(x, t)), t)"
"#;
    let file = GameFile::parse("xor.toml", text, &[]).unwrap();
    let s = solve(&file, &[15, 15, 15]);
    let mut memo = MemoSolver::new(&XorCap);
    let mut positions = 0;
    for x in 0..=15u32 {
        for y in 0..=15u32 {
            for z in 0..=15u32 {
                let p = [x, y, z];
                if XorCap.is_position(&p) {
                    positions += 1;
                    assert_eq!(s.get(&p).map(u32::from), Some(memo.grundy(&p)), "{p:?}");
                } else {
                    assert_eq!(s.get(&p), None, "{p:?}");
                }
            }
        }
    }
    assert_eq!(s.len(), positions);
    // The old power reading of `^` is refused, naming `**`.
    let err = GameFile::parse("old.toml", &text.replace("a ^ b", "(a + b)^2"), &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("old.toml:3: functions: '^' is XOR") && err.contains("**"),
        "{err}"
    );
}

/// A random game file the recognisers do not know, on `n` heaps: positions
/// bounded by a sum (closed under lowering), moves that lower a heap to `t` and
/// then clamp other heaps (entries fixed in `t`, varying with it, or copies),
/// a `to` that clamps while it lowers, and a diagonal `take`; pass or misère
/// as asked. Every option is a lower position, so the file is always solvable.
pub(super) fn random_generic_file(n: usize, pick: &[u8], pass: bool, misere: bool) -> String {
    random_generic_file_within(n, pick, pass, misere, 3 * n + usize::from(pick[0] % 4))
}

/// [`random_generic_file`] with the heaps' sum at most `most`.
pub(super) fn random_generic_file_within(
    n: usize,
    pick: &[u8],
    pass: bool,
    misere: bool,
    most: usize,
) -> String {
    let heaps: Vec<String> = (0..n).map(|i| format!("h{i}")).collect();
    let quoted: Vec<String> = heaps.iter().map(|h| format!("\"{h}\"")).collect();
    let mut text = format!(
        "heaps = [{}]\npositions = [\"{} <= {}\"]\npass = {pass}\nmisere = {misere}\n",
        quoted.join(", "),
        heaps.join(" + "),
        most
    );
    let mut at = 1;
    let mut next = || {
        at += 1;
        pick[at % pick.len()]
    };
    // An entry of heap `hj` after lowering heap `h`: never above `hj`, so every
    // option stays a lower position. The overflowing sums decide on exact
    // fractions only (min(hj, a + 1)): the fast loop gives up there.
    let entry = |pick: u8, second: u8, h: &str, a: &str, b: &str, hj: &str| match pick % 10 {
        0 => hj.to_string(),
        1 => format!("min({a} + {b}, {hj})"),
        2 => format!("min(t + {}, {hj})", second % 3),
        3 => format!("min({h} // 2 + {}, {hj})", second % 2),
        4 => format!("max(min({a} - 1, {hj}), 0)"),
        5 => format!("min({hj}, t + {a} % 2)"),
        6 if second.is_multiple_of(4) => format!(
            "min({hj}, {a} + 4611686018427387904 + 4611686018427387904 - 9223372036854775807)"
        ),
        // Falling with `t`: a difference and a `max` after it.
        8 => format!("max({hj} - t - {}, 0)", second % 3),
        9 => format!("min(max({a} - t, {b}), {hj})"),
        _ => format!("min({a} + {b} + {}, {hj})", second % 2),
    };
    for (i, h) in heaps.iter().enumerate() {
        let (a, b) = (&heaps[(i + 1) % n], &heaps[(i + 2) % n]);
        let entries: Vec<String> = (0..n)
            .map(|j| {
                let hj = &heaps[j];
                let (pick, second) = (next(), next());
                if j == i {
                    hj.clone()
                } else {
                    entry(pick, second, h, a, b, hj)
                }
            })
            .collect();
        match next() % 3 {
            0 => text.push_str(&format!("[[move]]\nlower = \"{h}\"\n")),
            1 => text.push_str(&format!(
                "[[move]]\nlower = \"{h}\"\nthen = \"({})\"\n",
                entries.join(", ")
            )),
            _ => {
                let to: Vec<String> = entries
                    .iter()
                    .enumerate()
                    .map(|(j, e)| {
                        if j == i {
                            "t".into()
                        } else {
                            e.replace(&format!("{h} //"), "t //")
                        }
                    })
                    .collect();
                text.push_str(&format!(
                    "[[move]]\nlower = \"{h}\"\nto = \"({})\"\n",
                    to.join(", ")
                ));
            }
        }
    }
    // One table lowering every heap with one `then` (as the six-sided bar's):
    // entries fixed for some heaps and changing for others, shared.
    if next() % 2 == 0 {
        let then: Vec<String> = (0..n)
            .map(|j| {
                let (a, b) = (&heaps[(j + 1) % n], &heaps[(j + n - 1) % n]);
                let (pick, second) = (next(), next());
                entry(pick, second, a, a, b, &heaps[j])
            })
            .collect();
        text.push_str(&format!(
            "[[move]]\nlower = [{}]\nthen = \"({})\"\n",
            quoted.join(", "),
            then.join(", ")
        ));
    }
    if next() % 2 == 0 {
        text.push_str(&format!(
            "[[move]]\ntake = [\"{}\", \"{}\"]\nthen = \"({})\"\n",
            heaps[0],
            heaps[n - 1],
            (0..n)
                .map(|j| if j == 1 && n > 2 {
                    format!("min({}, {} + t)", heaps[1], heaps[0])
                } else {
                    heaps[j].clone()
                })
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    text
}

/// The value of `p` by recursion over [`GameFile::for_each_option`] (the slow
/// enumeration, independent of the solver's fast loop), pass and misère as the
/// file says: with the pass still available (`pass`), or without it.
fn recursive_value(
    file: &GameFile,
    p: &[u32],
    pass: bool,
    memo: &mut std::collections::HashMap<(Vec<u32>, bool), u32>,
) -> u32 {
    if let Some(&v) = memo.get(&(p.to_vec(), pass)) {
        return v;
    }
    let mut options: Vec<Vec<u32>> = Vec::new();
    file.for_each_option(p, &mut |o, _, _| {
        options.push(o.iter().map(|&c| u32::try_from(c).unwrap()).collect());
        Ok(())
    })
    .unwrap();
    let v = if options.is_empty() {
        u32::from(file.is_misere())
    } else {
        let mut seen: Vec<u32> = options
            .iter()
            .map(|o| recursive_value(file, o, pass, memo))
            .collect();
        if pass {
            seen.push(recursive_value(file, p, false, memo));
        }
        (0..).find(|v| !seen.contains(v)).unwrap()
    };
    memo.insert((p.to_vec(), pass), v);
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The generic solver's fast loop (fixed entries once per position, copies,
    /// plain families as index arithmetic) against a recursion over the slow
    /// enumeration of the same file, on random files of 2 to 4 heaps.
    #[test]
    fn random_generic_files_agree_with_a_recursion_over_their_options(
        n in 2usize..5, pick in proptest::collection::vec(any::<u8>(), 40),
        pass: bool, misere: bool, bound in 2u32..6,
    ) {
        let text = random_generic_file(n, &pick, pass, misere);
        let file = GameFile::parse("random.toml", &text, &[]).unwrap();
        let bounds = vec![bound; n];
        let s = Solution::Dense(file.solve_generic(&bounds, LIMIT, &Control::new()).unwrap());
        let mut memo = std::collections::HashMap::new();
        let mut positions = 0;
        for (p, v) in s.positions() {
            positions += 1;
            prop_assert_eq!(u32::from(v), recursive_value(&file, &p, pass, &mut memo), "{} at {:?}", text, p);
        }
        prop_assert!(positions > 0);
        let total: usize = bounds.iter().map(|&b| b as usize + 1).product();
        let expected = (0..total).filter(|&i| {
            let mut rest = i;
            let p: Vec<u32> = (0..n).rev().map(|_| { let c = (rest % (bound as usize + 1)) as u32; rest /= bound as usize + 1; c }).collect::<Vec<_>>().into_iter().rev().collect();
            file.is_position(&p)
        }).count();
        prop_assert_eq!(positions, expected);
    }
}
