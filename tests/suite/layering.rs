//! The layering of the library as a test: what the compiler cannot see
//! (docs: ARCHITECTURE.md).
//!
//! ```text
//! model ─► figure ─► scene ─► encode        (data flows left to right)
//!             ▲
//!          request ◄── recipe · serve
//! ```
//!
//! The compiler keeps the rest: the model is its own crate, below everything;
//! `figure`, `scene` and `encode` are private to `src/library.rs`, so the
//! binary (`src/main.rs`, `src/cli/`), the Python module, the server and
//! `verify` cannot name them. What it cannot see is the order among the modules
//! that may name each other: the request layer's own modules, the figure layer
//! under it, scenes and encoders under that, the server and recipes above, and
//! no import circle among the files.
//!
//! Every `.rs` file of the library under `src/` (not the binary's) is read as
//! text; its crate-internal imports (`use crate::…`, `crate::a::b::f(…)` in
//! code, `super::…` and `self::…` resolved against the file's module path, and
//! bare paths into its own child modules) become edges of a graph whose nodes
//! are files (a folder's `mod.rs` is its own node). `crate::library::figure` is
//! the file `figure/mod.rs`: `library` nests the modules without moving their
//! files. Comments, doc comments (and their intra-doc links) and string literals
//! are ignored. A `mod x;` declaration is no edge; a child's `super::Item` is an
//! edge to its parent only when `Item` is no module, i.e. an item of the
//! parent's own file; `super::*` inside an inline `mod tests { }` names the file
//! itself and is no edge. The model crate (`crate::games`, `crate::Error`, …)
//! sits below everything and is no node.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Layers, from the top: a module's layer is its top-level module's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    FrontEnd,
    Request,
    Figure,
    Encode,
    Scene,
}

/// Which top-level module of `src/` belongs to which layer. `lib.rs` and
/// `main.rs` (the crate root and the binary's edge) are in none.
const LAYERS: &[(&str, Layer)] = &[
    ("recipe", Layer::FrontEnd),
    ("serve", Layer::FrontEnd),
    ("python", Layer::FrontEnd),
    ("request", Layer::Request),
    ("figure", Layer::Figure),
    ("verify", Layer::Figure),
    ("encode", Layer::Encode),
    ("scene", Layer::Scene),
];

/// What a layer may not import. A front end may not import *another* front end
/// (its own top-level module is the same module, not another one).
///
/// Encoders write scenes ("an encoder writes a scene as PNG, SVG, GIF frames, or
/// data"), so `encode` imports `scene`'s plain values (`Scene`, `Color`, units)
/// and `scene` — a plain value, no I/O — imports no encoder.
const FORBIDDEN: &[(Layer, &[Layer])] = &[
    (Layer::FrontEnd, &[Layer::FrontEnd]),
    (Layer::Request, &[Layer::FrontEnd]),
    (Layer::Figure, &[Layer::Request, Layer::FrontEnd]),
    (
        Layer::Encode,
        &[Layer::Figure, Layer::Request, Layer::FrontEnd],
    ),
    (
        Layer::Scene,
        &[
            Layer::Encode,
            Layer::Figure,
            Layer::Request,
            Layer::FrontEnd,
        ],
    ),
];

/// Finer rules: modules a layer may not import although their layer is allowed.
/// Encoders know scenes, not the boards and captions a scene is laid out from.
const FORBIDDEN_MODULES: &[(Layer, &str)] = &[
    (Layer::Encode, "scene::board"),
    (Layer::Encode, "scene::frames"),
];

// ---------------------------------------------------------------------------
// Reading the sources

