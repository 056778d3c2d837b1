#!/usr/bin/env python3
"""The server's layer check: reads every module's `crate::…` and `super::…` paths in
server/src and fails when the modules form a circle or when an arrow points up the layer order

    boot (main, startup, the CLI's loaders)  ->  http (routers, extractors, middleware, wire types)
        ->  app (the use cases)  ->  services (accounts, quoting, documents, mail, rules, …)
        ->  db  ->  engine

A module may use modules of its own layer or of a layer below; the engine is another crate and
never sees the server. SQL (`sqlx::query…`, `QueryBuilder`) is written only in `db/`. Test modules (`#[cfg(test)] mod tests { … }` at the end of a file) are not
read: tests may reach anywhere.

Usage: tools/layers/check.py [server/src]   (run by `make check`; `--graph` prints every arrow)
       tools/layers/check.py --circles-only engine/src   (the engine: no import circle)
"""
import re
import sys
from pathlib import Path

# The layer of each top-level module of server/src (http/ and db/ by folder); the order is top to
# bottom. A new module must be named here: the check fails on one it does not know.
LAYERS = {
    "boot": {"main", "lib", "startup", "seed"},
    "http": {"http"},
    "app": {"app"},
    "services": {
        "account_notices", "accounts", "budget", "cache", "demo_data", "draft_worker", "drafts", "clock", "config", "crypto", "documents", "error", "governance", "hostname",
        "backup", "evaluation", "evidence", "impact", "keys", "limits", "mail", "password", "pdf", "protected", "quoting", "retention", "rules", "second_factor", "sealed", "sensitive", "signing", "state",
        "telemetry",
    },
    "db": {"db", "npn"},
}
ORDER = ["boot", "http", "app", "services", "db"]

SQL = re.compile(
    r"\bsqlx::(query\w*|raw_sql|QueryBuilder|Execute|Executor)\b|\bQueryBuilder::new\b"
    r"|\b(query|query_as|query_scalar|query_file\w*)!\s*\("
)
# The HTTP framework's types belong to http/ (and to the boot code that assembles the server).
WEB = re.compile(r"\b(axum|tower|tower_http)::")
PATH = re.compile(r"\b(crate|super)::((?:[A-Za-z_][A-Za-z0-9_]*::)*)(\{|[A-Za-z_][A-Za-z0-9_]*)")


