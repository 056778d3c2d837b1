//! What a coverage run reached compared with what the rule set holds (`Engine::coverage`), the
//! flow's transitions read from its rules.

use std::collections::{BTreeSet, HashSet};
use std::sync::PoisonError;

use rhai::{AST, ASTNode, Expr as RExpr, Stmt};
use serde_json::Value;

use super::probe::field_paths;
use super::{FileLines, Hits, Item, Key, Line, Probe, Report};
use crate::Engine;
use crate::catalog::Successor;

impl Engine {
    /// What the scenario runs made with this rule set reached; `None` unless it was loaded with
    /// [`crate::load_with_coverage`].
    pub fn coverage(&self) -> Option<Report> {
        let probe = self.probe.as_ref()?;
        let hits = probe.hits();
        let mut report = Report::default();
        let count = |k: &Key| {
            let map = if k.expr { &hits.exprs } else { &hits.stmts };
            map.get(&(k.line, k.col)).copied().unwrap_or(0)
        };

        // Script statements and branches.
        let scripts = probe.scripts.lock().unwrap_or_else(PoisonError::into_inner);
        for s in scripts.iter() {
            let text_lines: Vec<&str> = s.text.lines().collect();
            let mut lines: Vec<Line> = text_lines
                .iter()
                .map(|t| Line {
                    text: (*t).to_string(),
                    statements: 0,
                    reached: 0,
                    missed_branches: Vec::new(),
                })
                .collect();
            let line_of = |k: &Key| usize::from(k.line.saturating_sub(s.start));
            for n in &s.statements {
                let reached = count(&n.key) > 0;
                report.totals.statements.add(reached);
                let l = line_of(&n.key);
                if let Some(line) = l.checked_sub(1).and_then(|i| lines.get_mut(i)) {
                    line.statements += 1;
                    line.reached += usize::from(reached);
                }
                if !reached {
                    report.items.push(Item {
                        kind: "statement".into(),
                        what: text_lines
                            .get(l.saturating_sub(1))
                            .map(|t| t.trim().to_string())
                            .unwrap_or_default(),
                        file: s.path.clone(),
                        line: l,
                        reached,
                    });
                }
            }
            for b in &s.branches {
                let at = count(&b.at);
                let then_n = b.then_first.as_ref().map(&count);
                let else_n = b.else_first.as_ref().map(&count);
                let then_taken = match (then_n, else_n) {
                    (Some(n), _) => n > 0,
                    (None, Some(e)) => at > e,
                    (None, None) => at > 0,
                };
                let else_taken = match (else_n, then_n) {
                    (Some(n), _) => n > 0,
                    (None, Some(t)) => at > t,
                    (None, None) => at > 0,
                };
                let l = line_of(&b.at);
                for (way, taken) in [("true", then_taken), ("false", else_taken)] {
                    report.totals.branches.add(taken);
                    if !taken {
                        let what = format!("`if` never {way}");
                        if let Some(line) = l.checked_sub(1).and_then(|i| lines.get_mut(i)) {
                            line.missed_branches.push(what.clone());
                        }
                        report.items.push(Item {
                            kind: "branch".into(),
                            what,
                            file: s.path.clone(),
                            line: l,
                            reached: false,
                        });
                    }
                }
            }
            report.files.push(FileLines {
                path: s.path.clone(),
                lines,
            });
        }
        drop(scripts);

        // Expressions in the YAML files.
        for e in probe
            .expressions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
        {
            let reached = hits.sources.contains(&format!("{}:{}", e.file, e.line));
            report.totals.statements.add(reached);
            if !reached {
                report.items.push(Item {
                    kind: "expression".into(),
                    what: e.source.clone(),
                    file: e.file.clone(),
                    line: e.line,
                    reached,
                });
            }
        }

        // Transitions and the dialogs rules ask.
        let mut asked = BTreeSet::new();
        for (from, to, file, line) in self.transitions(probe) {
            let reached = hits.transitions.contains(&(from.clone(), to.clone()));
            report.totals.transitions.add(reached);
            if let Some(m) = to.strip_prefix("modal:") {
                asked.insert(m.to_string());
            }
            report.items.push(Item {
                kind: "transition".into(),
                what: format!("{from} → {}", to.replace("modal:", "dialog ")),
                file,
                line,
                reached,
            });
        }
        for (name, form) in &self.forms {
            let Value::Object(modals) = &*form.modals else {
                continue;
            };
            let (file, text) = self.form_source(name);
            for id in modals.keys() {
                let item = Item {
                    kind: "modal".into(),
                    what: format!("{name}: {id}"),
                    line: line_of_key(text, "modals:", id),
                    file: file.clone(),
                    reached: hits
                        .transitions
                        .iter()
                        .any(|(_, to)| to.strip_prefix("modal:") == Some(id)),
                };
                if asked.contains(id) {
                    report.totals.modals.add(item.reached);
                    report.items.push(item);
                } else {
                    report.page_modals.push(item);
                }
            }
        }

        // Fields shown and hidden.
        for (name, form) in &self.forms {
            let (file, text) = self.form_source(name);
            let conditional: BTreeSet<String> = form
                .only_when
                .iter()
                .map(|(p, _)| crate::form::path_string(p))
                .collect();
            let mut paths = Vec::new();
            field_paths(&form.schema, &mut Vec::new(), &mut paths);
            for p in paths {
                let shown_path = crate::form::path_string(&p);
                let last = p
                    .iter()
                    .rev()
                    .find(|s| *s != "*")
                    .cloned()
                    .unwrap_or_default();
                let line = line_of_key(text, "schema:", &last);
                let mut ways = vec![true];
                if conditional.contains(&shown_path) {
                    ways.push(false);
                }
                for shown in ways {
                    let reached = hits
                        .fields
                        .contains(&(name.clone(), shown_path.clone(), shown));
                    report.totals.fields.add(reached);
                    report.items.push(Item {
                        kind: "field".into(),
                        what: format!(
                            "{name}: {shown_path} {}",
                            if shown { "shown" } else { "hidden" }
                        ),
                        file: file.clone(),
                        line,
                        reached,
                    });
                }
            }
        }

        // Carriers' plans quoted, by plan year and kind.
        let carriers_text = probe_text(&self.sources, "rules/catalog/carriers.yaml");
        for (year, kinds) in &self.catalog.plans {
            for (kind, plans) in kinds {
                let ids: BTreeSet<u8> = plans.iter().map(|p| p.carrier).collect();
                for c in ids {
                    let reached = hits.quoted.contains(&(*year, c, *kind));
                    report.totals.carriers.add(reached);
                    report.items.push(Item {
                        kind: "carrier".into(),
                        what: format!(
                            "{year} {} plans of {}",
                            kind.key(),
                            self.catalog
                                .carriers
                                .iter()
                                .find(|x| x.id == c)
                                .map_or("an unknown carrier", |x| x.name.as_str())
                        ),
                        file: "rules/catalog/carriers.yaml".into(),
                        line: line_of_key(carriers_text, "carriers:", &format!("id: {c}")),
                        reached,
                    });
                }
            }
        }
        self.crosswalk_items(&hits, &mut report);
        Some(report)
    }

