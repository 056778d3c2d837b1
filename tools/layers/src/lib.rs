//! The server's layer check, reading the code as rustc does (`syn`): every `use`, every path in
//! an expression, a type, a pattern or an attribute, and the paths inside macro calls, with test
//! modules left out (tests may reach anywhere). It fails on
//!
//! - an arrow up the layer order `boot → http → app → services → db` (the engine is another
//!   crate, below them all), or a module in no layer;
//! - an import circle;
//! - `sqlx` named outside the db layer (`db/` and the types its tables hold);
//! - the HTTP framework (`axum`, `tower`, `tower_http`) named outside `http/` and the boot code;
//! - a handler that reaches a query directly (`http/` → `db/`): it calls a use case in `app/`
//!   (only `http/state.rs`, which holds the database's pool, names `db`).
//!
//! With `circles_only` (the engine crate) it checks only that no import circle exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::{self, Visit};

/// The layer of each top-level module of `server/src`, top to bottom. A new module must be named
/// here: the check fails on one it does not know.
pub const LAYERS: [(&str, &[&str]); 5] = [
    ("boot", &["main", "lib", "startup", "seed"]),
    ("http", &["http"]),
    ("app", &["app"]),
    (
        "services",
        &[
            "accounts",
            "coverage",
            "demo_data",
            "documents",
            "maintenance",
            "platform",
            "rules",
            "security",
        ],
    ),
    ("db", &["db", "npn"]),
];

/// The crates of the HTTP framework, which only `http/` and the boot code name.
const WEB_CRATES: [&str; 3] = ["axum", "tower", "tower_http"];

/// The `http` modules that name `db` by design: the server's state holds the database's pool.
const HOLDS_THE_POOL: [&str; 1] = ["http::state"];

/// What one source file names.
#[derive(Default)]
struct Names {
    /// Every path, as its segments (`crate`, `super`, `self` kept).
    paths: Vec<Vec<String>>,
    /// Child modules declared for tests only (`#[cfg(test)] mod tests;`).
    test_modules: Vec<String>,
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

fn attrs_of(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item::*;
    match item {
        Const(i) => &i.attrs,
        Enum(i) => &i.attrs,
        ExternCrate(i) => &i.attrs,
        Fn(i) => &i.attrs,
        ForeignMod(i) => &i.attrs,
        Impl(i) => &i.attrs,
        Macro(i) => &i.attrs,
        Mod(i) => &i.attrs,
        Static(i) => &i.attrs,
        Struct(i) => &i.attrs,
        Trait(i) => &i.attrs,
        TraitAlias(i) => &i.attrs,
        Type(i) => &i.attrs,
        Union(i) => &i.attrs,
        Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The full paths of a `use` tree (`a::{b, c::d}` is `a::b` and `a::c::d`; `a::{self}` is `a`).
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident == "self" => out.push(prefix.clone()),
        syn::UseTree::Name(n) => {
            let mut p = prefix.clone();
            p.push(n.ident.to_string());
            out.push(p);
        }
        syn::UseTree::Rename(r) if r.ident == "self" => out.push(prefix.clone()),
        syn::UseTree::Rename(r) => {
            let mut p = prefix.clone();
            p.push(r.ident.to_string());
            out.push(p);
        }
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_paths(t, prefix, out);
            }
        }
    }
}

/// The `a::b::c` sequences in a macro's or an attribute's tokens (not parsed as Rust).
fn token_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    fn end(current: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        if current.len() > 1 {
            out.push(std::mem::take(current));
        } else {
            current.clear();
        }
    }
    let mut current: Vec<String> = Vec::new();
    // The `:` seen since the last identifier: two join it to the next.
    let mut colons = 0;
    for tt in tokens {
        match tt {
            TokenTree::Ident(i) => {
                if colons != 2 {
                    end(&mut current, out);
                }
                current.push(i.to_string());
                colons = 0;
            }
            TokenTree::Punct(p) if p.as_char() == ':' && colons < 2 => colons += 1,
            TokenTree::Group(g) => {
                end(&mut current, out);
                colons = 0;
                token_paths(g.stream(), out);
            }
            _ => {
                end(&mut current, out);
                colons = 0;
            }
        }
    }
    end(&mut current, out);
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if is_cfg_test(attrs_of(item)) {
            if let syn::Item::Mod(m) = item
                && m.content.is_none()
            {
                self.test_modules.push(m.ident.to_string());
            }
            return;
        }
        visit::visit_item(self, item);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        use_paths(&u.tree, &mut Vec::new(), &mut self.paths);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.paths
            .push(p.segments.iter().map(|s| s.ident.to_string()).collect());
        visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.visit_path(&m.path);
        token_paths(m.tokens.clone(), &mut self.paths);
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        if let syn::Meta::List(list) = &a.meta {
            token_paths(list.tokens.clone(), &mut self.paths);
        }
        visit::visit_attribute(self, a);
    }
}

/// A module's name from its file (`http/steps.rs` is `http::steps`, `http/mod.rs` is `http`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

fn layer_of(module: &str) -> Option<&'static str> {
    let top = module.split("::").next().unwrap_or(module);
    LAYERS
        .iter()
        .find(|(_, tops)| tops.contains(&top))
        .map(|(name, _)| *name)
}