def blank_literals(text: str) -> str:
    """The code with its comments removed and the insides of its string, byte-string, raw-string
    and character literals emptied, read token by token as rustc reads them (a `'"'` character
    literal or a `"//"` string does not hide the code after it)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c == "/" and nxt == "*":
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(" ")
            continue
        raw = re.match(r'(?:b|c)?r(#*)"', text[i:]) if c in "bcr" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        if raw:
            close = '"' + raw.group(1)
            end = text.find(close, i + raw.end())
            i = n if end < 0 else end + len(close)
            out.append('""')
            continue
        if c == '"' or (c in "bc" and nxt == '"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            i += 1 if c == '"' else 2
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
            continue
        if c == "'" or (c == "b" and nxt == "'" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            j = i + (1 if c == "'" else 2)
            # A character literal ('x', '\'', '\u{1F600}'); otherwise a lifetime or label ('a).
            lit = re.match(r"(?:\\(?:u\{[0-9A-Fa-f]{1,6}\}|x[0-9A-Fa-f]{2}|.)|[^\\'\n])'", text[j:])
            if lit:
                i = j + lit.end()
                out.append("' '")
                continue
        out.append(c)
        i += 1
    return "".join(out)


def strip(text: str) -> str:
    """The file without its test module, comments and the insides of its literals."""
    cut = re.search(r"^#\[cfg\(test\)\]\s*\n\s*mod tests\b", text, re.M)
    if cut:
        text = text[: cut.start()]
    return blank_literals(text)


def group_paths(text: str, start: int) -> list[str]:
    """The paths of a `{a, b::c, d::{e, f}}` group beginning at text[start] == '{'."""
    depth, i = 0, start
    while i < len(text):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                break
        i += 1
    body = text[start + 1 : i]
    out, depth, cur = [], 0, ""
    for ch in body + ",":
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            item = cur.strip()
            if item:
                m = re.match(r"([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)(::\{)?", item)
                if m:
                    if m.group(2):
                        inner = item[m.end() - 1 :]
                        out += [m.group(1) + "::" + p for p in group_paths(inner, 0)]
                    else:
                        out.append(m.group(1))
            cur = ""
        else:
            cur += ch
    return out


def module_of(src: Path, file: Path) -> str:
    rel = file.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "mod":
        parts = parts[:-1]
    return "::".join(parts)


def resolve(modules: set[str], path: list[str]) -> str | None:
    """The longest module that a path names (`http::site::PRODUCT_NAME` -> `http::site`)."""
    for n in range(len(path), 0, -1):
        name = "::".join(path[:n])
        if name in modules:
            return name
    return None


def layer(module: str) -> str | None:
    top = module.split("::")[0]
    for name, tops in LAYERS.items():
        if top in tops:
            return name
    return None


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    src = Path(args[0] if args else "server/src")
    files = sorted(src.rglob("*.rs"))
    modules = {module_of(src, f): f for f in files}
    names = set(modules)
    edges: dict[str, set[str]] = {m: set() for m in names}
    for module, file in modules.items():
        text = strip(file.read_text())
        here = module.split("::") if module else []
        for m in PATH.finditer(text):
            # `super::` in `http/steps.rs` and in `http/mod.rs` alike names the parent of the module.
            base = [] if m.group(1) == "crate" else here[:-1]
            prefix = [p for p in m.group(2).split("::") if p]
            if m.group(3) == "{":
                tails = group_paths(text, m.end() - 1)
            else:
                tails = [m.group(3)]
            for tail in tails:
                if tail == "self":
                    tail = ""
                path = base + prefix + ([p for p in tail.split("::") if p])
                target = resolve(names, path)
                if target is None and not path:
                    target = "lib"
                if target and target != module and target not in ("lib", "main"):
                    edges[module].add(target)
    problems = []
    # `--circles-only` (the engine crate): no layers there, only no import circle.
    layered = "--circles-only" not in sys.argv[1:]
    for module, file in sorted(modules.items()):
        if layered and module.split("::")[0] != "db" and SQL.search(strip(file.read_text())):
            problems.append(f"{module}: SQL outside db/ ({file})")
    for module, file in sorted(modules.items()):
        top = module.split("::")[0]
        if layered and top not in {"http"} | LAYERS["boot"] and WEB.search(strip(file.read_text())):
            problems.append(f"{module}: HTTP types (axum, tower, tower_http) outside http/ ({file})")
    for module in sorted(names):
        if layered and layer(module) is None:
            problems.append(f"{module}: not in any layer (name it in tools/layers/check.py)")
    for a in sorted(edges):
        for b in sorted(edges[a]):
            la, lb = layer(a), layer(b)
            if layered and la and lb and ORDER.index(lb) < ORDER.index(la):
                problems.append(f"{a} ({la}) -> {b} ({lb}): against the layer order")
    # Circles: Tarjan's strongly connected components.
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(names):
        if v not in index:
            visit(v)
    for comp in comps:
        members = set(comp)
        arrows = [f"{a} -> {b}" for a in comp for b in sorted(edges[a]) if b in members]
        problems.append(f"import circle of {len(comp)} modules: " + "; ".join(arrows))
    if "--graph" in sys.argv:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f"{a} -> {b}")
    for p in problems:
        print(f"layers: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"layers: {len(names)} modules, {sum(map(len, edges.values()))} arrows, no circle, none against the order")
    return 0


if __name__ == "__main__":
    sys.exit(main())
