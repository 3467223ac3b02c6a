//! `nimscape grundy --game FILE` from the outside: the shipped game files draw and
//! write what the built-in games do, parameters and recipes reach them, and every
//! bad file or refused move is one line.

use super::support::{
    assert_one_line_error, assert_same_bytes_across_thread_counts, decode_png, nimscape, run_ok,
};
use std::path::{Path, PathBuf};

fn games() -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "games"].iter().collect()
}

fn game(name: &str) -> String {
    games().join(name).display().to_string()
}

fn bytes(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

#[test]
fn grundy_game_file_band_7_1_writes_the_built_in_table_and_data() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = game("band-7-1.toml");
    for ext in ["csv", "json", "npy", "png", "svg"] {
        run_ok(
            d,
            &["grundy", "--game", &file, "-o", &format!("file.{ext}")],
        );
        run_ok(d, &["grundy", "band-7-1", "-o", &format!("builtin.{ext}")]);
    }
    // Data: the same bytes (the game file is named band-7-1 too).
    for ext in ["csv", "json", "npy"] {
        assert_eq!(
            bytes(d, &format!("file.{ext}")),
            bytes(d, &format!("builtin.{ext}")),
            "{ext}"
        );
    }
    // Pictures: the same pixels (only the recorded command line differs).
    let (a, b) = (
        decode_png(&bytes(d, "file.png")),
        decode_png(&bytes(d, "builtin.png")),
    );
    assert_eq!((a.0, a.1, &a.4), (b.0, b.1, &b.4));
    let csv = std::fs::read_to_string(d.join("file.csv")).unwrap();
    assert_eq!(csv.lines().next(), Some("x,y,grundy"));
    // The positional takes a game file too.
    run_ok(d, &["grundy", &file, "--box", "10", "-o", "positional.csv"]);
    assert!(std::fs::read_to_string(d.join("positional.csv"))
        .unwrap()
        .starts_with("x,y,grundy\n0,0,0\n"));
}

#[test]
fn grundy_game_file_parameters_match_the_built_in_game() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = game("triangular.toml");
    run_ok(
        d,
        &[
            "grundy", "--game", &file, "--param", "k=5", "--box", "15", "-o", "f.csv",
        ],
    );
    run_ok(
        d,
        &[
            "grundy",
            "triangular",
            "--k",
            "5",
            "--box",
            "15",
            "-o",
            "b.csv",
        ],
    );
    assert_eq!(bytes(d, "f.csv"), bytes(d, "b.csv"));
    for (args, name) in [
        (vec!["--box", "20", "--plot", "sieve"], "sieve.png"),
        (vec!["--box", "12"], "points.png"),
        (vec!["--box", "12", "--slice", "z=5"], "slice.png"),
    ] {
        let mut all = vec!["grundy", "--game", file.as_str()];
        all.extend(args);
        all.extend(["-o", name]);
        run_ok(d, &all);
        assert!(decode_png(&bytes(d, name)).0 > 100, "{name}");
    }
    // Several parameters: repeated, or separated by commas (a recipe's list, a Python dict).
    let band = game("band-7-2.toml");
    run_ok(
        d,
        &[
            "grundy", "--game", &band, "--param", "k=2", "--param", "h=1", "-o", "p1.csv",
        ],
    );
    run_ok(
        d,
        &[
            "grundy", "--game", &band, "--param", "k=2,h=1", "-o", "p2.csv",
        ],
    );
    run_ok(
        d,
        &[
            "grundy", "band-7-2", "--k", "2", "--h", "1", "--box", "30,30", "-o", "p3.csv",
        ],
    );
    assert_eq!(bytes(d, "p1.csv"), bytes(d, "p2.csv"));
    assert_eq!(bytes(d, "p1.csv"), bytes(d, "p3.csv"));
    assert_same_bytes_across_thread_counts(
        d,
        &["grundy", "--game", &file, "--param", "k=2", "--box", "30"],
        "t.npy",
    );
}

