#!/usr/bin/env python3
"""The docs check: the map and the pages it points to stay true to the repository. It fails when

(a) a repository path written in backticks in ARCHITECTURE.md, README.md or docs/*.md does not
    exist (a word that starts with one of PREFIXES; `file.rs:12-30` is read as `file.rs`; a word
    holding a placeholder or a glob, `{step}`, `<code>`, `*`, `…`, is skipped, and so is a path
    under a folder the root .gitignore names, which a command makes);
(b) a module of the server or the engine (a file or folder directly under server/src/ or
    engine/src/) is missing from ARCHITECTURE.md's code map. In the code map a heading naming a
    folder (### `server/src/`) makes the names below it relative to that folder (`cache.rs`,
    `http/`), and a bare file name after a path in the same entry is relative to that path's
    folder (`http/steps.rs`, `plans.rs`); these names must exist too;
(c) a command of the `enrollflow` binary (a variant of `enum Command` in server/src/main.rs,
    written kebab-case: `verify-packet`) is named in neither README.md nor ARCHITECTURE.md, in
    backticks, alone or after `enrollflow ` (`enrollflow rotate-key`, `check [dir]`);
(d) ARCHITECTURE.md or a page of docs/ links to a host on the internet: an http(s) address is
    allowed only for a placeholder host (example.com, .org, .net and their subdomains, localhost
    and *.localhost, .test, .invalid, .example, a loopback or private address, or a name without
    a dot, such as a Compose service's).

Usage: tools/docs/check.py [ROOT]   (run by `make check`; tools/docs/test_check.py plants each case)
"""
import ipaddress
import re
import sys
from pathlib import Path

PREFIXES = (
    "server/", "engine/", "engine-tools/", "texts/", "web/", "rules/", "forms/", "templates/", "schemas/", "migrations/",
    "tools/", "scripts/", "tests/", "docs/", "deploy/", "demo/", "fuzz/",
)
# The names of the code map that are files or folders (the rest are types, functions, commands).
EXTENSIONS = (
    ".rs", ".ts", ".tsx", ".js", ".mjs", ".py", ".sh", ".yaml", ".yml", ".json", ".md", ".sql",
    ".txt", ".html", ".toml", ".css", ".po",
)
PLACEHOLDER = re.compile(r"[{}<>*…?\[\]$|]|\.\.\.")
SPAN = re.compile(r"`([^`\n]+)`")
LINE_SUFFIX = re.compile(r"(:\d+(-\d+)?(,\d+(-\d+)?)*)+$")
LINK = re.compile(r"https?://([^/\s)`>\"'\]]+)[^\s)`>\"'\]]*")
PAGES_WITH_PATHS = ["ARCHITECTURE.md", "README.md"]


def without_fences(text: str) -> str:
    """The text with its fenced code blocks blanked (line numbers kept)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return "\n".join(out)


def spans(text: str) -> list[tuple[int, str]]:
    """Every backticked span with its line number."""
    found = []
    for number, line in enumerate(without_fences(text).split("\n"), 1):
        found += [(number, m.group(1)) for m in SPAN.finditer(line)]
    return found


def as_path(word: str) -> str | None:
    """The repository path a word names, or None when it is none (or a placeholder)."""
    word = word.strip().rstrip(".,;:)")
    word = LINE_SUFFIX.sub("", word)
    if not word or PLACEHOLDER.search(word) or "://" in word or "::" in word:
        return None
    return word


def ignored_folders(root: Path) -> list[str]:
    """The folders the root .gitignore names by their place (`/web/dist/`): commands make them."""
    folders = []
    gitignore = root / ".gitignore"
    if gitignore.exists():
        for line in gitignore.read_text().splitlines():
            line = line.strip()
            if line.startswith("/") and not PLACEHOLDER.search(line):
                folders.append(line.strip("/"))
    return folders


def exists(root: Path, path: str, ignored: list[str]) -> bool:
    clean = path.rstrip("/")
    if any(clean == f or clean.startswith(f + "/") for f in ignored):
        return True
    return (root / clean).exists()


def missing_paths(root: Path, page: str, text: str, ignored: list[str]) -> list[str]:
    problems = []
    for number, span in spans(text):
        for word in span.split():
            if not word.startswith(PREFIXES):
                continue
            path = as_path(word)
            if path and not exists(root, path, ignored):
                problems.append(f"{page}:{number}: `{path}` does not exist")
    return problems


def code_map(text: str) -> list[tuple[int, str]]:
    """The lines of ARCHITECTURE.md's `## Code map` section, numbered."""
    lines, inside = [], False
    for number, line in enumerate(without_fences(text).split("\n"), 1):
        if line.startswith("## "):
            inside = line.strip().lower() == "## code map"
            continue
        if inside:
            lines.append((number, line))
    return lines


def mapped_paths(root: Path, text: str, ignored: list[str]) -> tuple[set[str], list[str]]:
    """The paths the code map names, and the problems: a name that does not exist. A name is
    read against the folder of the heading above it (or from the root when it is not there and
    starts with one of PREFIXES), and a bare file name (`plans.rs`) against the folder of the file
    named before it in the same entry (`http/steps.rs`, `plans.rs`)."""
    names, problems, base, local = set(), [], None, None
    for number, line in code_map(text):
        words = [w for span in SPAN.findall(line) for w in span.split()]
        if line.startswith("#"):
            folders = [w for w in words if w.endswith("/") and as_path(w)]
            base = folders[0] if folders else None
            local = base
            if base:
                names.add(base.rstrip("/"))
            continue
        if line.startswith("- ") or not line.strip():
            local = base
        for word in words:
            path = as_path(word)
            if not path or path.startswith("/"):
                continue
            if "/" in path and base and exists(root, base + path, ignored):
                full = base + path
            elif path.startswith(PREFIXES):
                full = path
            elif "/" in path and base:
                full = base + path
            elif path.endswith(EXTENSIONS) and local:
                full = local + path
            else:
                continue
            if not exists(root, full, ignored):
                problems.append(f"ARCHITECTURE.md:{number}: `{word}` ({full}) does not exist")
            names.add(full.rstrip("/"))
            if "/" in path and not path.endswith("/"):
                local = full.rsplit("/", 1)[0] + "/"
    return names, problems


