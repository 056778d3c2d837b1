//! A rule set as files: reading `rules/`, `forms/` and `templates/` from a folder, and checking
//! them as one bundle (the protected core, the engine's rules and forms, the templates, each
//! language's version of the consumer templates). The server serves bundles (`server/src/rules/mod.rs`);
//! the analysts' binary and `enrollflow check` check them; the host hands its own texts
//! (`HostTexts`), which every language must translate.

use std::path::Path;

use enrollflow_engine::i18n::HostTexts;
use enrollflow_engine::{Diagnostic, Engine, Source};

/// The folder of the scenario suites, relative to the root (the workbench and the impact run them).
pub const SUITES: &str = "tests/scenarios";

/// The folders a bundle is made of, relative to the root.
pub const FOLDERS: [&str; 3] = ["rules", "forms", "templates"];

/// Everything read from the analysts' folders, checked.
pub struct Bundle {
    pub engine: Engine,
    pub templates: minijinja::Environment<'static>,
    /// Every file of the set (the workbench shows them and starts drafts from them).
    pub files: Vec<Source>,
}

impl Bundle {
    /// The name of a consumer template in a language: its version under `templates/<code>/`, or
    /// the English one (English, the tests' pseudo-language, or a template no language has).
    pub fn template_for(&self, code: &str, name: &str) -> String {
        let localized = format!("{code}/{name}");
        if self.templates.get_template(&localized).is_ok() {
            localized
        } else {
            name.to_string()
        }
    }
}

/// Every rule and form file under `root` (paths relative to it, `/`-separated).
pub fn read_sources(root: &Path) -> Result<Vec<Source>, Diagnostic> {
    read_folders(root, &["rules", "forms"])
}

/// The YAML and Rhai files under these folders of `root`, in path order (also the scenario
/// suites, for tools that replay them).
pub fn read_folders(root: &Path, folders: &[&str]) -> Result<Vec<Source>, Diagnostic> {
    let mut out = Vec::new();
    for folder in folders {
        read_dir(root, folder, &mut out, &|name| {
            name.ends_with(".yaml") || name.ends_with(".rhai")
        })?;
    }
    Ok(out)
}

fn read_dir(
    root: &Path,
    rel: &str,
    out: &mut Vec<Source>,
    keep: &dyn Fn(&str) -> bool,
) -> Result<(), Diagnostic> {
    let dir = root.join(rel);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(Diagnostic::file(
                rel,
                format!("cannot read the folder: {e}"),
            ));
        }
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || name.ends_with('~') {
            continue; // editor swap and backup files
        }
        let path = format!("{rel}/{name}");
        let file_type = e
            .file_type()
            .map_err(|err| Diagnostic::file(&path, err.to_string()))?;
        if file_type.is_dir() {
            read_dir(root, &path, out, keep)?;
        } else if keep(&name) {
            let text = std::fs::read_to_string(e.path())
                .map_err(|err| Diagnostic::file(&path, format!("cannot read the file: {err}")))?;
            out.push(Source::new(path, text));
        }
    }
    Ok(())
}

/// Loads and checks the rules, forms and templates under `root` as one bundle.
pub fn load_bundle(root: &Path, host_texts: &[HostTexts]) -> Result<Bundle, Vec<Diagnostic>> {
    bundle_of(&read_set(root).map_err(|d| vec![d])?, host_texts)
}

/// Every file of the set under `root`: the rules' and forms' YAML and Rhai, and every template.
pub fn read_set(root: &Path) -> Result<Vec<Source>, Diagnostic> {
    let mut files = read_sources(root)?;
    read_dir(root, "templates", &mut files, &|_| true)?;
    Ok(files)
}

/// A digest of a set's files (paths and texts, in path order): the published set's name.
pub fn set_hash(files: &[Source]) -> String {
    use sha2::{Digest, Sha256};
    let mut sorted: Vec<&Source> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    let mut h = Sha256::new();
    for f in sorted {
        h.update(f.path.as_bytes());
        h.update([0]);
        h.update(f.text.as_bytes());
        h.update([0]);
    }
    hex::encode(h.finalize())
}

