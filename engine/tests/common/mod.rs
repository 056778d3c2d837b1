//! The repository's rule set as sources, for the integration tests that load it.

use std::path::{Path, PathBuf};

use enrollflow_engine::Source;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.yaml` and `.rhai` file below `dir` (relative to `root`), with its relative path.
pub fn read_dir(root: &Path, dir: &str, out: &mut Vec<Source>) {
    let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let rel = format!("{dir}/{name}");
        if e.path().is_dir() {
            read_dir(root, &rel, out);
        } else if name.ends_with(".yaml") || name.ends_with(".rhai") {
            let text = std::fs::read_to_string(e.path()).expect("readable");
            out.push(Source::new(rel, text));
        }
    }
}

/// `rules/` and `forms/` of the repository.
pub fn sources() -> Vec<Source> {
    let mut out = Vec::new();
    read_dir(&repo(), "rules", &mut out);
    read_dir(&repo(), "forms", &mut out);
    out
}
