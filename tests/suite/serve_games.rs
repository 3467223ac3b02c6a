//! Game files pasted into the explorer: `POST /api/games` compiles a game file
//! with the game-file parser and keeps it; the Grundy figures of
//! `game=NAME.toml&pasted=ID` are the bytes `nimscape grundy NAME.toml ...`
//! writes from a file of that name (the command the page shows); bad games,
//! oversized bodies and unknown ids are one line each.

use super::serve::{get, server, Reply};
use crate::suite::support::nimscape;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::Duration;

fn games() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// `POST target` with `body`; the status and the body of the answer.
fn post(addr: SocketAddr, target: &str, body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "POST {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    // A server that refuses early may close before the whole body is sent.
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

/// Pastes `text` as `name`; the server's answer, parsed.
fn paste(addr: SocketAddr, name: &str, text: &str) -> serde_json::Value {
    let reply = post(addr, &format!("/api/games?name={name}"), text.as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
    serde_json::from_slice(&reply.body).unwrap()
}

/// What `nimscape grundy <args> -o x.<ext>` writes in a folder holding `name`
/// with `text`.
fn cli_bytes_with_file(name: &str, text: &str, args: &[&str], ext: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    let out = format!("x.{ext}");
    let run = nimscape(dir.path())
        .arg("grundy")
        .args(args)
        .args(["-o", &out])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read(dir.path().join(out)).unwrap()
}

#[test]
fn a_pasted_games_figures_are_the_bytes_its_command_line_writes_from_that_file() {
    let server = server();
    let wythoff = std::fs::read_to_string(games().join("wythoff.toml")).unwrap();
    let answer = paste(server.addr, "my-wythoff.toml", &wythoff);
    assert_eq!(answer["name"], "my-wythoff.toml");
    assert_eq!(answer["heaps"], serde_json::json!(["x", "y"]));
    let id = answer["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 16);
    // The same paste gets the same id.
    assert_eq!(paste(server.addr, "my-wythoff.toml", &wythoff)["id"], id);
    let triangular = std::fs::read_to_string(games().join("triangular.toml")).unwrap();
    let tri = paste(server.addr, "tri.toml", &triangular);
    assert_eq!(tri["params"]["k"], "3");
    let tri_id = tri["id"].as_str().unwrap();
    let cases: Vec<(&str, &str, String, Vec<&str>)> = vec![
        (
            "my-wythoff.toml",
            wythoff.as_str(),
            format!("game=my-wythoff.toml&pasted={id}&box=12&plot=table"),
            vec!["my-wythoff.toml", "--box", "12", "--plot", "table"],
        ),
        (
            "my-wythoff.toml",
            wythoff.as_str(),
            format!("pasted={id}&box=20&plot=points"),
            vec!["my-wythoff.toml", "--box", "20", "--plot", "points"],
        ),
        (
            "tri.toml",
            triangular.as_str(),
            format!("game=tri.toml&pasted={tri_id}&param=k%3D2&box=9&plot=table&slice=z%3D4"),
            vec![
                "tri.toml", "--param", "k=2", "--box", "9", "--plot", "table", "--slice", "z=4",
            ],
        ),
    ];
    for (name, text, query, args) in &cases {
        for ext in ["png", "svg", "csv", "json"] {
            let reply = get(server.addr, &format!("/api/grundy.{ext}?{query}"));
            assert_eq!(reply.status, 200, "{query} .{ext}: {}", reply.text());
            let cli = cli_bytes_with_file(name, text, args, ext);
            assert!(
                reply.body == cli,
                "{query} .{ext}: not the bytes of nimscape grundy {}",
                args.join(" ")
            );
        }
    }
    // The PNG records the command that reproduces it from the file.
    let png = get(
        server.addr,
        &format!("/api/grundy.png?game=my-wythoff.toml&pasted={id}&box=12&plot=table"),
    );
    let text = String::from_utf8_lossy(&png.body);
    assert!(
        text.contains("nimscape grundy my-wythoff.toml --box 12 --plot table"),
        "the PNG does not record its command"
    );
    // The hover readout's layout works for a pasted game too.
    let layout = get(
        server.addr,
        &format!("/api/layout/grundy.json?game=my-wythoff.toml&pasted={id}&box=12&plot=table"),
    );
    assert_eq!(layout.status, 200, "{}", layout.text());
    let layout: serde_json::Value = serde_json::from_slice(&layout.body).unwrap();
    assert_eq!(layout["grids"].as_array().unwrap().len(), 1);
}

fn assert_one_line(reply: &Reply, status: u16, needle: &str) {
    let text = reply.text();
    assert_eq!(reply.status, status, "{text}");
    assert_eq!(text.trim_end().lines().count(), 1, "not one line: {text}");
    assert!(text.contains(needle), "'{needle}' not in: {text}");
}

#[test]
fn bad_pastes_and_unknown_ids_are_one_line_each() {
    let server = server();
    let addr = server.addr;
    // A game that does not compile: the parser's line, as the command line prints it.
    let bad = "name = \"bad\"\nheaps = [\"x\", \"y\"]\n[[move]]\nlower = \"w\"\n";
    let reply = post(addr, "/api/games?name=bad.toml", bad.as_bytes());
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), bad).unwrap();
    let cli = nimscape(dir.path())
        .args(["grundy", "bad.toml", "--box", "5", "-o", "x.csv"])
        .output()
        .unwrap();
    let cli_line = String::from_utf8_lossy(&cli.stderr)
        .trim_end()
        .trim_start_matches("error: ")
        .replace("--game", "game");
    assert!(
        !cli.status.success() && cli_line.contains("bad.toml"),
        "{cli_line}"
    );
    assert_one_line(&reply, 400, &cli_line);
    // Not TOML at all, not UTF-8, too large, a name that is not a plain file name.
    assert_one_line(
        &post(addr, "/api/games?name=x.toml", b"heaps = ["),
        400,
        "x.toml",
    );
    assert_one_line(
        &post(addr, "/api/games?name=x.toml", &[0xff, 0xfe, b'a']),
        400,
        "not UTF-8",
    );
    let huge = format!(
        "name = \"big\"\nheaps = [\"x\", \"y\"]\n{}",
        "# padding\n".repeat(30_000)
    );
    assert_one_line(
        &post(addr, "/api/games?name=big.toml", huge.as_bytes()),
        413,
        "larger than 256 KiB",
    );
    for name in [
        "../etc/passwd.toml",
        "a%2Fb.toml",
        "game.txt",
        ".hidden.toml",
    ] {
        assert_one_line(
            &post(addr, &format!("/api/games?name={name}"), b"heaps = [\"x\"]"),
            400,
            "is not a game file name",
        );
    }
    // An id this server does not hold, and a `game` that is not the pasted one.
    assert_one_line(
        &get(
            addr,
            "/api/grundy.png?game=g.toml&pasted=0123456789abcdef&box=5",
        ),
        400,
        "pasted game '0123456789abcdef' is not on this server",
    );
    let wythoff = std::fs::read_to_string(games().join("wythoff.toml")).unwrap();
    let id = paste(addr, "w.toml", &wythoff)["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_one_line(
        &get(
            addr,
            &format!("/api/grundy.png?game=other.toml&pasted={id}&box=5"),
        ),
        400,
        "game: 'other.toml' is not the pasted game 'w.toml'",
    );
    // POST is for /api/games only.
    assert_eq!(post(addr, "/api/grundy.png?game=w.toml", b"x").status, 405);
    // A game file from the disk only below the folder the server was started in.
    for game in [
        "/etc/passwd.toml",
        "..%2Fgames%2Fwythoff.toml",
        "a/../../b.toml",
    ] {
        assert_one_line(
            &get(addr, &format!("/api/grundy.png?game={game}&box=5")),
            400,
            "is outside the folder the server was started in",
        );
    }
}

/// A game file of two heaps whose one position condition is `positions`.
fn game_text(name: Option<&str>, positions: &str) -> String {
    let name = name
        .map(|n| format!("name = \"{n}\"\n"))
        .unwrap_or_default();
    format!("{name}heaps = [\"x\", \"y\"]\npositions = [\"{positions}\"]\n[[move]]\nlower = [\"x\", \"y\"]\n")
}

/// `x+1+1+...+1 >= 0` with `terms` terms.
fn chain(terms: usize) -> String {
    format!("x{} >= 0", "+1".repeat(terms - 1))
}

#[test]
fn hostile_game_files_are_one_line_each_and_the_server_lives_on() {
    let server = server();
    let addr = server.addr;
    // A flat chain was a tree as deep as it was long: 2,500 terms in a 5 KB POST
    // overflowed a stack and killed the whole server (SIGABRT). 12,000 terms now
    // compile and solve; 100,000 are too large, in one line.
    let id = paste(addr, "chain.toml", &game_text(None, &chain(12_000)))["id"]
        .as_str()
        .unwrap()
        .to_string();
    let solved = get(
        addr,
        &format!("/api/grundy.csv?game=chain.toml&pasted={id}&box=3"),
    );
    assert_eq!(solved.status, 200, "{}", solved.text());
    assert_eq!(
        solved.body,
        cli_bytes_with_file(
            "chain.toml",
            &game_text(None, &chain(12_000)),
            &["chain.toml", "--box", "3"],
            "csv"
        )
    );
    let refused = post(
        addr,
        "/api/games?name=chain.toml",
        game_text(None, &chain(100_000)).as_bytes(),
    );
    assert_one_line(
        &refused,
        400,
        "too large once its functions are written out",
    );
    // The same from files on the disk, below the folder the server runs in.
    let dir = tempfile::Builder::new()
        .prefix(".serve-games-")
        .tempdir_in(env!("CARGO_MANIFEST_DIR"))
        .unwrap();
    let folder = dir
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_string();
    std::fs::write(
        dir.path().join("c12k.toml"),
        game_text(None, &chain(12_000)),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("c100k.toml"),
        game_text(None, &chain(100_000)),
    )
    .unwrap();
    let from_disk = get(
        addr,
        &format!("/api/grundy.csv?game={folder}/c12k.toml&box=3"),
    );
    assert_eq!(from_disk.status, 200, "{}", from_disk.text());
    assert_one_line(
        &get(
            addr,
            &format!("/api/grundy.png?game={folder}/c100k.toml&box=3"),
        ),
        400,
        "too large once its functions are written out",
    );
    // A stray bracket at the end of a 60 KB expression: a short line saying where.
    let stray = post(
        addr,
        "/api/games?name=stray.toml",
        game_text(None, &format!("x{}) >= 0", "+1".repeat(30_000))).as_bytes(),
    );
    assert_one_line(
        &stray,
        400,
        "')', wanted an operator or the end at column 60002",
    );
    assert!(stray.body.len() < 400, "{} bytes", stray.body.len());
    // A name with a control character was a 500 (malformed SVG): now a 400.
    for name in ["a\\u0001b", "x\\n\\\\input{/etc/hostname}\\n"] {
        let reply = post(
            addr,
            "/api/games?name=named.toml",
            game_text(Some(name), "x >= 0").as_bytes(),
        );
        assert_one_line(&reply, 400, "holds a control character");
    }
    // Counts at the type limits panicked (500): now refusals.
    for query in [
        "/api/grundy.png?game=nim&heaps=2&box=4294967295&plot=points",
        "/api/grundy.png?game=nim&heaps=3&box=4294967295&plot=sieve",
        "/api/automaton.csv?frames=9223372036854775807&modulus=exact",
    ] {
        let reply = get(addr, query);
        assert!(
            (400..500).contains(&reply.status),
            "{query}: {} {}",
            reply.status,
            reply.text()
        );
        assert_eq!(reply.text().trim_end().lines().count(), 1, "{query}");
    }
    // And the server still answers.
    assert_eq!(
        get(addr, "/api/grundy.csv?game=nim&heaps=2&box=3").status,
        200
    );
}
