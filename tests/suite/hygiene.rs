//! Hygiene of the dependency tree, from `cargo metadata` with nothing to install:
//!
//! * every package in Cargo.lock (all platforms, dev- and build-dependencies, all
//!   features) has a licence expression the allowlist in `deny.toml` accepts — the
//!   same file `cargo deny check licenses` reads, with its `exceptions` and
//!   `clarify` entries; an exception may never cover a package that reaches the
//!   library or the binary;
//! * `rust-version` of both crates covers what every locked package declares.
//!
//! The expression evaluator is checked against controls first: a GPL expression is
//! refused, `MIT OR GPL-3.0` passes, `MIT AND GPL-3.0` does not.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `cargo metadata` of the workspace, once per test binary.
fn metadata() -> &'static Value {
    static METADATA: OnceLock<Value> = OnceLock::new();
    METADATA.get_or_init(|| {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = Command::new(cargo)
            .args([
                "metadata",
                "--format-version",
                "1",
                "--locked",
                "--all-features",
            ])
            .current_dir(root())
            .output()
            .expect("running cargo metadata");
        assert!(
            output.status.success(),
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
    })
}

// --- SPDX licence expressions -------------------------------------------------

/// A parsed licence expression: `WITH` binds tighter than `AND`, `AND` tighter
/// than `OR`. The old `MIT/Apache-2.0` form reads as `OR`, as Cargo and
/// cargo-deny read it.
#[derive(Debug)]
enum Expr {
    Licence {
        /// Without a trailing `+` ("or later"): `X+` is satisfied by `X`.
        id: String,
        exception: Option<String>,
    },
    And(Vec<Expr>),
    Or(Vec<Expr>),
}

#[derive(Debug, PartialEq)]
enum Token {
    Open,
    Close,
    And,
    Or,
    With,
    Id(String),
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        if !word.is_empty() {
            out.push(match word.as_str() {
                "AND" | "and" => Token::And,
                "OR" | "or" => Token::Or,
                "WITH" | "with" => Token::With,
                _ => Token::Id(word.clone()),
            });
            word.clear();
        }
    };
    for c in text.chars() {
        match c {
            '(' | ')' | '/' => {
                flush(&mut word, &mut out);
                out.push(match c {
                    '(' => Token::Open,
                    ')' => Token::Close,
                    _ => Token::Or,
                });
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    out
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Option<&Token> {
        self.at += 1;
        self.tokens.get(self.at - 1)
    }

    fn or(&mut self) -> Result<Expr, String> {
        let mut parts = vec![self.and()?];
        while self.peek() == Some(&Token::Or) {
            self.at += 1;
            parts.push(self.and()?);
        }
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Expr::Or(parts)
        })
    }

    fn and(&mut self) -> Result<Expr, String> {
        let mut parts = vec![self.primary()?];
        while self.peek() == Some(&Token::And) {
            self.at += 1;
            parts.push(self.primary()?);
        }
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Expr::And(parts)
        })
    }

    fn primary(&mut self) -> Result<Expr, String> {
        match self.next() {
            Some(Token::Open) => {
                let inner = self.or()?;
                match self.next() {
                    Some(Token::Close) => Ok(inner),
                    other => Err(format!("expected ')', found {other:?}")),
                }
            }
            Some(Token::Id(id)) => {
                let id = id.strip_suffix('+').unwrap_or(id).to_string();
                let exception = if self.peek() == Some(&Token::With) {
                    self.at += 1;
                    match self.next() {
                        Some(Token::Id(exception)) => Some(exception.clone()),
                        other => Err(format!("expected an exception after WITH, found {other:?}"))?,
                    }
                } else {
                    None
                };
                Ok(Expr::Licence { id, exception })
            }
            other => Err(format!("expected a licence or '(', found {other:?}")),
        }
    }
}

