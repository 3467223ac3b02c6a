//! `.npy` outputs load with the real `numpy.load` and hold exactly what the `.csv`
//! outputs list. NumPy is required in CI (`.ci/run` installs it): there a missing
//! NumPy fails the test; elsewhere the test says so and passes.

use super::support::run_ok;
use std::process::Command;

/// A Python that imports NumPy: `$NIMSCAPE_PYTHON`, `python3`, or the system one.
fn python_with_numpy() -> Option<String> {
    let candidates = std::env::var("NIMSCAPE_PYTHON")
        .into_iter()
        .chain(["python3".to_string(), "/usr/bin/python3".to_string()]);
    for python in candidates {
        let ok = Command::new(&python)
            .args(["-c", "import numpy"])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(python);
        }
    }
    None
}

fn python_or_skip() -> Option<String> {
    let python = python_with_numpy();
    if python.is_none() {
        assert!(
            std::env::var("CI").is_err(),
            "CI needs NumPy for the .npy tests (apt-get install python3-numpy)"
        );
        eprintln!("skipping: no Python with NumPy here (CI installs it)");
    }
    python
}

/// Runs a Python check in `dir`; it prints "ok" when every assertion held.
fn check(python: &str, dir: &std::path::Path, script: &str) {
    let out = Command::new(python)
        .current_dir(dir)
        .args(["-c", script])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "python: {stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "ok",
        "{stderr}"
    );
}

#[test]
fn grundy_boxes_load_and_match_the_csv() {
    let Some(python) = python_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (name, args) in [
        (
            "tri",
            &["grundy", "triangular", "--k", "3", "--box", "20"][..],
        ),
        ("band", &["grundy", "band-7-1"]),
        ("nim", &["grundy", "nim", "--heaps", "4", "--box", "5"]),
        (
            "cap",
            &["grundy", "--cap", "round(sqrt(x+z))", "--box", "9,4,7"],
        ),
    ] {
        for ext in ["npy", "csv"] {
            let file = format!("{name}.{ext}");
            run_ok(d, &[args, &["-o", &file]].concat());
        }
        check(
            &python,
            d,
            &format!(
                r#"
import csv, numpy as np
a = np.load("{name}.npy")
assert a.dtype == np.uint16, a.dtype
rows = list(csv.reader(open("{name}.csv")))[1:]
seen = np.zeros(a.shape, dtype=bool)
for r in rows:
    p = tuple(int(c) for c in r[:-1])
    assert a[p] == int(r[-1]), (p, a[p], r)
    seen[p] = True
assert (a[~seen] == 65535).all(), "a tuple outside the game is not 65535"
if "{name}" in ("tri", "cap"):
    # A capped game's y axis stops at its tallest column.
    assert a.shape[1] == max(int(r[1]) for r in rows) + 1, a.shape
print("ok")
"#
            ),
        );
    }
    // A slice drops the fixed axis.
    for (slice, file) in [("y=2", "s.npy"), ("z=20", "z.npy")] {
        let args = ["grundy", "triangular", "--k", "3", "--box", "20"];
        run_ok(d, &[&args[..], &["--slice", slice, "-o", file]].concat());
    }
    check(
        &python,
        d,
        r#"
import numpy as np
a, s, z = np.load("tri.npy"), np.load("s.npy"), np.load("z.npy")
assert a.shape == (21, 14, 21), a.shape  # y <= floor((20 + 20) / 3)
assert s.shape == (21, 21) and (s == a[:, 2, :]).all()
assert z.shape == (21, 14) and (z == a[:, :, 20]).all()
print("ok")
"#,
    );
}

#[test]
fn boards_frames_and_counts_load_as_the_csv_says() {
    let Some(python) = python_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_ok(d, &["square", "--m", "11", "--n", "7", "-o", "b.npy"]);
    run_ok(d, &["square", "--m", "11", "--n", "7", "-o", "b.csv"]);
    run_ok(
        d,
        &[
            "automaton",
            "--frames",
            "3..9",
            "--modulus",
            "5",
            "-o",
            "f.npy",
        ],
    );
    run_ok(
        d,
        &[
            "automaton",
            "--frames",
            "3..9",
            "--modulus",
            "5",
            "-o",
            "f.csv",
        ],
    );
    run_ok(d, &["count", "--m", "1..100", "-o", "c.npy"]);
    run_ok(d, &["count", "--m", "1..100", "-o", "c.csv"]);
    check(
        &python,
        d,
        r#"
import csv, numpy as np
b = np.load("b.npy")
assert b.dtype == np.uint8 and b.shape == (11, 7)
cells = {(int(i), int(j)) for i, j in list(csv.reader(open("b.csv")))[1:]}
assert {(i + 1, j + 1) for i, j in zip(*np.nonzero(b))} == cells
f = np.load("f.npy")
assert f.dtype == np.uint16 and f.shape == (7, 9, 9)
want = np.zeros(f.shape, dtype=np.uint16)
for n, i, j, v in list(csv.reader(open("f.csv")))[1:]:
    want[int(n) - 3, int(i) - 1, int(j) - 1] = int(v)
assert (f == want).all()
c = np.load("c.npy")
assert c.dtype == np.uint64 and c.shape == (100, 2)
rows = [(int(m), int(g)) for m, g in list(csv.reader(open("c.csv")))[1:]]
assert [tuple(r) for r in c.tolist()] == rows
print("ok")
"#,
    );
}
