//! The wire contract: every request and response body is a named type of the
//! HTTP layer, and the web app's copy of the OpenAPI document (`web/openapi.json`, which its API
//! types are generated from) is the server's.

use serde_json::Value;

fn document() -> Value {
    let text = enrollflow_server::http::openapi_document().expect("the document serializes");
    serde_json::from_str(&text).expect("JSON")
}

/// Why a body's schema is not a named type: `None` when it is one (a `$ref`, a list or map of
/// them, a scalar, or a file).
fn unnamed(schema: &Value) -> Option<String> {
    if schema.get("$ref").is_some() {
        return None;
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("array") => schema.get("items").and_then(unnamed),
        Some("object") => match schema.get("additionalProperties") {
            Some(inner) if inner.is_object() && inner.get("$ref").is_some() => None,
            Some(inner)
                if inner
                    .get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t != "object") =>
            {
                None
            }
            _ => Some(format!("an unnamed object {schema}")),
        },
        Some(_) => None,
        None if schema.get("oneOf").is_some() || schema.get("anyOf").is_some() => None,
        None => Some(format!("no type at all {schema}")),
    }
}

#[test]
fn every_request_and_response_body_is_a_named_type() {
    let doc = document();
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("operations") {
            let mut bodies = Vec::new();
            if let Some(content) = op
                .pointer("/requestBody/content")
                .and_then(Value::as_object)
            {
                bodies.extend(content.values().map(|c| ("request", c)));
            }
            if let Some(responses) = op.get("responses").and_then(Value::as_object) {
                for response in responses.values() {
                    if let Some(content) = response.get("content").and_then(Value::as_object) {
                        bodies.extend(content.values().map(|c| ("response", c)));
                    }
                }
            }
            for (kind, media) in bodies {
                if let Some(why) = media.get("schema").and_then(unnamed) {
                    found.push(format!("{method} {path} {kind}: {why}"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "bodies that are not named types:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_web_apps_copy_of_the_document_is_current() {
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/openapi.json");
    let ours = enrollflow_server::http::openapi_document().expect("the document serializes");
    let theirs = std::fs::read_to_string(&committed).unwrap_or_default();
    assert!(
        theirs.trim_end() == ours.trim_end(),
        "web/openapi.json is not the server's document: run `make api-types` and commit the result"
    );
}

/// Two Rust types under one schema name would leave only one of them in the document (utoipa
/// keeps the last): every `ToSchema` type of the server has a name of its own (or an `as = …`).
#[test]
fn no_two_wire_types_share_a_schema_name() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut seen: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut stack = vec![src];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read");
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if !(line.starts_with("#[derive(") && line.contains("ToSchema")) {
                    continue;
                }
                let mut name_as = None;
                for next in &lines[i + 1..] {
                    let next = next.trim();
                    if let Some(rest) = next.strip_prefix("#[schema(as = ") {
                        name_as = rest.split([')', ',']).next().map(str::to_string);
                    }
                    let item = next
                        .strip_prefix("pub struct ")
                        .or_else(|| next.strip_prefix("pub enum "))
                        .or_else(|| next.strip_prefix("struct "))
                        .or_else(|| next.strip_prefix("enum "));
                    if let Some(item) = item {
                        let ident: String = item
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        let name = name_as.take().unwrap_or(ident);
                        seen.entry(name)
                            .or_default()
                            .push(path.display().to_string());
                        break;
                    }
                }
            }
        }
    }
    let twice: Vec<String> = seen
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(name, files)| format!("{name}: {}", files.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "schema names used twice:\n{}",
        twice.join("\n")
    );
}