fn parse(text: &str) -> Result<Expr, String> {
    let mut parser = Parser {
        tokens: tokens(text),
        at: 0,
    };
    let expr = parser.or()?;
    match parser.peek() {
        None => Ok(expr),
        Some(extra) => Err(format!("unexpected {extra:?} in '{text}'")),
    }
}

/// Whether the expression is satisfiable with the allowed licences: an `OR` passes
/// when one branch does, an `AND` when all do. A licence with an exception passes
/// only when `<id> WITH <exception>` itself is allowed; `<id>+` when `<id>` is.
fn passes(expr: &Expr, allowed: &BTreeSet<String>) -> bool {
    match expr {
        Expr::Licence { id, exception } => match exception {
            Some(exception) => allowed.contains(&format!("{id} WITH {exception}")),
            None => allowed.contains(id),
        },
        Expr::And(parts) => parts.iter().all(|part| passes(part, allowed)),
        Expr::Or(parts) => parts.iter().any(|part| passes(part, allowed)),
    }
}

fn accepts(allowed: &BTreeSet<String>, text: &str) -> bool {
    parse(text).is_ok_and(|expr| passes(&expr, allowed))
}

// --- deny.toml ------------------------------------------------------------------

struct Clarification {
    expression: String,
    /// Paths relative to the package's root, with cargo-deny's hash of each.
    files: Vec<(String, u32)>,
}

struct Policy {
    allow: BTreeSet<String>,
    /// Package spec (`name` or `name@version`) → extra licences for it alone.
    exceptions: BTreeMap<String, BTreeSet<String>>,
    clarify: BTreeMap<String, Clarification>,
}