    /// Every mapping of each plan year's crosswalk, reached when a renewal looked it up.
    fn crosswalk_items(&self, hits: &Hits, report: &mut Report) {
        for (year, walk) in &self.catalog.crosswalks {
            for ((kind, from), walked) in &walk.plans {
                for r in walked.renewals() {
                    let reached = hits.renewals.contains(&(*year, r.line));
                    report.totals.crosswalk.add(reached);
                    let to = match r.successor {
                        Successor::Plan(id) => format!("plan {id}"),
                        Successor::Discontinued => "discontinued".to_string(),
                    };
                    let counties: Vec<String> = walked
                        .by_county
                        .iter()
                        .filter(|(_, c)| c.line == r.line)
                        .map(|(id, _)| {
                            self.catalog
                                .counties
                                .get(id)
                                .map_or_else(|| id.to_string(), |c| c.name.clone())
                        })
                        .collect();
                    let place = if counties.is_empty() {
                        String::new()
                    } else {
                        format!(" in {}", counties.join(", "))
                    };
                    report.items.push(Item {
                        kind: "crosswalk".into(),
                        what: format!("{} {kind} plan {from}: {to}{place}", walk.from_year),
                        file: walk.file.clone(),
                        line: r.line,
                        reached,
                    });
                }
            }
        }
    }

    fn form_source(&self, name: &str) -> (String, &str) {
        let file = format!("forms/{name}.form.yaml");
        let text = probe_text(&self.sources, &file);
        (file, text)
    }

