//! The repository's rule set as sources, for the integration tests that load it.

use std::path::{Path, PathBuf};

use enrollflow_engine::{Engine, Source, load};

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

/// The engine of these sources; a rule set with problems fails the test, listing them one a line.
#[allow(dead_code)]
pub fn engine(sources: &[Source]) -> Engine {
    load(sources).unwrap_or_else(|problems| {
        let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
        panic!("rule set problems:\n{}", list.join("\n"))
    })
}

/// `rules/` and `forms/` of the repository.
pub fn sources() -> Vec<Source> {
    let mut out = Vec::new();
    read_dir(&repo(), "rules", &mut out);
    read_dir(&repo(), "forms", &mut out);
    out
}

/// `rules/` and `forms/` of the repository with the changes of `tests/files-only/changes.txt`
/// applied (its format is described at its top; `tests/files-only/apply.py` applies it to a folder
/// for the browser test).
#[allow(dead_code)]
pub fn sources_with_changes() -> Vec<Source> {
    let mut out = sources();
    let text = std::fs::read_to_string(repo().join("tests/files-only/changes.txt"))
        .expect("tests/files-only/changes.txt");
    for (op, path, body, with) in changes(&text) {
        let at = out.iter().position(|s| s.path == path);
        match (op.as_str(), at, with) {
            ("add", None, None) => out.push(Source::new(path, body)),
            ("append", Some(i), None) => {
                let s = &mut out[i];
                if !s.text.ends_with('\n') {
                    s.text.push('\n');
                }
                s.text.push_str(&body);
            }
            ("replace", Some(i), Some(with)) => {
                let s = &mut out[i];
                assert_eq!(
                    s.text.matches(&body).count(),
                    1,
                    "replace {path}: the text occurs once\n{body}"
                );
                s.text = s.text.replacen(&body, &with, 1);
            }
            (op, at, _) => panic!(
                "`{op} {path}` does not apply (the file exists: {})",
                at.is_some()
            ),
        }
    }
    out
}

/// The changes of the file: (operation, path, lines, the replacement's lines).
fn changes(text: &str) -> Vec<(String, String, String, Option<String>)> {
    let mut out: Vec<(String, String, String, Option<String>)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some(head) = line.strip_prefix("== ") {
            let (op, path) = head.trim().split_once(' ').expect("== OP PATH");
            out.push((op.to_string(), path.trim().to_string(), String::new(), None));
        } else if let Some(last) = out.last_mut() {
            if last.0 == "replace" && line.trim_end_matches('\n') == "-- with" {
                last.3 = Some(String::new());
            } else if let Some(with) = last.3.as_mut() {
                with.push_str(line);
            } else {
                last.2.push_str(line);
            }
        }
    }
    out
}