fn strings(value: Option<&toml::Value>) -> BTreeSet<String> {
    value
        .and_then(toml::Value::as_array)
        .map(|list| {
            list.iter()
                .map(|v| v.as_str().expect("a string").to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn policy() -> Policy {
    let text = std::fs::read_to_string(root().join("deny.toml")).expect("deny.toml");
    let doc: toml::Table = text.parse().expect("deny.toml is TOML");
    let licenses = doc["licenses"].as_table().expect("a [licenses] table");
    let tables = |key: &str| -> Vec<toml::Table> {
        licenses
            .get(key)
            .and_then(toml::Value::as_array)
            .map(|list| {
                list.iter()
                    .map(|v| v.as_table().expect("a table").clone())
                    .collect()
            })
            .unwrap_or_default()
    };
    let spec = |t: &toml::Table| t["crate"].as_str().expect("crate = \"name\"").to_string();
    Policy {
        allow: strings(licenses.get("allow")),
        exceptions: tables("exceptions")
            .iter()
            .map(|t| (spec(t), strings(t.get("allow"))))
            .collect(),
        clarify: tables("clarify")
            .iter()
            .map(|t| {
                let files = t["license-files"]
                    .as_array()
                    .expect("license-files")
                    .iter()
                    .map(|f| {
                        let path = f["path"].as_str().expect("path").to_string();
                        let hash = f["hash"].as_integer().expect("hash") as u32;
                        (path, hash)
                    })
                    .collect();
                let expression = t["expression"].as_str().expect("expression").to_string();
                (spec(t), Clarification { expression, files })
            })
            .collect(),
    }
}

fn spec_matches(spec: &str, name: &str, version: &str) -> bool {
    match spec.split_once('@') {
        Some((n, v)) => n == name && v == version,
        None => spec == name,
    }
}

/// xxHash32 (seed 0), the hash cargo-deny keeps for a clarified licence file.
fn xxh32(data: &[u8]) -> u32 {
    const P1: u32 = 2_654_435_761;
    const P2: u32 = 2_246_822_519;
    const P3: u32 = 3_266_489_917;
    const P4: u32 = 668_265_263;
    const P5: u32 = 374_761_393;
    let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let round = |acc: u32, lane: u32| {
        acc.wrapping_add(lane.wrapping_mul(P2))
            .rotate_left(13)
            .wrapping_mul(P1)
    };
    let mut rest = data;
    let mut h = if data.len() >= 16 {
        let mut v = [P1.wrapping_add(P2), P2, 0, 0u32.wrapping_sub(P1)];
        while rest.len() >= 16 {
            for (i, lane) in v.iter_mut().enumerate() {
                *lane = round(*lane, word(&rest[4 * i..]));
            }
            rest = &rest[16..];
        }
        v[0].rotate_left(1)
            .wrapping_add(v[1].rotate_left(7))
            .wrapping_add(v[2].rotate_left(12))
            .wrapping_add(v[3].rotate_left(18))
    } else {
        P5
    };
    h = h.wrapping_add(data.len() as u32);
    while rest.len() >= 4 {
        h = h
            .wrapping_add(word(rest).wrapping_mul(P3))
            .rotate_left(17)
            .wrapping_mul(P4);
        rest = &rest[4..];
    }
    for &byte in rest {
        h = h
            .wrapping_add(u32::from(byte).wrapping_mul(P5))
            .rotate_left(11)
            .wrapping_mul(P1);
    }
    h ^= h >> 15;
    h = h.wrapping_mul(P2);
    h ^= h >> 13;
    h = h.wrapping_mul(P3);
    h ^ (h >> 16)
}

/// cargo-deny's hash of a licence file: line ends normalised to `\n`, one after
/// the last line.
fn licence_file_hash(bytes: &[u8]) -> u32 {
    let text = String::from_utf8_lossy(bytes);
    let normalised: String = text
        .lines()
        .map(|line| format!("{}\n", line.trim_end_matches('\r')))
        .collect();
    xxh32(normalised.as_bytes())
}

// --- the dependency graph -------------------------------------------------------

fn packages() -> &'static [Value] {
    metadata()["packages"].as_array().expect("packages")
}

fn workspace_members() -> Vec<&'static str> {
    metadata()["workspace_members"]
        .as_array()
        .expect("workspace_members")
        .iter()
        .map(|id| id.as_str().expect("an id"))
        .collect()
}

/// For every package reachable from the workspace: how it is reached, as
/// `nimscape -> (dev) headless_chrome -> (build) auto_generate_cdp`, and whether
/// it reaches the library or binary (only normal and build edges on the way).
fn reached() -> BTreeMap<&'static str, (String, bool)> {
    let names: BTreeMap<&str, &str> = packages()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let nodes: BTreeMap<&str, &Value> = metadata()["resolve"]["nodes"]
        .as_array()
        .expect("resolve.nodes")
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let mut seen: BTreeMap<&str, (String, bool)> = BTreeMap::new();
    let mut queue = VecDeque::new();
    // Shipped paths first, so a package reached both ways counts as shipped.
    for id in workspace_members() {
        seen.insert(id, (names[id].to_string(), true));
        queue.push_back(id);
    }
    while let Some(id) = queue.pop_front() {
        let (path, shipped) = seen[id].clone();
        for dep in nodes[id]["deps"].as_array().into_iter().flatten() {
            let to = dep["pkg"].as_str().unwrap();
            let kinds: BTreeSet<&str> = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|k| k["kind"].as_str().unwrap_or("normal"))
                .collect();
            let ships = shipped && kinds.iter().any(|&k| k != "dev");
            let kind = if kinds.contains("normal") {
                ""
            } else if kinds.contains("build") {
                "(build) "
            } else {
                "(dev) "
            };
            let better = match seen.get(to) {
                None => true,
                Some((_, was)) => ships && !was,
            };
            if better {
                seen.insert(to, (format!("{path} -> {kind}{}", names[to]), ships));
                queue.push_back(to);
            }
        }
    }
    seen
}

fn version_of(text: &str) -> (u64, u64, u64) {
    let mut parts = text
        .split('.')
        .map(|p| p.parse::<u64>().expect("a version number"));
    let mut part = || parts.next().unwrap_or(0);
    (part(), part(), part())
}

