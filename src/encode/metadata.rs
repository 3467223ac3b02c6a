//! The provenance written into every file: which tool, which version, which
//! parameters. A leaf of the encoders: each of them takes it, none is needed by it.

/// Key–value text stored in image files (PNG `tEXt`, SVG `<metadata>`) so any figure
/// can be redrawn: the tool, its version and the parameters that made it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// Pairs in the order written.
    pub entries: Vec<(String, String)>,
}

impl Metadata {
    /// Metadata naming nimscape and its version, plus a `Parameters` entry.
    pub fn with_parameters(parameters: impl Into<String>) -> Self {
        Metadata {
            entries: vec![
                (
                    "Software".into(),
                    format!("nimscape {}", env!("CARGO_PKG_VERSION")),
                ),
                ("Parameters".into(), parameters.into()),
            ],
        }
    }
}
