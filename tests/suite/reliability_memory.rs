//! The memory guard is honest: for every figure kind, the estimate the guard checks
//! (the largest one a run computed) is within 1.5x of the peak resident size the
//! kernel measured for the child process, after adding the process's own baseline.

use super::support::nimscape;

/// What the binary itself holds before any figure (code, font, allocator): measured
/// at 9-12 MiB for small figures; the estimates cover the work on top of it.
const BASELINE_KIB: u64 = 11 * 1024;

/// Runs a figure with the peak-report hook; returns (estimate, peak) in KiB.
fn estimate_and_peak(args: &[&str]) -> (u64, u64) {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .env("NIMSCAPE_REPORT_PEAK_RSS", "1")
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    let field = |name: &str| -> u64 {
        let line = stderr
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no '{name}' in: {stderr}"));
        line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .unwrap()
    };
    (field("estimate"), field("peak-rss"))
}

#[test]
fn estimates_are_within_one_and_a_half_times_the_measured_peak() {
    let cases: &[&[&str]] = &[
        &["square", "--m", "1023", "--cell", "4", "-o", "a.png"],
        &["square", "--m", "2047", "-o", "a.svg"],
        &["square", "--m", "2047", "-o", "a.pdf"],
        &["square", "--m", "4095", "-o", "a.png"],
        &[
            "automaton",
            "--frames",
            "2000",
            "--cell",
            "2",
            "-o",
            "a.png",
        ],
        &[
            "octahedron",
            "view",
            "--n",
            "4",
            "--size",
            "4000",
            "-o",
            "a.png",
        ],
        &[
            "octahedron",
            "section",
            "--n",
            "8",
            "--level",
            "77",
            "--size",
            "4000",
            "-o",
            "a.png",
        ],
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "400",
            "-o",
            "a.csv",
        ],
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "400",
            "-o",
            "a.npy",
        ],
        &[
            "grundy", "nim", "--heaps", "4", "--box", "60", "-o", "a.npy",
        ],
    ];
    let mut report = Vec::new();
    for args in cases {
        let (estimate, peak) = estimate_and_peak(args);
        let expected = estimate + BASELINE_KIB;
        let ratio = expected as f64 / peak as f64;
        report.push(format!(
            "{args:?}: estimate {estimate} kB, peak {peak} kB, ratio {ratio:.2}"
        ));
        assert!((1.0 / 1.5..=1.5).contains(&ratio), "{}", report.join("\n"));
    }
}

#[test]
fn small_figures_never_pass_the_guard_far_below_their_peak() {
    // Here the baseline dominates; the guard must still not under-estimate the work.
    let cases: &[&[&str]] = &[
        &["square", "--m", "1..64", "-o", "a.gif"],
        &["square", "--m", "8191", "--raw", "-o", "a.png"],
        &[
            "octahedron",
            "section",
            "--n",
            "10",
            "--level",
            "777",
            "-o",
            "a.svg",
        ],
        &[
            "octahedron",
            "sweep",
            "--n",
            "6",
            "--frames",
            "40",
            "--size",
            "1024",
            "-o",
            "a.gif",
        ],
        &["count", "--m", "1..100000", "-o", "a.png"],
        &["automaton", "--frames", "1..300", "-o", "a.gif"],
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "40",
            "-o",
            "a.png",
        ],
    ];
    for args in cases {
        let (estimate, peak) = estimate_and_peak(args);
        assert!(
            peak <= (estimate + BASELINE_KIB) * 5 / 2,
            "{args:?}: estimate {estimate} kB + baseline, peak {peak} kB"
        );
    }
}