// --- the tests ------------------------------------------------------------------

#[test]
fn licence_expressions_are_read_as_spdx_says() {
    let allowed: BTreeSet<String> = ["MIT", "Apache-2.0", "Unicode-3.0"]
        .map(String::from)
        .into();
    // Controls: copyleft alone, or required by AND, is refused.
    assert!(!accepts(&allowed, "GPL-3.0-only"));
    assert!(!accepts(&allowed, "GPL-3.0"));
    assert!(!accepts(&allowed, "AGPL-3.0-or-later"));
    assert!(accepts(&allowed, "MIT OR GPL-3.0"));
    assert!(!accepts(&allowed, "MIT AND GPL-3.0"));
    assert!(!accepts(&allowed, "(MIT OR Apache-2.0) AND GPL-3.0"));
    assert!(accepts(
        &allowed,
        "(MIT OR GPL-3.0) AND (GPL-2.0 OR Apache-2.0)"
    ));
    // Precedence: AND before OR.
    assert!(accepts(&allowed, "GPL-3.0 AND LGPL-2.1 OR MIT"));
    assert!(!accepts(&allowed, "GPL-3.0 AND (LGPL-2.1 OR MIT)"));
    // What the tree really holds.
    assert!(accepts(&allowed, "(MIT OR Apache-2.0) AND Unicode-3.0"));
    assert!(accepts(&allowed, "MIT/Apache-2.0"));
    assert!(accepts(&allowed, "Apache-2.0 / MIT"));
    assert!(accepts(
        &allowed,
        "Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT"
    ));
    assert!(accepts(&allowed, "MIT OR Apache-2.0 OR LGPL-2.1-or-later"));
    // An exception needs its own entry; "or later" needs the base licence.
    assert!(!accepts(&allowed, "Apache-2.0 WITH LLVM-exception"));
    assert!(!accepts(&allowed, "GPL-2.0 WITH Classpath-exception-2.0"));
    assert!(accepts(&allowed, "Apache-2.0+"));
    assert!(!accepts(&allowed, "GPL-2.0+"));
    // Nothing, or nonsense, is refused.
    for bad in [
        "",
        "MIT OR",
        "(MIT",
        "MIT)",
        "MIT Apache-2.0",
        "AND MIT",
        "MIT WITH",
    ] {
        assert!(parse(bad).is_err(), "'{bad}' should not parse");
        assert!(!accepts(&allowed, bad));
    }
}

#[test]
fn licence_file_hash_is_cargo_denys() {
    // Published xxHash32 values.
    assert_eq!(xxh32(b""), 0x02cc_5d05);
    assert_eq!(xxh32(b"a"), 0x550d_7456);
    assert_eq!(xxh32(b"abc"), 0x32d1_53ff);
    assert_eq!(
        xxh32(b"Nobody inspects the spammish repetition"),
        0xe229_3b2f
    );
    // Line ends do not matter, a missing final newline neither.
    assert_eq!(licence_file_hash(b"a\r\nb"), licence_file_hash(b"a\nb\n"));
}

#[test]
fn the_allowlist_is_permissive() {
    let policy = policy();
    let copyleft = [
        "GPL", "AGPL", "LGPL", "SSPL", "EUPL", "OSL", "CPAL", "RPL", "CC-BY-SA",
    ];
    for licence in &policy.allow {
        assert!(
            !copyleft.iter().any(|c| licence.starts_with(c)),
            "deny.toml allows {licence} for every crate"
        );
    }
    // The real list, against the controls.
    assert!(!accepts(&policy.allow, "GPL-3.0-only"));
    assert!(!accepts(&policy.allow, "AGPL-3.0-only"));
    assert!(accepts(&policy.allow, "MIT OR GPL-3.0"));
    assert!(!accepts(&policy.allow, "MIT AND GPL-3.0"));
}

