//! Conjecture surveys from recipes (`[[survey]]`): the same request layer as
//! `nimscape survey`, so the same reports byte for byte; a game file named
//! relative to the recipe; bad values as one line naming the recipe's key.

use super::support::{assert_one_line_error, nimscape, run_ok};
use std::path::Path;

fn games() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// A folder with `recipes/tri.toml` (the triangular game file) and
/// `recipes/set.toml` holding `recipe`.
fn setup(recipe: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("recipes")).unwrap();
    std::fs::copy(games().join("triangular.toml"), d.join("recipes/tri.toml")).unwrap();
    std::fs::write(d.join("recipes/set.toml"), recipe).unwrap();
    dir
}

const SURVEY: &str = r#"title = "Surveys"
name = "set"

[[survey]]
name = "tri"
caption = "The triangular bar over k"
game = "tri.toml"
param = "k=1..4"
box = 12
find = ["shift", "constant", "nim-sum"]
shift = "x=-2..2,z=-2..2"
list = 3
formats = ["md", "json", "csv"]
quick = { param = "k=3" }
"#;

#[test]
fn survey_in_a_recipe_writes_the_command_lines_reports_byte_for_byte() {
    let dir = setup(SURVEY);
    let d = dir.path();
    run_ok(
        d,
        &["render", "--quiet", "--out", "out", "recipes/set.toml"],
    );
    // The game file is read from the recipe's folder, so the command line that
    // runs the same survey from here names it recipes/tri.toml.
    let words = [
        "survey",
        "recipes/tri.toml",
        "--param",
        "k=1..4",
        "--box",
        "12",
        "--find",
        "shift,constant,nim-sum",
        "--shift",
        "x=-2..2,z=-2..2",
        "--list",
        "3",
    ];
    std::fs::create_dir(d.join("cli")).unwrap();
    let mut args = words.to_vec();
    args.extend([
        "-q",
        "-o",
        "cli/tri.md",
        "-o",
        "cli/tri.json",
        "-o",
        "cli/tri.csv",
    ]);
    run_ok(d, &args);
    let mut compared = 0;
    for file in std::fs::read_dir(d.join("cli")).unwrap() {
        let name = file.unwrap().file_name();
        let cli = std::fs::read(d.join("cli").join(&name)).unwrap();
        let recipe = std::fs::read(d.join("out/set").join(&name))
            .unwrap_or_else(|e| panic!("{name:?} not written by the recipe: {e}"));
        assert!(
            cli == recipe,
            "{name:?} differs between the recipe and the CLI"
        );
        compared += 1;
    }
    // The page, its JSON and CSV, and one figure per value.
    assert_eq!(compared, 3 + 4);
    let page = std::fs::read_to_string(d.join("out/set/tri.md")).unwrap();
    assert!(page.contains("(tri-k3.png)"), "{page}");
    assert!(
        page.contains(&format!("Made by `nimscape {}`", words.join(" "))),
        "{page}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("out/set/tri.json")).unwrap())
            .unwrap();
    assert_eq!(report["values"].as_array().unwrap().len(), 4);
    // The gallery page links the reports and gives the command.
    let index = std::fs::read_to_string(d.join("out/set/index.md")).unwrap();
    assert!(index.contains("## tri (survey)"), "{index}");
    assert!(index.contains("[tri.json](tri.json)"), "{index}");
    assert!(
        index.contains(&format!("nimscape {}", words.join(" "))),
        "{index}"
    );
}

#[test]
fn a_recipe_survey_takes_quick_overrides_and_only() {
    let recipe = format!(
        "{SURVEY}\n[[figure]]\nname = \"table\"\nmodel = \"grundy\"\ngame = \"tri.toml\"\nbox = 6\nformats = [\"csv\"]\n"
    );
    let dir = setup(&recipe);
    let d = dir.path();
    run_ok(
        d,
        &[
            "render",
            "--quiet",
            "--quick",
            "--only",
            "tri",
            "--out",
            "out",
            "recipes/set.toml",
        ],
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("out/set/tri.json")).unwrap())
            .unwrap();
    let values: Vec<i64> = report["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values, [3]);
    assert!(
        !d.join("out/set/table.csv").exists(),
        "--only drew the figure too"
    );
    assert!(d.join("out/set/tri-k3.png").exists());
}

#[test]
fn a_bad_survey_value_in_a_recipe_is_one_line_naming_the_key_and_its_line() {
    let cases = [
        // (the line to put in the survey, what the error says)
        (
            "find = \"shift,colour\"",
            "recipes/set.toml:9: survey 's': find: unknown finder 'colour'; choose from shift, constant, nim-sum, period",
        ),
        (
            "list = \"many\"",
            "recipes/set.toml:9: survey 's': invalid value 'many' for list",
        ),
        (
            "shift = \"w=0..1\"",
            "recipes/set.toml:9: survey 's': shift",
        ),
        (
            "colour = \"navy\"",
            "recipes/set.toml:9: survey 's': 'colour' is not a parameter of model 'survey'",
        ),
        (
            "formats = [\"png\"]",
            "recipes/set.toml:9: key 'formats' of a survey: unknown report '\"png\"'; allowed: a list of md, json, csv",
        ),
    ];
    for (line, needle) in cases {
        let recipe = format!(
            "title = \"t\"\nname = \"set\"\n\n[[survey]]\nname = \"s\"\ncap = \"floor((x+z)**2/k)\"\nparam = \"k=1..3\"\nbox = 8\n{line}\n"
        );
        let dir = setup(&recipe);
        let d = dir.path();
        let output = nimscape(d)
            .args(["render", "--out", "out", "recipes/set.toml"])
            .output()
            .unwrap();
        assert_one_line_error(&output, needle);
        assert!(
            !d.join("out/set/s.md").exists(),
            "{line}: a report was written"
        );
    }
    // A missing game file names the `game` key's line and the path it tried.
    let dir =
        setup("[[survey]]\nname = \"s\"\ngame = \"missing.toml\"\nparam = \"k=1..3\"\nbox = 8\n");
    let output = nimscape(dir.path())
        .args(["render", "--out", "out", "recipes/set.toml"])
        .output()
        .unwrap();
    assert_one_line_error(
        &output,
        "recipes/set.toml:3: survey 's': cannot read game file 'recipes/missing.toml'",
    );
}