#[test]
fn grundy_wythoff_with_a_pass_is_drawn_as_points() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = game("wythoff-pass.toml");
    run_ok(
        d,
        &[
            "grundy", "--game", &file, "--box", "100", "--plot", "points", "-o", "w.png",
        ],
    );
    run_ok(
        d,
        &[
            "grundy", "--game", &file, "--box", "100", "--p-only", "-o", "w.csv",
        ],
    );
    let rows = std::fs::read_to_string(d.join("w.csv")).unwrap();
    // P-positions come in mirror pairs.
    let points: Vec<(u32, u32)> = rows
        .lines()
        .skip(1)
        .map(|l| {
            let v: Vec<u32> = l.split(',').map(|c| c.parse().unwrap()).collect();
            (v[0], v[1])
        })
        .collect();
    assert!(points.len() > 60, "{}", points.len());
    for &(x, y) in &points {
        assert!(points.contains(&(y, x)), "({x}, {y}) without its mirror");
    }
    let (w, h, ..) = decode_png(&bytes(d, "w.png"));
    assert!(w > 300 && h > 300);
}

#[test]
fn grundy_game_file_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bad.toml"), "heaps = [\"x\", \"y\"]\npositions = [\"y <= x\"]\n\n[[move]]\nlower = \"x\"\nto = \"(t, y, 3)\"\n").unwrap();
    std::fs::write(
        d.join("leaves.toml"),
        "heaps = [\"x\", \"y\"]\npositions = [\"y <= x\"]\n[[move]]\nlower = \"x\"\n",
    )
    .unwrap();
    std::fs::write(
        d.join("overflow.toml"),
        "heaps = [\"x\", \"y\"]\n[[move]]\nlower = \"x\"\nto = \"(t, min(y, (2**(60 + t))**3))\"\n",
    )
    .unwrap();
    std::fs::write(
        d.join("loopy.toml"),
        "heaps = [\"x\", \"y\"]\n[[move]]\nlower = \"y\"\nto = \"(x + 1, t)\"\n",
    )
    .unwrap();
    let tri = game("triangular.toml");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--game", "bad.toml", "--box", "5", "-o", "a.csv"],
            "bad.toml:6: move 1, to: '(t, y, 3)' has 3 entries; the game has 2 heaps",
        ),
        (
            vec!["--game", "leaves.toml", "--box", "5", "-o", "a.csv"],
            "leaves: move 1 (lower x) from (1, 1) with t = 0 goes to (0, 1), which is not a position of the game (it breaks y <= x)",
        ),
        (
            vec!["--game", "overflow.toml", "--box", "3", "-o", "a.csv"],
            "overflow: move 1 (lower x) from (1, 0) with t = 0: arithmetic overflow (a value beyond 128-bit fractions) in its 'to';",
        ),
        (
            vec!["--game", "loopy.toml", "--box", "3", "-o", "a.csv"],
            "loopy: move 1 (lower y) from (0, 1) with t = 0 goes to (1, 0), which is not lower (lexicographically) than where it starts; every move must go down so the game ends: loopy games are out of scope",
        ),
        (
            vec!["--game", "missing.toml", "--box", "5", "-o", "a.csv"],
            "cannot read game file 'missing.toml'",
        ),
        (
            vec!["--game", &tri, "--param", "q=1", "--box", "5", "-o", "a.csv"],
            "--param q=1: ",
        ),
        (
            vec!["--game", &tri, "--param", "k", "--box", "5", "-o", "a.csv"],
            "--param 'k': no '='; write NAME=INTEGER",
        ),
        (
            vec!["--game", &tri, "--k", "3", "--box", "5", "-o", "a.csv"],
            "--k is for the built-in games; a game file sets its parameters with --param",
        ),
        (
            vec!["triangular", "--game", &tri, "--box", "5", "-o", "a.csv"],
            "give a built-in game ('triangular') or a game file (--game FILE), not both",
        ),
        (
            vec!["nim", "--param", "k=3", "--box", "5", "-o", "a.csv"],
            "--param sets a game file's parameters",
        ),
        (
            vec!["--game", &tri, "-o", "a.csv"],
            "--box is required for a game file",
        ),
        (
            vec!["--game", &tri, "--box", "3000", "-o", "a.csv", "--max-memory", "1G"],
            "Grundy values of triangular k=3 in the box 0..3000 x 0..3000 x 0..3000",
        ),
    ];
    for (args, needle) in cases {
        let output = nimscape(d).arg("grundy").args(&args).output().unwrap();
        assert_one_line_error(&output, needle);
    }
}

