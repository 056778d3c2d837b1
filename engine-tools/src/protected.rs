//! The protected core: what the operators decide and no rule set can change, however it was
//! published. Every set is checked here when it loads (`set::bundle_of`: the folder, a draft, a
//! publication, a set read back from the database):
//!
//! - its files are under the paths analysts own (`rules/`, `forms/`, the consumer templates);
//! - the answers `engine-tools/policy/protected.yaml` names, and any field that reads as an SSN or a
//!   tax id, are `x-sensitive` ([`enrollflow_engine::protected`]);
//! - a template of the set that mails a link (save for later, the hand-off) puts it on a line of
//!   its own, and renders within its fuel.
//!
//! Account mail (password reset, invitation) is the server's own (`server/mail/`,
//! `server/src/rules/protected.rs`): no analyst's template ever renders a token or a link that carries
//! one.
//!
//! Scripts may import only modules of their own set (`engine/src/tests.rs`). Checked at every load
//! and by `server/tests/api/governance.rs` (each refusal, through publish and impact) and the tests
//! of `engine/src/protected.rs`.

use std::sync::OnceLock;

use enrollflow_engine::protected::Policy;
use enrollflow_engine::{Diagnostic, Source};

/// Where the policy is kept, as problems name it.
pub const POLICY_PATH: &str = "engine-tools/policy/protected.yaml";
const POLICY: &str = include_str!("../policy/protected.yaml");

/// The operators' policy (shipped inside the binary).
pub fn policy() -> Result<&'static Policy, Diagnostic> {
    static PARSED: OnceLock<Result<Policy, Diagnostic>> = OnceLock::new();
    PARSED
        .get_or_init(|| Policy::parse(POLICY_PATH, POLICY))
        .as_ref()
        .map_err(Clone::clone)
}

/// How many instructions a template may spend on one rendering (a legal text renders on every
/// visitor's request: a template that loops is stopped, not served).
pub const TEMPLATE_FUEL: u64 = 200_000;

/// The templates analysts own, under `templates/` or a language's `templates/<code>/`: what a
/// consumer reads (the legal texts, the consumer's e-mails), each in every language of the set.
pub const ANALYSTS_TEMPLATES: [&str; 6] = [
    "legal/privacy.html",
    "legal/terms.html",
    "email/receipt.txt",
    "email/resume.txt",
    "email/handoff.txt",
    "email/renewal.txt",
];

/// The analysts' templates that mail a link: it stands on a line of its own, so no text of the
/// template can wrap it in another address.
pub const LINK_TEMPLATES: [&str; 3] =
    ["email/resume.txt", "email/handoff.txt", "email/renewal.txt"];

/// Whether a path names a file below its folder: no empty, `.` or `..` part.
pub fn plain_path(path: &str) -> bool {
    !path
        .split('/')
        .any(|seg| seg.is_empty() || seg == "." || seg == "..")
}

/// Why a path is not the analysts' to publish, if it is not.
pub fn not_analysts(path: &str) -> Option<String> {
    if !plain_path(path) {
        return Some("a path of a rule set has no empty, `.` or `..` part".into());
    }
    let rules = (path.starts_with("rules/") || path.starts_with("forms/"))
        && (path.ends_with(".yaml") || path.ends_with(".rhai"));
    if rules {
        return None;
    }
    let Some(template) = path.strip_prefix("templates/") else {
        return Some(
            "only files under rules/ and forms/ (YAML, Rhai) and the consumer templates belong \
             to a rule set"
                .into(),
        );
    };
    // `templates/<name>` or `templates/<language code>/<name>`.
    let name = match template.split_once('/') {
        Some((code, rest)) if code.len() == 2 && code.chars().all(|c| c.is_ascii_lowercase()) => {
            rest
        }
        _ => template,
    };
    if ANALYSTS_TEMPLATES.contains(&name) {
        None
    } else if name.starts_with("email/") {
        Some(
            "account mail (password resets, invitations, sign-in notices) is the server's own, \
             not a rule set's"
                .into(),
        )
    } else {
        Some(format!(
            "not a template of a rule set (they are {})",
            ANALYSTS_TEMPLATES.join(", ")
        ))
    }
}

/// Every problem of a set's files against the protected core (paths and sensitivity).
pub fn check_files(files: &[Source]) -> Vec<Diagnostic> {
    let mut problems: Vec<Diagnostic> = files
        .iter()
        .filter_map(|f| not_analysts(&f.path).map(|why| Diagnostic::file(&f.path, why)))
        .collect();
    match policy() {
        Ok(p) => problems.append(&mut enrollflow_engine::protected::check(files, p)),
        Err(d) => problems.push(d),
    }
    problems
}

/// What a link template is given in place of the link: a pair of Unicode noncharacters around a
/// word, which no template text carries; the server puts the link there after rendering.
pub const LINK_PLACE: &str = "\u{FDD2}link\u{FDD3}";

/// Puts `link` where a rendered link template left [`LINK_PLACE`]: it must be there once, alone
/// on its line.
pub fn place_link(body: &str, link: &str) -> anyhow::Result<String> {
    anyhow::ensure!(
        body.matches(LINK_PLACE).count() == 1,
        "the template must show the link exactly once"
    );
    anyhow::ensure!(
        body.lines().any(|l| l.trim() == LINK_PLACE),
        "the template must show the link on a line of its own"
    );
    Ok(body.replacen(LINK_PLACE, link, 1))
}

/// Renders the set's consumer templates once with sample values: a template that runs out of
/// fuel, or a link template whose link does not stand alone, is a problem of the set.
pub fn check_templates(files: &[Source], env: &minijinja::Environment<'_>) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for f in files {
        let Some(name) = f.path.strip_prefix("templates/") else {
            continue;
        };
        let Ok(t) = env.get_template(name) else {
            continue;
        };
        let sample = minijinja::context! {
            first_name => "Pat", last_name => "Example", link => LINK_PLACE,
            valid_until => "the fourth of next month", agent_name => "Alex Agent",
            agency_name => "Example Agency", agent_phone => "(555) 010-0100",
            agent_email => "agent@example.com", confirmation => "EF-000000",
            effective_date => "the first of next month", plans => Vec::<()>::new(),
            monthly_total => "$0.00", tool_owner => "Example", general_agent => "Example",
        };
        let rendered = match t.render(sample) {
            Ok(r) => r,
            Err(e) if e.kind() == minijinja::ErrorKind::OutOfFuel => {
                problems.push(Diagnostic::file(
                    &f.path,
                    format!(
                        "template: it runs past its limit of {TEMPLATE_FUEL} steps for one message"
                    ),
                ));
                continue;
            }
            // Other errors depend on the values; sending reports them.
            Err(_) => continue,
        };
        let is_link_template = LINK_TEMPLATES
            .iter()
            .any(|l| name == *l || name.ends_with(&format!("/{l}")));
        if is_link_template && let Err(e) = place_link(&rendered, "https://example.com/") {
            let line = f
                .text
                .lines()
                .position(|l| l.contains("link"))
                .map_or(1, |i| i + 1);
            problems.push(Diagnostic::new(&f.path, line, 1, format!("template: {e}")));
        }
    }
    problems
}