#[test]
fn every_locked_package_has_an_allowed_licence() {
    let policy = policy();
    let reached = reached();
    let mut problems = Vec::new();
    let mut exceptions_used = BTreeSet::new();
    for package in packages() {
        let id = package["id"].as_str().unwrap();
        let name = package["name"].as_str().unwrap();
        let version = package["version"].as_str().unwrap();
        let (how, shipped) = reached
            .get(id)
            .cloned()
            .unwrap_or_else(|| (format!("{name} (in Cargo.lock only)"), false));
        let clarified = policy
            .clarify
            .iter()
            .find(|(spec, _)| spec_matches(spec, name, version));
        let expression = match clarified {
            Some((spec, clarification)) => {
                let dir = Path::new(package["manifest_path"].as_str().unwrap())
                    .parent()
                    .unwrap();
                for (path, hash) in &clarification.files {
                    let bytes = std::fs::read(dir.join(path)).unwrap_or_default();
                    let now = licence_file_hash(&bytes);
                    if now != *hash {
                        problems.push(format!(
                            "{name} {version}: deny.toml's clarification ({spec}) was made for \
                             {path} with hash {hash:#x}, the file now hashes to {now:#x}: \
                             read it again and update deny.toml"
                        ));
                    }
                }
                Some(clarification.expression.clone())
            }
            None => package["license"].as_str().map(String::from),
        };
        let Some(expression) = expression else {
            problems.push(format!("{name} {version}: no licence expression ({how})"));
            continue;
        };
        if let Err(e) = parse(&expression) {
            problems.push(format!("{name} {version}: cannot read '{expression}': {e}"));
            continue;
        }
        if accepts(&policy.allow, &expression) {
            continue;
        }
        let exception = policy.exceptions.iter().find(|(spec, extra)| {
            let mut allowed = policy.allow.clone();
            allowed.extend(extra.iter().cloned());
            spec_matches(spec, name, version) && accepts(&allowed, &expression)
        });
        match exception {
            Some((spec, _)) => {
                exceptions_used.insert(spec.clone());
                if shipped {
                    problems.push(format!(
                        "{name} {version} ({expression}) reaches the library or binary ({how}); \
                         the exception {spec} in deny.toml is only for test-only tools"
                    ));
                }
            }
            None => problems.push(format!(
                "{name} {version}: '{expression}' is not in deny.toml's allowlist ({how})"
            )),
        }
    }
    for spec in policy.exceptions.keys() {
        if !exceptions_used.contains(spec) {
            problems.push(format!(
                "deny.toml's exception for {spec} is no longer needed: remove it"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "licence check:\n{}",
        problems.join("\n")
    );
}

#[test]
fn rust_version_covers_every_locked_package() {
    let members = workspace_members();
    let ours: BTreeSet<&str> = packages()
        .iter()
        .filter(|p| members.contains(&p["id"].as_str().unwrap()))
        .map(|p| {
            p["rust_version"]
                .as_str()
                .expect("rust-version in Cargo.toml")
        })
        .collect();
    assert_eq!(
        ours.len(),
        1,
        "the crates declare different rust-versions: {ours:?}"
    );
    let ours = ours.into_iter().next().unwrap();
    let mut too_new = Vec::new();
    for package in packages() {
        let name = package["name"].as_str().unwrap();
        let version = package["version"].as_str().unwrap();
        let edition = match package["edition"].as_str().unwrap() {
            "2024" => Some("1.85"),
            "2021" => Some("1.56"),
            _ => None,
        };
        let declared = package["rust_version"].as_str();
        for (what, needs) in [("rust-version", declared), ("edition", edition)] {
            if let Some(needs) = needs.filter(|&n| version_of(n) > version_of(ours)) {
                too_new.push(format!("{name} {version}: {what} needs {needs}"));
            }
        }
    }
    assert!(
        too_new.is_empty(),
        "rust-version = \"{ours}\" in Cargo.toml is older than the lockfile needs:\n{}",
        too_new.join("\n")
    );
}