#[test]
fn grundy_game_file_in_a_recipe_is_named_relative_to_the_recipe() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("recipes")).unwrap();
    std::fs::copy(games().join("wythoff.toml"), d.join("recipes/w.toml")).unwrap();
    std::fs::write(
        d.join("recipes/set.toml"),
        "title = \"t\"\nname = \"set\"\n[[figure]]\nname = \"w\"\nmodel = \"grundy\"\ngame = \"w.toml\"\nbox = 20\nformats = [\"csv\", \"png\"]\n",
    )
    .unwrap();
    run_ok(
        d,
        &["render", "--quiet", "--out", "out", "recipes/set.toml"],
    );
    let csv = std::fs::read_to_string(d.join("out/set/w.csv")).unwrap();
    assert!(csv.starts_with("x,y,grundy\n0,0,0\n"), "{csv}");
    assert!(d.join("out/set/w.png").exists());
}

#[test]
fn positions_are_evaluated_left_to_right_and_stop_at_the_first_failure() {
    // docs/games.md: the guard first keeps 10/x from ever dividing by zero; the
    // other order reaches it at (0, 0).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let write = |name: &str, positions: &str| {
        std::fs::write(
            d.join(name),
            format!("heaps = [\"x\", \"y\"]\npositions = {positions}\n[[move]]\nlower = \"y\"\n"),
        )
        .unwrap();
    };
    write("guarded.toml", r#"["x >= 1", "y <= 10/x"]"#);
    write("unguarded.toml", r#"["y <= 10/x", "x >= 1"]"#);
    let csv = run_ok(
        d,
        &[
            "grundy",
            "--game",
            "guarded.toml",
            "--box",
            "3,10",
            "-o",
            "-",
            "--format",
            "csv",
        ],
    );
    assert!(csv.lines().count() > 1, "{csv}");
    assert!(
        !csv.lines().any(|l| l.starts_with("0,")),
        "x = 0 is no position: {csv}"
    );
    let out = nimscape(d)
        .args([
            "grundy",
            "--game",
            "unguarded.toml",
            "--box",
            "3,10",
            "-o",
            "x.csv",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, "at (0, 0): division by zero in 'positions'");
}

/// Pass and misère on `--cap`, from the command line as a user types them: the same
/// CSV as the shipped variants of min-k (whose values the model's tests check against
/// the generic solver and a brute-force search), a solver report, and one-line refusals.
#[test]
fn grundy_cap_with_a_pass_or_misere_matches_the_shipped_variants() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (file, flags) in [
        ("min-k-pass.toml", &["--pass"][..]),
        ("min-k-misere.toml", &["--misere"][..]),
    ] {
        run_ok(
            d,
            &[
                "grundy",
                "--game",
                &game(file),
                "--box",
                "30",
                "-o",
                "file.csv",
            ],
        );
        let mut args = vec![
            "grundy",
            "--cap",
            "floor(min(x,z)/2)",
            "--box",
            "30",
            "-o",
            "cap.csv",
        ];
        args.extend_from_slice(flags);
        run_ok(d, &args);
        assert_eq!(bytes(d, "file.csv"), bytes(d, "cap.csv"), "{file}");
    }
    // With a pass, (0, 0, 1) is worth 2: its move to (0, 0, 0) and its pass to the
    // game without a pass, where it is worth 1.
    let csv = std::fs::read_to_string(d.join("file.csv")).unwrap();
    assert!(
        csv.starts_with("x,y,z,grundy\n0,0,0,1\n"),
        "misère: {csv:.40}"
    );
    let out = run_ok(
        d,
        &[
            "grundy",
            "--game",
            &game("min-k-pass.toml"),
            "--box",
            "20",
            "--time",
        ],
    );
    assert!(
        out.contains(
            "solver: capped (tiled) (the file is y <= cap(x, z) with the capped games' three moves"
        ),
        "{out}"
    );
    let out = run_ok(
        d,
        &[
            "grundy",
            "--game",
            &game("wythoff.toml"),
            "--box",
            "20",
            "--time",
        ],
    );
    assert!(
        out.contains("solver: generic (not a capped game: it has 2 heaps, not 3"),
        "{out}"
    );
    let out = run_ok(
        d,
        &[
            "grundy",
            "--game",
            &game("band-7-1.toml"),
            "--box",
            "40",
            "--time",
        ],
    );
    assert!(
        out.contains("solver: band (the file is the built-in band-7-1 (Example 7.1"),
        "{out}"
    );

    let refused = nimscape(d)
        .args(["grundy", "nim", "--pass", "--box", "3", "-o", "x.csv"])
        .output()
        .unwrap();
    assert_one_line_error(
        &refused,
        "a pass and misère play exist for the capped games",
    );
    let refused = nimscape(d)
        .args([
            "grundy",
            "--game",
            &game("min-k.toml"),
            "--misere",
            "--box",
            "3",
            "-o",
            "x.csv",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&refused, "write misere = true in the file");
    assert!(!d.join("x.csv").exists());
}

/// A recipe's Grundy figure with `time = true` reports its solver the way
/// `grundy --time` does (the same request, the same words): the capped solver
/// for a recognised game file, the generic one with its reason for another.
#[test]
fn a_recipe_with_time_reports_the_solver_as_the_command_line_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let recipe = format!(
        "name = \"solvers\"\n\n\
         [[figure]]\nname = \"min-k\"\nmodel = \"grundy\"\ncaption = \"min-k\"\n\
         game = '{}'\nbox = 20\ntime = true\nformats = [\"csv\"]\n\n\
         [[figure]]\nname = \"wythoff\"\nmodel = \"grundy\"\ncaption = \"Wythoff\"\n\
         game = '{}'\nbox = 12\ntime = true\nformats = [\"csv\"]\n\n\
         [[figure]]\nname = \"untimed\"\nmodel = \"grundy\"\ncaption = \"nim\"\n\
         game = '{}'\nbox = 5\nformats = [\"csv\"]\n",
        game("min-k.toml"),
        game("wythoff.toml"),
        game("nim.toml"),
    );
    std::fs::write(d.join("r.toml"), recipe).unwrap();
    let rendered = run_ok(d, &["render", "r.toml", "--out", "out", "--quiet"]);
    for (name, file, size) in [
        ("min-k", "min-k.toml", "20"),
        ("wythoff", "wythoff.toml", "12"),
    ] {
        let cli = run_ok(
            d,
            &["grundy", "--game", &game(file), "--box", size, "--time"],
        );
        let solver = cli
            .lines()
            .find(|l| l.starts_with("solver: "))
            .unwrap_or_else(|| panic!("{cli}"));
        assert!(
            rendered.contains(&format!("{name}: {solver}\n")),
            "{rendered}\n{cli}"
        );
    }
    assert!(
        rendered.contains("min-k: solver: capped (tiled) (the file is y <= cap(x, z)"),
        "{rendered}"
    );
    assert!(
        rendered.contains("wythoff: solver: generic (not a capped game"),
        "{rendered}"
    );
    assert!(!rendered.contains("untimed"), "{rendered}");
    assert!(d.join("out/solvers/min-k.csv").exists());
}

/// docs/games.md's table of the shipped game files says which solver each runs
/// on: every file of games/ has a row, and the row's solver is the one the
/// recogniser chooses (on the file's own box, or 12 per heap).
#[test]
fn docs_games_md_names_each_shipped_files_solver_as_the_recogniser_chooses() {
    let docs: PathBuf = [env!("CARGO_MANIFEST_DIR"), "docs", "games.md"]
        .iter()
        .collect();
    let docs = std::fs::read_to_string(docs).unwrap();
    let rows: std::collections::BTreeMap<String, String> = docs
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let file = cells.get(1)?.strip_prefix('`')?.strip_suffix(".toml`")?;
            Some((format!("{file}.toml"), cells.get(3)?.to_string()))
        })
        .collect();
    let mut shipped: Vec<String> = std::fs::read_dir(games())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".toml"))
        .collect();
    shipped.sort();
    assert_eq!(
        shipped,
        rows.keys().cloned().collect::<Vec<_>>(),
        "docs/games.md lists the files of games/"
    );
    for name in &shipped {
        let text = std::fs::read_to_string(games().join(name)).unwrap();
        let file = nimscape_model::games::GameFile::parse(name, &text, &[]).unwrap();
        let bounds = file
            .default_box()
            .map(<[u32]>::to_vec)
            .unwrap_or_else(|| vec![12; file.heap_names().len()]);
        let choice = file
            .solver_choice(&bounds, &nimscape::Control::new())
            .unwrap();
        let documented = rows[name].to_lowercase();
        assert!(
            documented.starts_with(&choice.solver),
            "docs/games.md says {name} runs on '{}', the recogniser chooses '{}' ({})",
            rows[name],
            choice.solver,
            choice.why
        );
    }
}