    /// Every way a step can go: `(from, to, file, line)`, `to` a step id or `modal:<id>`.
    fn transitions(&self, probe: &Probe) -> Vec<(String, String, String, usize)> {
        let flow = self
            .sources
            .iter()
            .find(|(p, _)| p.starts_with("rules/flows/"))
            .map(|(p, t)| (p.clone(), t.as_str()))
            .unwrap_or_default();
        let step_ids: Vec<&str> = self.steps.iter().map(|s| s.info.id.as_str()).collect();
        // The step at `i` and, while it may be skipped, the steps after it.
        let reach = |mut i: usize| {
            let mut out = Vec::new();
            while let Some(s) = self.steps.get(i) {
                out.push(s.info.id.clone());
                if s.skip_when.is_none() {
                    break;
                }
                i += 1;
            }
            out
        };
        let mut out = Vec::new();
        for (i, step) in self.steps.iter().enumerate() {
            let line = line_of_key(flow.1, "steps:", &format!("id: {}", step.info.id));
            let mut targets: BTreeSet<String> = BTreeSet::new();
            match &step.next {
                Some(e) => {
                    let modals: Vec<String> = step
                        .form
                        .as_ref()
                        .and_then(|f| self.forms.get(f))
                        .and_then(|f| f.modals.as_object())
                        .map(|m| m.keys().cloned().collect())
                        .unwrap_or_default();
                    for name in named_strings(probe, e.ast()) {
                        if let Some(j) = step_ids.iter().position(|s| *s == name) {
                            targets.extend(reach(j));
                        } else if modals.contains(&name) {
                            targets.insert(format!("modal:{name}"));
                        }
                    }
                }
                None if i + 1 < self.steps.len() => targets.extend(reach(i + 1)),
                None => {
                    targets.insert(step.info.id.clone());
                }
            }
            for t in targets {
                out.push((step.info.id.clone(), t, flow.0.clone(), line));
            }
        }
        out
    }
}

/// Every string literal an expression holds, and those of the script functions it calls.
fn named_strings(probe: &Probe, ast: &AST) -> BTreeSet<String> {
    let mut strings = BTreeSet::new();
    let mut calls: Vec<(String, String)> = Vec::new();
    let note = |n: &ASTNode, module: &str, strings: &mut BTreeSet<String>, calls: &mut Vec<_>| {
        let call = |f: &rhai::FnCallExpr, calls: &mut Vec<(String, String)>| {
            let m = if f.namespace.is_empty() {
                module.to_string()
            } else {
                f.namespace.root().to_string()
            };
            calls.push((m, f.name.to_string()));
        };
        match n {
            ASTNode::Expr(RExpr::StringConstant(s, _)) => {
                strings.insert(s.to_string());
            }
            ASTNode::Expr(RExpr::DynamicConstant(d, _)) => collect_strings(d, strings),
            ASTNode::Expr(RExpr::FnCall(f, _)) | ASTNode::Stmt(Stmt::FnCall(f, _)) => {
                call(f, calls)
            }
            _ => {}
        }
    };
    ast.walk(&mut |p: &[ASTNode]| {
        if let Some(n) = p.last() {
            note(n, "", &mut strings, &mut calls);
        }
        true
    });
    let mut done = HashSet::new();
    while let Some((module, name)) = calls.pop() {
        if module.is_empty() || !done.insert((module.clone(), name.clone())) {
            continue;
        }
        let mut found = Vec::new();
        probe.walk_function(&module, &name, &mut |n| {
            note(n, &module, &mut strings, &mut found);
        });
        calls.extend(found);
    }
    strings
}

fn collect_strings(d: &rhai::Dynamic, out: &mut BTreeSet<String>) {
    if let Some(s) = d.read_lock::<rhai::ImmutableString>() {
        out.insert(s.to_string());
    } else if let Some(m) = d.read_lock::<rhai::Map>() {
        for v in m.values() {
            collect_strings(v, out);
        }
    } else if let Some(a) = d.read_lock::<rhai::Array>() {
        for v in a.iter() {
            collect_strings(v, out);
        }
    }
}

fn probe_text<'a>(sources: &'a [(String, String)], path: &str) -> &'a str {
    sources
        .iter()
        .find(|(p, _)| p == path)
        .map(|(_, t)| t.as_str())
        .unwrap_or("")
}

/// The 1-based line where `key` is written (`key:` or `- key`) after the line holding `after`;
/// 1 when it is not found.
fn line_of_key(text: &str, after: &str, key: &str) -> usize {
    let mut started = after.is_empty();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim_start().trim_start_matches("- ");
        if !started {
            started = t.starts_with(after);
            continue;
        }
        if t == key || t.starts_with(&format!("{key}:")) || t.starts_with(&format!("{key} ")) {
            return i + 1;
        }
    }
    1
}
