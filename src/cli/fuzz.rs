//! Property-based fuzzing of every list and size parser, through the command
//! definitions themselves (so clap's value parsers are what is tested) and through
//! the parsers the subcommands call at run time: malformed and adversarial text
//! never panics, valid text parses to exactly what it says. Past failures are kept
//! by proptest in `proptest-regressions/`.

use super::Cli;
use clap::Parser;
use proptest::prelude::*;

/// Text a hostile user might type: numbers of any size, separators, unicode,
/// control characters.
fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9,.=x -]{0,40}",
        "([0-9]{1,30}|\\.\\.|\\.\\.=|,|=|-|e|E|[KMGTkmgt]i?[Bb]?|NaN|inf| ){0,16}",
        any::<String>(),
        "[\\x00-\\x1f\\u{80}-\\u{10ffff}0-9.,]{0,30}",
    ]
}

fn parses(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("nimscape").chain(args.iter().copied()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn list_and_size_flags_never_panic(text in hostile()) {
        for args in [
            &["square", "--m", &text][..],
            &["square", "--m", "3", "--n", &text],
            &["count", "--m", &text],
            &["automaton", "--frames", &text],
            &["--max-memory", &text, "count", "--m", "3"],
            &["--max-output", &text, "count", "--m", "3"],
            &["square", "--m", "3", "--caption-size", &text],
            &["--threads", &text, "count", "--m", "3"],
        ] {
            let _ = parses(args);
        }
        let _ = text.parse::<nimscape_model::games::GameBox>();
        let _ = nimscape::request::grundy::parse_shift_range(&text);
        let _ = nimscape_model::octahedron::level::Level::parse_level(8, &text);
        let _ = nimscape_model::octahedron::level::Level::parse_r(&text);
    }

    #[test]
    fn ranges_parse_to_exactly_their_values(a in 1u64..5000, len in 0u64..100, extra in 1u64..1_000_000_000) {
        let b = a + len;
        let want: Vec<u64> = (a..=b).chain([extra]).collect();
        for text in [format!("{a}..{b},{extra}"), format!(" {a}..={b} , {extra}")] {
            let m = nimscape::request::parse_m_list(&text).unwrap();
            prop_assert_eq!(&m.0, &want);
        }
    }

    #[test]
    fn sizes_parse_to_exactly_their_bytes(n in 1u64..100_000, unit in 0usize..5) {
        let suffix = ["", "K", "M", "G", "T"][unit];
        let want = n << (10 * unit);
        if want <= nimscape::request::MAX_BYTES {
            prop_assert_eq!(nimscape::request::parse_bytes(&format!("{n}{suffix}")).unwrap(), want);
            prop_assert_eq!(nimscape::request::parse_bytes(&format!("{n}{}iB", suffix.to_lowercase())).unwrap(), want);
        } else {
            let text = format!("{n}{suffix}");
            prop_assert!(nimscape::request::parse_bytes(&text).is_err());
        }
    }

    #[test]
    fn boxes_parse_to_exactly_their_bounds(bounds in proptest::collection::vec(any::<u32>(), 1..8)) {
        let text = bounds.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let parsed: nimscape_model::games::GameBox = text.parse().unwrap();
        let want = if bounds.len() == 1 {
            nimscape_model::games::GameBox::Uniform(bounds[0])
        } else {
            nimscape_model::games::GameBox::Each(bounds)
        };
        prop_assert_eq!(parsed, want);
    }
}

/// Recipe text: real keys and models, values of every TOML type, broken syntax.
fn recipe_text() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("name"),
        Just("model"),
        Just("m"),
        Just("n"),
        Just("game"),
        Just("box"),
        Just("cap"),
        Just("level"),
        Just("formats"),
        Just("quick"),
        Just("caption"),
        Just("title"),
        Just("threads"),
        Just("max-memory"),
        Just("decompose"),
    ];
    let value = prop_oneof![
        "\"[a-z0-9 .,=-]{0,12}\"",
        "-?[0-9]{1,25}",
        Just("true".to_string()),
        Just("[\"png\", \"pdf\"]".to_string()),
        Just("{ box = 8 }".to_string()),
        Just("\"--max-memory=100T\"".to_string()),
        Just("\"square\"".to_string()),
        Just("\"grundy\"".to_string()),
        "[\\x00-\\x7f]{0,10}",
    ];
    let line = prop_oneof![
        (key, value).prop_map(|(k, v)| format!("{k} = {v}")),
        Just("[[figure]]".to_string()),
        Just("[defaults]".to_string()),
        "[^\\n]{0,20}",
    ];
    proptest::collection::vec(line, 0..16).prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn recipe_loading_never_panics(text in prop_oneof![recipe_text(), any::<String>()]) {
        let _ = nimscape::recipe::Recipe::parse(std::path::Path::new("r.toml"), &text);
    }
}

#[test]
fn huge_lists_are_refused_quickly() {
    let start = std::time::Instant::now();
    let many = (1..200_000)
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let err =
        nimscape::request::from_clap(&parses(&["square", "--m", &many]).unwrap_err()).to_string();
    assert!(err.len() < 500, "a long line: {} bytes", err.len());
    assert!(err.contains("more than"), "{err}");
    assert!(many.parse::<nimscape_model::games::GameBox>().is_err());
    let digits = "9".repeat(100_000);
    let err =
        nimscape::request::from_clap(&parses(&["count", "--m", &digits]).unwrap_err()).to_string();
    assert!(err.len() < 500, "a long line: {} bytes", err.len());
    assert!(nimscape::request::parse_bytes(&digits).is_err());
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}
