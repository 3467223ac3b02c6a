//! The template sets and the game files they name, built into the binary, so
//! `nimscape render` (no recipe) or `render --builtin okubo2026` works in any
//! folder, `cargo install` included. An embedded recipe is named
//! `templates/<name>.toml` and reads its games (`../games/x.toml`) from the
//! copies here, never from the disk.

use super::file::Recipe;
use crate::{Error, Result};
use std::path::Path;

/// The recipes of `templates/`, by set name, in name order.
pub(crate) const TEMPLATES: [(&str, &str); 6] = [
    (
        "game-files",
        include_str!("../../templates/game-files.toml"),
    ),
    ("min-half", include_str!("../../templates/min-half.toml")),
    (
        "miyadera-tables",
        include_str!("../../templates/miyadera-tables.toml"),
    ),
    (
        "miyadera-triangular",
        include_str!("../../templates/miyadera-triangular.toml"),
    ),
    ("okubo2026", include_str!("../../templates/okubo2026.toml")),
    ("six-sided", include_str!("../../templates/six-sided.toml")),
];

/// The game files of `games/`, by file name.
pub(crate) const GAMES: [(&str, &str); 14] = [
    ("band-7-1.toml", include_str!("../../games/band-7-1.toml")),
    ("band-7-2.toml", include_str!("../../games/band-7-2.toml")),
    (
        "cap-square.toml",
        include_str!("../../games/cap-square.toml"),
    ),
    ("min-half.toml", include_str!("../../games/min-half.toml")),
    ("min-k.toml", include_str!("../../games/min-k.toml")),
    (
        "min-k-misere.toml",
        include_str!("../../games/min-k-misere.toml"),
    ),
    (
        "min-k-pass.toml",
        include_str!("../../games/min-k-pass.toml"),
    ),
    (
        "misere-nim.toml",
        include_str!("../../games/misere-nim.toml"),
    ),
    ("nim-pass.toml", include_str!("../../games/nim-pass.toml")),
    ("nim.toml", include_str!("../../games/nim.toml")),
    ("six-sided.toml", include_str!("../../games/six-sided.toml")),
    (
        "triangular.toml",
        include_str!("../../games/triangular.toml"),
    ),
    (
        "wythoff-pass.toml",
        include_str!("../../games/wythoff-pass.toml"),
    ),
    ("wythoff.toml", include_str!("../../games/wythoff.toml")),
];

/// The embedded recipes named (all of them when `names` is empty), parsed.
pub fn recipes(names: &[String]) -> Result<Vec<Recipe>> {
    let known = || {
        TEMPLATES
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut chosen = Vec::new();
    for name in names {
        let name = name.trim_end_matches(".toml");
        match TEMPLATES.iter().find(|(n, _)| *n == name) {
            Some(found) => chosen.push(*found),
            None => {
                return Err(Error::invalid_request(format!(
                    "--builtin {name}: no built-in template set has that name; there are {}",
                    known()
                )))
            }
        }
    }
    if names.is_empty() {
        chosen = TEMPLATES.to_vec();
    }
    chosen
        .into_iter()
        .map(|(name, text)| {
            let mut recipe = Recipe::parse(Path::new(&format!("templates/{name}.toml")), text)?;
            recipe.embedded = true;
            Ok(recipe)
        })
        .collect()
}

/// The text of the embedded game file a built-in recipe names (`../games/x.toml`,
/// read from `templates/`), if there is one.
pub(crate) fn game(path: &str) -> Option<&'static str> {
    let path = Path::new(path);
    let file = path.file_name()?.to_str()?;
    let folder = path.parent()?.file_name()?.to_str()?;
    (folder == "games")
        .then(|| GAMES.iter().find(|(name, _)| *name == file))
        .flatten()
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_and_game_on_disk_is_embedded_as_it_is() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for (folder, embedded) in [
            ("templates", TEMPLATES.to_vec()),
            (
                "games",
                GAMES
                    .map(|(f, t)| (f.trim_end_matches(".toml"), t))
                    .to_vec(),
            ),
        ] {
            let mut on_disk: Vec<String> = std::fs::read_dir(root.join(folder))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "toml"))
                .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
                .collect();
            on_disk.sort();
            let mut names: Vec<&str> = embedded.iter().map(|(n, _)| *n).collect();
            names.sort();
            assert_eq!(names, on_disk, "{folder}/ and the embedded copies differ");
        }
        assert!(recipes(&[]).unwrap().iter().all(|r| r.embedded));
        let nim = GAMES.iter().find(|(f, _)| *f == "nim.toml").unwrap().1;
        assert_eq!(game("templates/../games/nim.toml"), Some(nim));
        assert_eq!(game("templates/../other/nim.toml"), None);
        let err = recipes(&["nope".into()]).unwrap_err().to_string();
        assert!(
            err.starts_with("--builtin nope: no built-in template set"),
            "{err}"
        );
    }
}
