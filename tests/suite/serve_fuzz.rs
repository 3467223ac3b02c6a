//! Hostile queries over every endpoint of `nimscape serve`: huge numbers, 2^64,
//! negative, NaN, empty, repeated and unknown keys, bad UTF-8 percent-escapes,
//! NUL and newlines. None may get a 5xx or stop the server; every refusal is a 4xx
//! whose body is one line. A fixed seed, so a failure reproduces; a few seconds.

use nimscape::serve::{start, ServeOptions};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Values at the limits of every type a parameter has, and text no parser expects.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "11",
    "255",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "4611686018427387904",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "-9223372036854775809",
    "1e308",
    "-1e308",
    "1e-320",
    "0.5",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "",
    "%FF",
    "%C0%80",
    "%E2%82",
    "%ED%A0%80",
    "%00",
    "a%0Ab",
    "%0D%0A",
    "%F0%9F%92%A9",
    "1..4294967296",
    "1..",
    "..",
    "1..3:0",
    "1..18446744073709551615",
    "2^64",
    "2^62",
    "2^k:1..64",
    "2%5Ek%3A1..40",
    "1,2,3,,",
    ",",
    "0x10",
    "+5",
    "%205",
    "%2e%2e%2f",
    "true",
    "false",
    "#gggggg",
    "%23ff0000",
    "x%3D0",
    "z%3D18446744073709551616",
    "3%2F0",
    "1%2F3",
    "round(1%2F0)",
    "k",
    "triangular",
    "nim",
    "nim-pass",
    "density",
    "nimsum",
    "pass",
];

/// Keys nobody declared, next to each endpoint's own.
const STRANGE_KEYS: &[&str] = &[
    "zzz",
    "max-memory",
    "max_output",
    "o",
    "output",
    "threads",
    "",
    "%FF",
    "m%00",
    "M",
    "--m",
    "m[]",
    "help",
];

/// xorshift64*: a fixed, dependency-free sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Every endpoint, with the parameter names it declares.
fn endpoints() -> Vec<(String, Vec<String>)> {
    let mut all = Vec::new();
    let extensions = ["png", "svg", "pdf", "gif", "csv", "json", "npy", "apng"];
    for model in nimscape::request::models() {
        let words: Vec<&str> = model.split(' ').collect();
        let names = nimscape::request::parameters(&words).unwrap();
        for ext in extensions {
            all.push((format!("/api/{}.{ext}", words.join("/")), names.clone()));
        }
    }
    let tile: Vec<String> = ["m", "n", "level", "x", "y", "mode"]
        .map(String::from)
        .to_vec();
    let count: Vec<String> = ["m", "n", "r0", "r1", "c0", "c1"]
        .map(String::from)
        .to_vec();
    let grundy = nimscape::request::parameters(&["grundy"]).unwrap();
    all.push(("/api/tiles/square.bin".into(), tile));
    all.push(("/api/tiles/count".into(), count));
    all.push(("/api/layout/grundy.json".into(), grundy));
    for path in [
        "/api/square",
        "/api/square.",
        "/api/.png",
        "/api/%FF.png",
        "/api/square%00.png",
        "/api/octahedron.png",
        "/api/octahedron/section/x.png",
        "/api/serve.png",
        "/api/render.png",
        "/api/tiles/square.png",
        "/app.js",
    ] {
        all.push((path.into(), vec!["m".into(), "n".into()]));
    }
    all
}

/// A query of 0..6 pairs: declared keys mostly, strange ones sometimes, keys
/// repeated, pairs without `=`, empty pairs.
fn query(rng: &mut Rng, names: &[String]) -> String {
    let mut pairs = Vec::new();
    for _ in 0..rng.below(7) {
        let key = if !names.is_empty() && rng.below(4) != 0 {
            names[rng.below(names.len())].clone()
        } else {
            rng.pick(STRANGE_KEYS).to_string()
        };
        let pair = match rng.below(12) {
            0 => key,
            1 => String::new(),
            2 => format!("={}", rng.pick(VALUES)),
            _ => format!("{key}={}", rng.pick(VALUES)),
        };
        pairs.push(pair);
        if rng.below(10) == 0 {
            pairs.push(pairs[pairs.len() - 1].clone());
        }
    }
    pairs.join("&")
}

/// One exchange: the status and the body (what arrived of it).
fn exchange(addr: SocketAddr, target: &str) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).expect("the server still accepts");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    // A stream cut short past the output limit may end in a reset.
    let _ = stream.read_to_end(&mut raw);
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("{target}: no answer"));
    let head = String::from_utf8_lossy(&raw[..split]);
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{target}: no status in {head}"));
    (status, raw[split + 4..].to_vec())
}

#[test]
fn hostile_queries_over_every_endpoint_get_a_4xx_line_or_an_answer() {
    let mut options = ServeOptions::local(64 << 20);
    options.output_limit = 4 << 20;
    options.time_limit = Duration::from_secs(20);
    let server = start(&options).unwrap();
    let addr = server.addr;
    let endpoints = endpoints();
    let clients = 4;
    let per_client = 350;
    let started = std::time::Instant::now();
    let results: Vec<(Vec<String>, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|client| {
                let endpoints = &endpoints;
                scope.spawn(move || {
                    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (client as u64 + 1));
                    let mut failures = Vec::new();
                    let mut answered = 0;
                    for _ in 0..per_client {
                        let (path, names) = &endpoints[rng.below(endpoints.len())];
                        let target = format!("{path}?{}", query(&mut rng, names));
                        let (status, body) = exchange(addr, &target);
                        let text = String::from_utf8_lossy(&body);
                        let one_line = text.ends_with('\n') && text.matches('\n').count() == 1;
                        match status {
                            200 => answered += 1,
                            400..=499 if one_line => {}
                            _ => failures.push(format!("{target}: {status} {text:?}")),
                        }
                    }
                    (failures, answered)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a client thread panicked"))
            .collect()
    });
    let elapsed = started.elapsed();
    let answered: usize = results.iter().map(|(_, a)| a).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|(f, _)| f).collect();
    eprintln!(
        "{} hostile requests in {:.1} s, {answered} answered with 200",
        clients * per_client,
        elapsed.as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {} requests failed:\n{}",
        failures.len(),
        clients * per_client,
        failures.join("\n")
    );
    // And the server still serves.
    let (status, _) = exchange(addr, "/api/square.png?m=11");
    assert_eq!(status, 200);
}