/// Source text with comments, string and character literals blanked out
/// (newlines kept), so only code remains.
fn strip(source: &str) -> String {
    let c: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(i + k).copied().unwrap_or('\0');
        if at(0) == '/' && at(1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
                out.push(' ');
            }
        } else if at(0) == '/' && at(1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if at(0) == 'r'
            && (at(1) == '"' || (at(1) == '#' && (at(2) == '"' || at(2) == '#')))
            && (i == 0
                || !is_ident(c[i - 1])
                || (c[i - 1] == 'b' && (i == 1 || !is_ident(c[i - 2]))))
        {
            // Raw string r"…", r#"…"#: ends at a quote followed by as many hashes.
            let mut hashes = 0;
            let mut k = i + 1;
            while c.get(k) == Some(&'#') {
                hashes += 1;
                k += 1;
            }
            out.push('"');
            i = k + 1;
            while i < c.len() {
                if c[i] == '"' && (0..hashes).all(|h| c.get(i + 1 + h) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                blank(&mut out, c[i]);
                i += 1;
            }
            out.push('"');
        } else if at(0) == '"' {
            out.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if at(0) == '\'' && (at(1) == '\\' || at(2) == '\'') {
            // A character literal ('x', '\n', '\u{..}'); 'a without a closing
            // quote is a lifetime and stays.
            out.push('\'');
            i += 1;
            if c.get(i) == Some(&'\\') {
                out.push(' ');
                i += 1;
            }
            while i < c.len() && c[i] != '\'' {
                blank(&mut out, c[i]);
                i += 1;
            }
            out.push('\'');
            i += 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Ident(String),
    PathSep,
    Punct(char),
}

fn tokens(code: &str) -> Vec<Token> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if is_ident(c[i]) {
            let start = i;
            while i < c.len() && is_ident(c[i]) {
                i += 1;
            }
            out.push(Token::Ident(c[start..i].iter().collect()));
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push(Token::PathSep);
            i += 2;
        } else {
            if !c[i].is_whitespace() {
                out.push(Token::Punct(c[i]));
            }
            i += 1;
        }
    }
    out
}

/// A file's module path: `src/lib.rs` is `[]`, `src/a/mod.rs` is `[a]`,
/// `src/a/b.rs` is `[a, b]`.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The crate-internal paths a file names, made absolute (`crate::` dropped),
/// and the child modules it declares (`mod x;`).
#[derive(Debug, Default)]
struct FileUses {
    paths: Vec<Vec<String>>,
    children: BTreeSet<String>,
}

/// Extracts the paths of `source`, the text of the file of module `module`.
fn extract(source: &str, module: &[String]) -> FileUses {
    let toks = tokens(&strip(source));
    // Child modules first: a bare `png::f()` in `encode/mod.rs` names the child.
    let mut children = BTreeSet::new();
    for w in toks.windows(3) {
        if let [Token::Ident(m), Token::Ident(name), Token::Punct(';')] = w {
            if m == "mod" {
                children.insert(name.clone());
            }
        }
    }
    let mut uses = FileUses {
        paths: Vec::new(),
        children,
    };
    // Inline modules (`mod tests { … }`): (name, brace depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Token::Punct('{') => {
                depth += 1;
                i += 1;
                continue;
            }
            Token::Punct('}') => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
                continue;
            }
            Token::Ident(m) if m == "mod" => {
                if let (Some(Token::Ident(name)), Some(Token::Punct('{'))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((name.clone(), depth + 1));
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            _ => {}
        }
        let after_sep = i > 0 && toks[i - 1] == Token::PathSep;
        let here: Vec<String> = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect();
        let start: Option<Vec<String>> = match &toks[i] {
            Token::Ident(w) if !after_sep && toks.get(i + 1) == Some(&Token::PathSep) => {
                match w.as_str() {
                    "crate" => Some(Vec::new()),
                    "self" => Some(here.clone()),
                    "super" => Some(here[..here.len().saturating_sub(1)].to_vec()),
                    w if inline.is_empty() && uses.children.contains(w) => {
                        Some(module.iter().cloned().chain([w.to_string()]).collect())
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let Some(base) = start else {
            i += 1;
            continue;
        };
        let mut prefix = base;
        let mut k = i + 2;
        // Further `super::` segments climb on.
        while let (Some(Token::Ident(w)), Some(Token::PathSep)) = (toks.get(k), toks.get(k + 1)) {
            if w != "super" {
                break;
            }
            prefix.pop();
            k += 2;
        }
        k = use_tree(&toks, k, prefix, &mut uses.paths);
        i = k.max(i + 1);
    }
    uses
}

/// Reads a path or use tree from `toks[k]` on (after a `::`), pushing every
/// complete path onto `paths`; returns the index after it.
fn use_tree(
    toks: &[Token],
    mut k: usize,
    mut prefix: Vec<String>,
    paths: &mut Vec<Vec<String>>,
) -> usize {
    loop {
        match toks.get(k) {
            Some(Token::Ident(w)) => {
                if w != "self" {
                    prefix.push(w.clone());
                }
                k += 1;
                if toks.get(k) == Some(&Token::PathSep) {
                    k += 1;
                    continue;
                }
                paths.push(prefix);
                return k;
            }
            Some(Token::Punct('*')) => {
                paths.push(prefix);
                return k + 1;
            }
            Some(Token::Punct('{')) => {
                k += 1;
                loop {
                    match toks.get(k) {
                        None => return k,
                        Some(Token::Punct('}')) => return k + 1,
                        Some(Token::Punct(',')) => k += 1,
                        Some(Token::Ident(w)) if w == "as" => k += 2,
                        _ => {
                            let before = k;
                            k = use_tree(toks, k, prefix.clone(), paths);
                            if k == before {
                                k += 1;
                            }
                        }
                    }
                }
            }
            // `crate::` followed by `<` (a turbofish) or nothing usable.
            _ => {
                paths.push(prefix);
                return k;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The graph

/// Files as nodes (path relative to `src/`), edges to the files they import.
struct Graph {
    modules: BTreeMap<Vec<String>, String>,
    edges: BTreeMap<String, BTreeSet<String>>,
}

/// Builds the graph of `files`: (path relative to `src/`, source text).
fn graph(files: &[(String, String)]) -> Graph {
    let mut modules = BTreeMap::new();
    for (name, _) in files {
        modules.insert(module_of(Path::new(name)), name.clone());
    }
    // `pub use a::b;` at the crate root: `crate::b` is `crate::a::b`.
    let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some((_, lib)) = files.iter().find(|(n, _)| n == "lib.rs") {
        for line in strip(lib).lines() {
            let Some(rest) = line.trim().strip_prefix("pub use ") else {
                continue;
            };
            let rest = rest.trim_end_matches(';').trim();
            if rest.contains('{') {
                continue;
            }
            let (path, alias) = match rest.split_once(" as ") {
                Some((p, a)) => (p.trim(), a.trim().to_string()),
                None => (rest, rest.rsplit("::").next().unwrap_or("").to_string()),
            };
            let segments: Vec<String> = path.split("::").map(str::to_string).collect();
            if modules.contains_key(&segments[..1]) {
                aliases.insert(alias, segments);
            }
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, source) in files {
        let module = module_of(Path::new(name));
        let uses = extract(source, &module);
        let targets = edges.entry(name.clone()).or_default();
        for mut path in uses.paths {
            // `library` nests modules whose files stay at the top of `src/`.
            if path.first().is_some_and(|f| f == "library") {
                path.remove(0);
            }
            if let Some(real) = path.first().and_then(|f| aliases.get(f)) {
                path.splice(0..1, real.clone());
            }
            // The longest prefix that is a file's module; the crate root (and so
            // the model crate's re-exports) is no node.
            let node = (1..=path.len()).rev().find_map(|n| modules.get(&path[..n]));
            if let Some(node) = node {
                if node != name {
                    targets.insert(node.clone());
                }
            }
        }
    }
    Graph { modules, edges }
}

fn layer(file: &str) -> Option<Layer> {
    let top = module_of(Path::new(file)).into_iter().next()?;
    LAYERS.iter().find(|(m, _)| *m == top).map(|&(_, l)| l)
}

fn top(file: &str) -> String {
    module_of(Path::new(file))
        .into_iter()
        .next()
        .unwrap_or_default()
}

/// The layer rules broken by the edges of `g`, as `from -> to: reason`.
fn layer_violations(g: &Graph) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for (from, targets) in &g.edges {
        let Some(from_layer) = layer(from) else {
            continue;
        };
        for to in targets {
            let Some(to_layer) = layer(to) else {
                continue;
            };
            if top(from) == top(to) {
                continue;
            }
            let forbidden = FORBIDDEN
                .iter()
                .any(|(l, bad)| *l == from_layer && bad.contains(&to_layer));
            if forbidden {
                found.push((
                    from.clone(),
                    to.clone(),
                    format!("{from_layer:?} may not import {to_layer:?}"),
                ));
                continue;
            }
            let to_module = module_of(Path::new(to)).join("::");
            for (l, module) in FORBIDDEN_MODULES {
                if *l == from_layer
                    && (to_module == *module || to_module.starts_with(&format!("{module}::")))
                {
                    found.push((
                        from.clone(),
                        to.clone(),
                        format!("{from_layer:?} may not import {module}"),
                    ));
                }
            }
        }
    }
    found
}

/// The import circles of `g` without the `excused` edges: every strongly
/// connected component of more than one file, as one circle through it.
fn cycles(g: &Graph, excused: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    components(g, excused).into_iter().map(|(c, _)| c).collect()
}

/// Every strongly connected component of more than one file: one circle through
/// it and all its files.
fn components(
    g: &Graph,
    excused: &BTreeSet<(String, String)>,
) -> Vec<(Vec<String>, BTreeSet<String>)> {
    let nodes: Vec<&String> = g.edges.keys().collect();
    let next = |n: &String| -> Vec<String> {
        g.edges
            .get(n)
            .into_iter()
            .flatten()
            .filter(|t| !excused.contains(&(n.clone(), (*t).clone())))
            .cloned()
            .collect()
    };
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for t in next(&n) {
                if seen.insert(t.clone()) {
                    stack.push(t);
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut circles = Vec::new();
    for n in &nodes {
        if done.contains(*n) || !reachable[n].contains(*n) {
            continue;
        }
        // Its component: the files it reaches that reach it back.
        let component: BTreeSet<String> = reachable[n]
            .iter()
            .filter(|m| reachable.get(m).is_some_and(|r| r.contains(*n)))
            .cloned()
            .collect();
        // One circle through n, by a shortest walk back inside the component.
        let mut parent: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([(*n).clone()]);
        let mut closing = None;
        while let Some(m) = queue.pop_front() {
            for t in next(&m) {
                if !component.contains(&t) {
                    continue;
                }
                if t == **n {
                    closing = Some(m.clone());
                    break;
                }
                if !parent.contains_key(&t) {
                    parent.insert(t.clone(), m.clone());
                    queue.push_back(t);
                }
            }
            if closing.is_some() {
                break;
            }
        }
        let mut circle = vec![(*n).clone()];
        let mut at = closing.unwrap_or_else(|| (*n).clone());
        let mut back = Vec::new();
        while at != **n {
            back.push(at.clone());
            at = parent[&at].clone();
        }
        back.reverse();
        circle.extend(back);
        circle.push((*n).clone());
        done.extend(component.iter().cloned());
        circles.push((circle, component));
    }
    circles
}

fn read_sources(root: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path: PathBuf = entry.unwrap().path();
            // The binary is a crate of its own: the compiler keeps it off the
            // library's insides.
            if path.is_dir() && path != root.join("cli") {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && path != root.join("main.rs") {
                let name = path
                    .strip_prefix(root)
                    .unwrap()
                    .iter()
                    .map(|p| p.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                files.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn src_keeps_its_layers_and_has_no_import_circles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = graph(&read_sources(&root));
    assert!(
        g.modules.len() > 20 && g.edges.values().map(BTreeSet::len).sum::<usize>() > 50,
        "the extractor found almost nothing in {}: {} files",
        root.display(),
        g.modules.len()
    );
    let mut problems = Vec::new();
    for (from, to, why) in layer_violations(&g) {
        problems.push(format!("src/{from} imports src/{to}: {why}"));
    }
    for (circle, component) in components(&g, &BTreeSet::new()) {
        let files: Vec<String> = circle.iter().map(|f| format!("src/{f}")).collect();
        let mut line = format!("import circle: {}", files.join(" -> "));
        if component.len() + 1 > circle.len() {
            let all: Vec<&str> = component.iter().map(String::as_str).collect();
            line += &format!(" (and more circles among: {})", all.join(", "));
        }
        problems.push(line);
    }
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

// ---------------------------------------------------------------------------
// The extractor on small sources

fn small(files: &[(&str, &str)]) -> Graph {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|&(n, s)| (n.to_string(), s.to_string()))
        .collect();
    graph(&files)
}

fn targets(g: &Graph, file: &str) -> Vec<String> {
    g.edges.get(file).into_iter().flatten().cloned().collect()
}

#[test]
fn use_trees_code_paths_super_and_children_are_edges() {
    let g = small(&[
        ("lib.rs", "pub mod a;\npub mod b;\npub use b::font;\npub use model::Error;"),
        (
            "a/mod.rs",
            "pub mod x;\nmod y;\nuse crate::b::{self, font::{F, G}};\nfn f() { x::run(); let _ = crate::Error::new(); }",
        ),
        ("a/x.rs", "use super::y::Y;\npub fn run() { super::super::b::c::go(); }"),
        ("a/y.rs", "pub struct Y; fn f() -> crate::font::F { todo!() }"),
        ("b/mod.rs", "pub mod c;\npub mod font;"),
        ("b/c.rs", "pub fn go() {}"),
        ("b/font.rs", "pub struct F;"),
    ]);
    assert_eq!(targets(&g, "a/mod.rs"), ["a/x.rs", "b/font.rs", "b/mod.rs"]);
    assert_eq!(targets(&g, "a/x.rs"), ["a/y.rs", "b/c.rs"]);
    // `crate::font` is the crate root's re-export of `b::font`.
    assert_eq!(targets(&g, "a/y.rs"), ["b/font.rs"]);
    // `mod c;` and `pub mod font;` declare children: no edges.
    assert!(targets(&g, "b/mod.rs").is_empty());
    assert!(cycles(&g, &BTreeSet::new()).is_empty());
}

#[test]
fn comments_doc_links_strings_and_test_modules_are_not_edges() {
    let g = small(&[
        ("lib.rs", "pub mod a;\npub mod b;"),
        (
            "a.rs",
            concat!(
                "//! See [`crate::b::Thing`].\n",
                "/// Like [`super::b`]; /* crate::b::X */ and /* nested /* crate::b */ */\n",
                "pub fn f() -> &'static str { \"crate::b::f()\" }\n",
                "fn g() -> char { '\"' }\n",
                "fn h() -> &'static str { r#\"crate::b::\"# }\n",
                "#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::a::f;\n}\n",
            ),
        ),
        ("b.rs", "pub struct Thing;"),
    ]);
    assert!(targets(&g, "a.rs").is_empty(), "{:?}", targets(&g, "a.rs"));
}

#[test]
fn a_fabricated_circle_is_found_and_named() {
    let g = small(&[
        ("lib.rs", "pub mod figure;"),
        (
            "figure/mod.rs",
            "pub mod grundy;\npub mod square;\npub trait Figure {}",
        ),
        (
            "figure/grundy.rs",
            "use crate::figure::square::SquareFigure;\nimpl super::Figure for G {}",
        ),
        (
            "figure/square.rs",
            "fn f() { crate::figure::grundy::check_overlay(); }",
        ),
    ]);
    let circles = cycles(&g, &BTreeSet::new());
    assert_eq!(
        circles,
        [["figure/grundy.rs", "figure/square.rs", "figure/grundy.rs"]]
    );
    // Excusing one edge of it breaks it.
    let excused = BTreeSet::from([(
        "figure/square.rs".to_string(),
        "figure/grundy.rs".to_string(),
    )]);
    assert!(cycles(&g, &excused).is_empty());
}

#[test]
fn a_parent_that_uses_its_child_and_a_child_that_uses_the_parent_make_a_circle() {
    let g = small(&[
        ("lib.rs", "pub mod encode;"),
        (
            "encode/mod.rs",
            "pub mod png;\npub struct Metadata;\nfn f() { png::write(); }",
        ),
        ("encode/png.rs", "use super::Metadata;\npub fn write() {}"),
    ]);
    assert_eq!(
        cycles(&g, &BTreeSet::new()),
        [["encode/mod.rs", "encode/png.rs", "encode/mod.rs"]]
    );
    // Only declaring the child is no edge.
    let g = small(&[
        ("lib.rs", "pub mod encode;"),
        ("encode/mod.rs", "pub mod png;\npub struct Metadata;"),
        ("encode/png.rs", "use super::Metadata;"),
    ]);
    assert!(cycles(&g, &BTreeSet::new()).is_empty());
}

#[test]
fn layer_rules_catch_upward_imports() {
    let g = small(&[
        (
            "lib.rs",
            "pub mod recipe;\npub mod scene;\npub mod encode;\npub mod figure;\npub mod serve;",
        ),
        ("scene/mod.rs", "use crate::encode::Format;"),
        (
            "encode/mod.rs",
            "use crate::scene::board::BoardPanel;\nuse crate::scene::Scene;",
        ),
        (
            "figure/mod.rs",
            "use crate::scene::Scene;\nuse crate::encode::Format;",
        ),
        (
            "serve/mod.rs",
            "fn f() { crate::recipe::run(); crate::figure::go(); }",
        ),
        ("recipe/mod.rs", "use crate::figure::Figure;"),
        ("scene/board.rs", ""),
    ]);
    let found: Vec<(String, String)> = layer_violations(&g)
        .into_iter()
        .map(|(a, b, _)| (a, b))
        .collect();
    let expected: Vec<(String, String)> = [
        ("encode/mod.rs", "scene/board.rs"),
        ("scene/mod.rs", "encode/mod.rs"),
        ("serve/mod.rs", "recipe/mod.rs"),
    ]
    .iter()
    .map(|&(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(found, expected);
}