/// Checks a set's files as one bundle: the protected core (`protected`), the engine's rules and
/// forms, and the templates (`templates/…`, each rendering within its fuel); either all is fine or
/// every problem is returned.
pub fn bundle_of(files: &[Source], host_texts: &[HostTexts]) -> Result<Bundle, Vec<Diagnostic>> {
    // What no set may weaken: its paths and its sensitive answers (`protected`).
    let mut problems = crate::protected::check_files(files);
    // The engine reads the rules and forms; its hash (what applications record) is theirs.
    let engine_files: Vec<Source> = files
        .iter()
        .filter(|f| !f.path.starts_with("templates/"))
        .cloned()
        .collect();
    let engine = match load_engine(&engine_files, false, host_texts) {
        Ok(e) => Some(e),
        Err(mut p) => {
            problems.append(&mut p);
            None
        }
    };
    let mut templates = minijinja::Environment::new();
    templates.add_global("product_name", enrollflow_texts::PRODUCT_NAME);
    templates.set_fuel(Some(crate::protected::TEMPLATE_FUEL));
    for f in files {
        let Some(name) = f.path.strip_prefix("templates/") else {
            continue;
        };
        if let Err(e) = templates.add_template_owned(name.to_string(), f.text.clone()) {
            problems.push(Diagnostic::new(
                &f.path,
                e.line().unwrap_or(1),
                1,
                format!("template: {}", e.detail().unwrap_or("invalid template")),
            ));
        }
    }
    problems.append(&mut crate::protected::check_templates(files, &templates));
    // Every language of the set has its version of each consumer template.
    if let Some(engine) = &engine {
        for code in engine.languages().codes().into_iter().skip(1) {
            // The templates a consumer reads (the analysts'): each in every language of the set.
            for name in crate::protected::ANALYSTS_TEMPLATES {
                let localized = format!("templates/{code}/{name}");
                if files.iter().any(|f| f.path == format!("templates/{name}"))
                    && !files.iter().any(|f| f.path == localized)
                {
                    problems.push(Diagnostic::file(
                        &format!("templates/{name}"),
                        format!("no {code} version of this template ({localized})"),
                    ));
                }
            }
        }
    }
    match engine {
        Some(engine) if problems.is_empty() => Ok(Bundle {
            engine,
            templates,
            files: files.to_vec(),
        }),
        _ => Err(problems),
    }
}

/// Loads the engine's part of a rule set with the host's texts, which every language must
/// translate; `coverage`: for a coverage run.
pub fn load_engine(
    sources: &[Source],
    coverage: bool,
    host_texts: &[HostTexts],
) -> Result<Engine, Vec<Diagnostic>> {
    enrollflow_engine::load_with(
        sources,
        enrollflow_engine::LoadOptions {
            coverage,
            host_texts,
        },
    )
}

/// The rule set at a git revision of the repository at `repo`: every file under `rules/`,
/// `forms/` and `templates/` there (`git ls-tree`, `git show`).
pub fn set_at_revision(repo: &Path, rev: &str) -> anyhow::Result<Vec<Source>> {
    let git = |args: &[&str]| -> anyhow::Result<String> {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(args)
            .output()
            .map_err(|e| anyhow::anyhow!("cannot run git: {e}"))?;
        anyhow::ensure!(
            out.status.success(),
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let mut files = Vec::new();
    let listed = git(&[
        "ls-tree",
        "-r",
        "--name-only",
        rev,
        "--",
        "rules",
        "forms",
        "templates",
    ])?;
    for path in listed.lines() {
        let name = path.rsplit('/').next().unwrap_or(path);
        let engine_file = name.ends_with(".yaml") || name.ends_with(".rhai");
        if name.starts_with('.') || (!path.starts_with("templates/") && !engine_file) {
            continue;
        }
        files.push(Source::new(path, git(&["show", &format!("{rev}:{path}")])?));
    }
    anyhow::ensure!(!files.is_empty(), "no rules at git revision {rev}");
    Ok(files)
}