fn rank(layer: &str) -> usize {
    LAYERS
        .iter()
        .position(|(name, _)| *name == layer)
        .unwrap_or(usize::MAX)
}

/// What the check found: the arrows between modules, and the problems.
#[derive(Debug, Default)]
pub struct Report {
    pub modules: usize,
    pub edges: BTreeMap<String, BTreeSet<String>>,
    pub problems: Vec<String>,
}

/// Reads every `.rs` file under `src` and checks it (see the crate's comment).
pub fn check(src: &Path, circles_only: bool) -> std::io::Result<Report> {
    let mut files = Vec::new();
    rust_files(src, &mut files)?;
    files.sort();
    let mut report = Report::default();
    let mut parsed: BTreeMap<String, Names> = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file)?;
        let module = module_of(src, file);
        match syn::parse_file(&text) {
            Ok(ast) => {
                let mut names = Names::default();
                names.visit_file(&ast);
                parsed.insert(module, names);
            }
            Err(e) => report
                .problems
                .push(format!("{}: does not parse: {e}", file.display())),
        }
    }
    // Modules declared for tests only, and everything below them, are not read.
    let tests: Vec<String> = parsed
        .iter()
        .flat_map(|(m, n)| {
            n.test_modules.iter().map(move |t| {
                if m.is_empty() || m == "lib" || m == "main" {
                    t.clone()
                } else {
                    format!("{m}::{t}")
                }
            })
        })
        .collect();
    parsed.retain(|m, _| {
        !tests
            .iter()
            .any(|t| m == t || m.starts_with(&format!("{t}::")))
    });
    let modules: BTreeSet<String> = parsed.keys().cloned().collect();
    report.modules = modules.len();
    let resolve = |path: &[String]| -> Option<String> {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].join("::"))
            .find(|name| modules.contains(name))
    };
    for (module, names) in &parsed {
        let here: Vec<String> = if module.is_empty() || module == "lib" || module == "main" {
            Vec::new()
        } else {
            module.split("::").map(str::to_string).collect()
        };
        let layer = layer_of(module);
        let mut edges = BTreeSet::new();
        let mut sqlx = BTreeSet::new();
        let mut web = BTreeSet::new();
        for path in &names.paths {
            let Some(first) = path.first() else { continue };
            let target = match first.as_str() {
                "crate" => resolve(&path[1..]),
                "super" | "self" => {
                    let mut base = here.clone();
                    let mut rest = &path[..];
                    // `super::` in `http/steps.rs` and in `http/mod.rs` alike names the parent.
                    while let Some(("super", tail)) =
                        rest.split_first().map(|(h, t)| (h.as_str(), t))
                    {
                        base.pop();
                        rest = tail;
                    }
                    if let Some(("self", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
                        rest = tail;
                    }
                    base.extend(rest.iter().cloned());
                    resolve(&base)
                }
                "sqlx" => {
                    sqlx.insert(path.join("::"));
                    None
                }
                c if WEB_CRATES.contains(&c) => {
                    web.insert(path.join("::"));
                    None
                }
                _ => None,
            };
            if let Some(t) = target
                && t != *module
                && t != "lib"
                && t != "main"
            {
                edges.insert(t);
            }
        }
        if !circles_only {
            if layer.is_none() {
                report.problems.push(format!(
                    "{module}: not in any layer (name it in tools/layers/src/lib.rs)"
                ));
            }
            if layer != Some("db")
                && let Some(first) = sqlx.iter().next()
            {
                report.problems.push(format!(
                    "{module}: sqlx outside db/ (`{first}`): name what db/ offers instead"
                ));
            }
            if !matches!(layer, Some("http" | "boot"))
                && let Some(first) = web.iter().next()
            {
                report
                    .problems
                    .push(format!("{module}: HTTP types outside http/ (`{first}`)"));
            }
        }
        report.edges.insert(module.clone(), edges);
    }
    if !circles_only {
        for (a, targets) in &report.edges {
            for b in targets {
                let (Some(la), Some(lb)) = (layer_of(a), layer_of(b)) else {
                    continue;
                };
                if rank(lb) < rank(la) {
                    report
                        .problems
                        .push(format!("{a} ({la}) -> {b} ({lb}): against the layer order"));
                }
                if la == "http" && lb == "db" && !HOLDS_THE_POOL.contains(&a.as_str()) {
                    report.problems.push(format!(
                        "{a} -> {b}: a handler reaches a query; call a use case in app/"
                    ));
                }
            }
        }
    }
    for circle in circles(&report.edges) {
        let members: BTreeSet<&String> = circle.iter().collect();
        let arrows: Vec<String> = circle
            .iter()
            .flat_map(|a| {
                report.edges[a]
                    .iter()
                    .filter(|b| members.contains(b))
                    .map(move |b| format!("{a} -> {b}"))
            })
            .collect();
        report.problems.push(format!(
            "import circle of {} modules: {}",
            circle.len(),
            arrows.join("; ")
        ));
    }
    Ok(report)
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        let targets: Vec<&'a str> = s
            .edges
            .get(v)
            .map(|t| t.iter().map(String::as_str).collect())
            .unwrap_or_default();
        for w in targets {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(lw));
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}