def modules(root: Path) -> list[str]:
    """Every file and folder directly under server/src/, engine/src/ and engine-tools/src/."""
    found = []
    for folder in ("server/src", "engine/src", "engine-tools/src"):
        if not (root / folder).is_dir():
            continue
        for entry in sorted((root / folder).iterdir()):
            if entry.is_dir() or entry.suffix == ".rs":
                found.append(f"{folder}/{entry.name}")
    return found


def variants(text: str, enum: str) -> list[tuple[str, str | None]]:
    """The variants of `enum <enum>` in a Rust file, each with the enum a `#[command(flatten)]`
    variant takes (`Rules(cli::RulesCommand)`), or None."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if re.match(rf"\s*(pub\s+)?enum {enum}\s*\{{", line))
    found, depth, flatten = [], 0, False
    for line in lines[start:]:
        stripped = line.strip()
        if depth == 1 and stripped.startswith("#[command(flatten)]"):
            flatten = True
        elif depth == 1 and not stripped.startswith(("#", "//")):
            m = re.match(r"([A-Z][A-Za-z0-9]*)\s*(\{|\(|,|$)", stripped)
            if m:
                inner = re.search(r"\(\s*(?:[a-z_]+::)*([A-Z][A-Za-z0-9]*)\s*\)", stripped)
                found.append((m.group(1), inner.group(1) if flatten and inner else None))
                flatten = False
        code = re.sub(r'"(?:\\.|[^"\\])*"', '""', line).split("//")[0]
        depth += code.count("{") - code.count("}")
        if depth <= 0:
            break
    return found


def commands(root: Path) -> list[str]:
    """The `enrollflow` binary's commands: the variants of `enum Command`, kebab-case; a flattened
    variant's commands are those of its enum in the tools crate (`engine-tools/src/cli.rs`)."""
    found = []
    for name, flattened in variants((root / "server/src/main.rs").read_text(), "Command"):
        if flattened:
            tools = (root / "engine-tools/src/cli.rs").read_text()
            found += [n for n, _ in variants(tools, flattened)]
        else:
            found.append(name)
    return [re.sub(r"(?<!^)([A-Z])", r"-\1", n).lower() for n in found]


def named(command: str, texts: list[str]) -> bool:
    pattern = re.compile(rf"^(enrollflow\s+)?{re.escape(command)}(\s|\[|$)")
    return any(pattern.match(span.strip()) for text in texts for _, span in spans(text))


def allowed_host(host: str) -> bool:
    host = host.rsplit("@", 1)[-1]
    if host.startswith("["):
        host = host[1:].split("]")[0]
    else:
        host = host.split(":")[0]
    host = host.lower().rstrip(".")
    if not host or PLACEHOLDER.search(host):
        return True
    try:
        address = ipaddress.ip_address(host)
        return address.is_loopback or address.is_private or address.is_unspecified
    except ValueError:
        pass
    if "." not in host or host == "localhost":
        return True
    examples = ("example.com", "example.org", "example.net")
    if host in examples or host.endswith(tuple("." + e for e in examples)):
        return True
    return host.endswith((".localhost", ".test", ".invalid", ".example"))


def outside_links(page: str, text: str) -> list[str]:
    problems = []
    for number, line in enumerate(text.split("\n"), 1):
        for m in LINK.finditer(line):
            if not allowed_host(m.group(1)):
                problems.append(f"{page}:{number}: a link outside the repository ({m.group(0)})")
    return problems


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = Path(args[0]) if args else Path(__file__).resolve().parents[2]
    ignored = ignored_folders(root)
    pages = {p: (root / p).read_text() for p in PAGES_WITH_PATHS if (root / p).exists()}
    docs = {f"docs/{p.name}": p.read_text() for p in sorted((root / "docs").glob("*.md"))}
    problems = []
    architecture = pages.get("ARCHITECTURE.md", "")
    for page, text in {**pages, **docs}.items():
        if page == "ARCHITECTURE.md":
            # The code map's names are read against their headings (below).
            lines = text.split("\n")
            for number, _ in code_map(text):
                lines[number - 1] = ""
            text = "\n".join(lines)
        problems += missing_paths(root, page, text, ignored)
    names, unknown = mapped_paths(root, architecture, ignored)
    problems += unknown
    for module in modules(root):
        if module not in names and not any(n.startswith(module + "/") for n in names):
            problems.append(f"ARCHITECTURE.md: the code map does not name `{module}`")
    for command in commands(root):
        if not named(command, [architecture, pages.get("README.md", "")]):
            problems.append(f"`enrollflow {command}` is named in neither README.md nor ARCHITECTURE.md")
    for page, text in {"ARCHITECTURE.md": architecture, **docs}.items():
        problems += outside_links(page, text)
    for p in problems:
        print(f"docs: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"docs: {len(pages) + len(docs)} pages, {len(names)} names in the code map, every path exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
