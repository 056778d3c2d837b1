#!/usr/bin/env python3
"""The Compose check: lints deploy/ without Docker, so `make check` catches a
broken layout on machines with no Docker daemon or compose plugin.

deploy/compose.yaml:
- every service has `image` or `build` (a build's context and Dockerfile exist);
- every `depends_on` names another service, with a valid condition (`service_healthy` only on a
  service with a health check; `service_completed_successfully` only on one that does not restart);
- every named volume a service mounts is declared under `volumes:`; every file or folder mounted
  from the host (`./nginx.conf`) exists next to compose.yaml;
- every `${VAR}` interpolation has a default (`:-`) or stops Compose with a message (`:?msg`);
  `$$` is a literal dollar;
- ENROLLFLOW_DATA_KEY and ENROLLFLOW_ADMIN_TOKEN are never literal: only `${VAR:?msg}` (or the
  bare name, passed through from the environment);
- ports and exposed ports are strings (YAML reads 80:80-like numbers in base 60), restart policies
  are strings (YAML reads `no` as false), environment values are strings;
- no `version:` key (the Compose Specification has none).
The Dockerfile (from the build): has a final non-root USER, copies rules, forms, templates and
web/dist, puts no secret in ENV or ARG, the folders it copies from the context exist, and a
.dockerignore keeps target/ and web/node_modules out.
deploy/nginx.conf: its upstream names every instance (a service whose command is `serve …`), and
only services; `proxy_pass` names a declared upstream.
deploy/prometheus.yml (when mounted): its targets are services.
deploy/grafana-dashboard.json: parses, declares DS_PROMETHEUS in `__inputs`, every panel has a
gridPos and unique id, every target an expr, and every metric an expr names starts with
`enrollflow_`.

Prints one line per problem (file: message) and exits 1; prints "compose: ok" otherwise.

Usage: tools/compose/check.py [deploy folder]   (default: the repository's deploy/; run by `make check`)
"""
import json
import re
import shlex
import sys
from pathlib import Path

try:
    import yaml
except ImportError:  # pragma: no cover - depends on the machine
    print("tools/compose/check.py: PyYAML is missing (apt-get install python3-yaml, or pip install pyyaml)")
    sys.exit(1)

ROOT = Path(__file__).resolve().parents[2]
SECRETS = ("ENROLLFLOW_DATA_KEY", "ENROLLFLOW_ADMIN_TOKEN")
CONDITIONS = {"service_started", "service_healthy", "service_completed_successfully"}
RESTARTS = {"no", "always", "on-failure", "unless-stopped"}
# What the image must hold besides the binary (docs/deploy.md).
IMAGE_CONTENTS = ("rules", "forms", "templates", "web/dist")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Problems:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.lines: list[str] = []

    def add(self, path: Path, message: str) -> None:
        try:
            shown = path.resolve().relative_to(self.base.resolve())
        except ValueError:
            shown = path
        self.lines.append(f"{shown}: {message}")


# --- Interpolation ---------------------------------------------------------------------------


def interpolations(text: str):
    """Yields (problem or None, variable, operator, argument) for every `$…` in a Compose value.
    Operators: '' (none), ':-', '-', ':?', '?', ':+', '+'."""
    i = 0
    while i < len(text):
        if text[i] != "$":
            i += 1
            continue
        nxt = text[i + 1 : i + 2]
        if nxt == "$":
            i += 2
            continue
        if nxt == "{":
            depth, j = 1, i + 2
            while j < len(text) and depth:
                if text.startswith("${", j):
                    depth += 1
                    j += 2
                    continue
                if text[j] == "}":
                    depth -= 1
                j += 1
            if depth:
                yield (f"unclosed `${{` in `{text}`", None, None, None)
                return
            body = text[i + 2 : j - 1]
            m = NAME.match(body)
            if not m:
                yield (f"invalid interpolation `${{{body}}}`", None, None, None)
            else:
                rest = body[m.end() :]
                op = next((o for o in (":-", ":?", ":+", "-", "?", "+") if rest.startswith(o)), None)
                if rest and op is None:
                    yield (f"invalid interpolation `${{{body}}}`", m.group(), None, None)
                else:
                    arg = rest[len(op) :] if op else ""
                    yield (None, m.group(), op or "", arg)
                    yield from interpolations(arg)
            i = j
            continue
        m = NAME.match(text, i + 1)
        if m:
            yield (None, m.group(), "", "")
            i = m.end()
            continue
        yield (f"a lone `$` in `{text}` (write `$$` for a dollar sign)", None, None, None)
        i += 1


def strings(node, where: str):
    """Every string value (not key) of a parsed YAML tree, with where it is."""
    if isinstance(node, str):
        yield where, node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from strings(v, f"{where}.{k}" if where else str(k))
    elif isinstance(node, list):
        for n, v in enumerate(node):
            yield from strings(v, f"{where}[{n}]")


def check_interpolation(doc: dict, file: Path, p: Problems) -> None:
    for where, value in strings(doc, ""):
        if where.startswith("x-"):
            continue  # extension fields are read through their aliases, where they are checked
        for problem, var, op, arg in interpolations(value):
            if problem:
                p.add(file, f"{where}: {problem}")
            elif op in ("", "?"):
                shown = f"${{{var}}}" if op == "" else f"${{{var}?…}}"
                p.add(file, f"{where}: `{shown}` has no default and does not stop Compose when unset: "
                            f"write `${{{var}:-default}}` or `${{{var}:?message}}`")
            elif op == ":?" and not arg.strip():
                p.add(file, f"{where}: `${{{var}:?}}` needs a message saying how to set {var}")


# --- Services ----------------------------------------------------------------------------------


def environment(service: dict) -> dict:
    env = service.get("environment") or {}
    if isinstance(env, list):
        out = {}
        for item in env:
            if isinstance(item, str):
                key, eq, value = item.partition("=")
                out[key] = value if eq else None
        return out
    return env if isinstance(env, dict) else {}


def command_words(service: dict) -> list[str]:
    cmd = service.get("command")
    if isinstance(cmd, str):
        return shlex.split(cmd)
    if isinstance(cmd, list):
        return [str(c) for c in cmd]
    return []


def has_healthcheck(service: dict) -> bool:
    hc = service.get("healthcheck")
    if not isinstance(hc, dict) or hc.get("disable"):
        return False
    test = hc.get("test")
    return bool(test) and test != ["NONE"]


def check_services(doc: dict, deploy: Path, file: Path, p: Problems) -> dict:
    services = doc.get("services")
    if not isinstance(services, dict) or not services:
        p.add(file, "no services")
        return {}
    declared_volumes = doc.get("volumes") or {}
    if not isinstance(declared_volumes, dict):
        p.add(file, "`volumes:` must be a mapping of volume names")
        declared_volumes = {}
    for name, svc in services.items():
        if not isinstance(svc, dict):
            p.add(file, f"service {name}: not a mapping")
            continue
        if "image" not in svc and "build" not in svc:
            p.add(file, f"service {name}: has neither `image` nor `build`")

        deps = svc.get("depends_on") or {}
        if isinstance(deps, list):
            deps = {d: {"condition": "service_started"} for d in deps}
        if not isinstance(deps, dict):
            p.add(file, f"service {name}: depends_on must be a list or a mapping")
            deps = {}
        for dep, spec in deps.items():
            if dep not in services:
                p.add(file, f"service {name}: depends_on names `{dep}`, which is not a service")
                continue
            if dep == name:
                p.add(file, f"service {name}: depends on itself")
            cond = (spec or {}).get("condition", "service_started") if isinstance(spec, dict) else None
            if cond not in CONDITIONS:
                p.add(file, f"service {name}: depends_on {dep}: condition `{cond}` is not one of {', '.join(sorted(CONDITIONS))}")
            elif cond == "service_healthy" and not has_healthcheck(services[dep]):
                p.add(file, f"service {name}: waits for {dep} to be healthy, but {dep} has no healthcheck")
            elif cond == "service_completed_successfully" and str(services[dep].get("restart", "no")).startswith(
                ("always", "unless-stopped", "on-failure")
            ):
                p.add(file, f"service {name}: waits for {dep} to complete, but {dep} restarts ({services[dep].get('restart')})")

        if "restart" in svc:
            r = svc["restart"]
            if not isinstance(r, str):
                p.add(file, f"service {name}: restart must be a string (write \"no\": YAML reads no as false)")
            elif r not in RESTARTS and not re.fullmatch(r"on-failure:\d+", r):
                p.add(file, f"service {name}: restart `{r}` is not a restart policy")

        for key in ("ports", "expose"):
            for port in svc.get(key) or []:
                if not isinstance(port, (str, dict)):
                    p.add(file, f"service {name}: {key} entry {port!r} must be a quoted string")

        env = svc.get("environment")
        if isinstance(env, dict):
            for k, v in env.items():
                if v is not None and not isinstance(v, str):
                    p.add(file, f"service {name}: environment {k} is {v!r}, not a string (quote it)")
        for key, value in environment(svc).items():
            if key not in SECRETS or value is None:
                continue
            ok = re.fullmatch(r"\$\{" + key + r":\?[^}]+\}", str(value))
            if not ok:
                p.add(file, f"service {name}: {key} has a literal value: use `${{{key}:?message}}` "
                            "so it comes from the environment or a secret store")

        for vol in svc.get("volumes") or []:
            source = None
            if isinstance(vol, str):
                parts = vol.split(":")
                source = parts[0] if len(parts) > 1 else None
            elif isinstance(vol, dict):
                source = vol.get("source") if vol.get("type", "volume") in ("volume", "bind") else None
            if not source:
                continue  # an anonymous volume
            if source.startswith((".", "/", "~")) or "$" in source:
                if source.startswith(".") and not (deploy / source).exists():
                    p.add(file, f"service {name}: mounts {source}, which does not exist in {deploy.name}/")
            elif source not in declared_volumes:
                p.add(file, f"service {name}: volume `{source}` is not declared under the top-level `volumes:`")

        build = svc.get("build")
        if build is not None:
            ctx, dockerfile = build_paths(build, deploy)
            if not ctx.is_dir():
                p.add(file, f"service {name}: build context {ctx} does not exist")
            elif not dockerfile.is_file():
                p.add(file, f"service {name}: {dockerfile.name} does not exist in the build context")

    for top in ("configs", "secrets"):
        for key, spec in (doc.get(top) or {}).items():
            f = (spec or {}).get("file") if isinstance(spec, dict) else None
            if f and not (deploy / f).exists():
                p.add(file, f"{top} {key}: {f} does not exist in {deploy.name}/")
    return services


def build_paths(build, deploy: Path) -> tuple[Path, Path]:
    if isinstance(build, str):
        ctx, dockerfile = build, "Dockerfile"
    else:
        ctx, dockerfile = build.get("context", "."), build.get("dockerfile", "Dockerfile")
    ctx_path = (deploy / ctx).resolve()
    return ctx_path, ctx_path / dockerfile


# --- Dockerfile --------------------------------------------------------------------------------


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    out, current = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        if current and stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        current += stripped
        word, _, rest = current.partition(" ")
        out.append((word.upper(), rest.strip()))
        current = ""
    if current:
        word, _, rest = current.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def copy_sources(args: str) -> tuple[bool, list[str]]:
    """(from another stage, sources) of a COPY instruction's arguments."""
    if args.startswith("["):
        try:
            words = json.loads(args)
        except json.JSONDecodeError:
            return False, []
    else:
        words = args.split()
    flags = [w for w in words if w.startswith("--")]
    paths = [w for w in words if not w.startswith("--")]
    return any(f.startswith("--from=") for f in flags), paths[:-1]


def check_dockerfile(dockerfile: Path, context: Path, p: Problems) -> None:
    if not dockerfile.is_file():
        p.add(dockerfile, "does not exist")
        return
    steps = instructions(dockerfile.read_text())
    stages = [n for n, (word, _) in enumerate(steps) if word == "FROM"]
    final = steps[stages[-1] :] if stages else steps
    users = [args for word, args in final if word == "USER"]
    if not users:
        p.add(dockerfile, "the final stage has no USER: the server would run as root")
    elif users[-1].split(":")[0] in ("root", "0"):
        p.add(dockerfile, f"the final stage runs as {users[-1]}: use a non-root user")
    copied = []
    for word, args in final:
        if word in ("COPY", "ADD"):
            _, sources = copy_sources(args)
            copied += [s.rstrip("/") for s in sources]
    for want in IMAGE_CONTENTS:
        if not any(s == want or s.endswith("/" + want) for s in copied):
            p.add(dockerfile, f"the image does not copy {want}/")
    for word, args in steps:
        if word in ("ENV", "ARG") and any(s in args for s in SECRETS):
            p.add(dockerfile, f"{word} names {', '.join(s for s in SECRETS if s in args)}: secrets are never in the image")
        if word in ("COPY", "ADD"):
            from_stage, sources = copy_sources(args)
            if from_stage:
                continue
            for s in sources:
                if "*" in s or "?" in s or "://" in s:
                    continue
                if not (context / s).exists():
                    p.add(dockerfile, f"COPY {s}: not in the build context")
    ignore = context / ".dockerignore"
    if not ignore.is_file():
        p.add(ignore, "does not exist: the build context would carry target/ and web/node_modules/")
    else:
        entries = {l.strip().strip("/") for l in ignore.read_text().splitlines() if l.strip() and not l.startswith("#")}
        for want in ("target", "web/node_modules", "web/dist", ".git"):
            if want not in entries:
                p.add(ignore, f"does not exclude {want}/")


# --- nginx, Prometheus -------------------------------------------------------------------------


def strip_conf_comments(text: str) -> str:
    return re.sub(r"(?m)#[^\n]*", "", text)


def check_nginx(conf: Path, services: dict, p: Problems) -> None:
    if not conf.is_file():
        p.add(conf, "does not exist")
        return
    text = strip_conf_comments(conf.read_text())
    upstreams = {m.group(1): m.group(2) for m in re.finditer(r"\bupstream\s+(\S+)\s*\{([^}]*)\}", text)}
    if not upstreams:
        p.add(conf, "no upstream block")
    hosts = set()
    for name, body in upstreams.items():
        for m in re.finditer(r"(?m)^\s*server\s+([^\s;:]+)", body):
            hosts.add(m.group(1))
            if m.group(1) not in services:
                p.add(conf, f"upstream {name} names {m.group(1)}, which is not a service")
    instances = [n for n, s in services.items() if isinstance(s, dict) and command_words(s)[:1] == ["serve"]]
    if not instances:
        p.add(conf, "compose.yaml has no instance (a service whose command is `serve …`)")
    for n in instances:
        if n not in hosts:
            p.add(conf, f"no upstream names the instance {n}")
    for m in re.finditer(r"\bproxy_pass\s+https?://([^/;:\s]+)", text):
        if m.group(1) not in upstreams and m.group(1) not in services:
            p.add(conf, f"proxy_pass to {m.group(1)}, which is neither an upstream nor a service")


def check_prometheus(conf: Path, services: dict, p: Problems) -> None:
    try:
        doc = yaml.safe_load(conf.read_text()) or {}
    except yaml.YAMLError as e:
        p.add(conf, f"does not parse: {e}")
        return
    for job in doc.get("scrape_configs") or []:
        for static in job.get("static_configs") or []:
            for target in static.get("targets") or []:
                host = str(target).rsplit(":", 1)[0]
                if host not in services:
                    p.add(conf, f"job {job.get('job_name')}: target {target} is not a service")


# --- Grafana ------------------------------------------------------------------------------------

PROMQL_WORDS = {
    "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool",
    "offset", "inf", "nan",
}
# Aggregation operators, which may be followed by `by (…)` before their parenthesis.
PROMQL_AGGREGATIONS = {
    "sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk",
    "topk", "quantile", "limitk", "limit_ratio",
}


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads (functions, keywords, labels and strings left out)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`', '""', expr)
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # ranges
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", r"\1", text)
    text = re.sub(r"\$\{?\w+\}?", "", text)  # Grafana variables outside matchers
    names = set()
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", text):
        word = m.group()
        after = text[m.end() :].lstrip()
        if after.startswith("(") or word.lower() in PROMQL_WORDS or word in PROMQL_AGGREGATIONS:
            continue
        if m.start() > 0 and (text[m.start() - 1].isdigit() or text[m.start() - 1] == "."):
            continue  # 1e3, 0.5
        names.add(word)
    return names


def panels(items):
    for panel in items or []:
        yield panel
        yield from panels(panel.get("panels"))


def check_dashboard(file: Path, p: Problems) -> None:
    if not file.is_file():
        p.add(file, "does not exist")
        return
    try:
        dash = json.loads(file.read_text())
    except json.JSONDecodeError as e:
        p.add(file, f"is not JSON: {e}")
        return
    if not isinstance(dash.get("schemaVersion"), int):
        p.add(file, "no schemaVersion")
    if not any(i.get("name") == "DS_PROMETHEUS" and i.get("pluginId") == "prometheus" for i in dash.get("__inputs") or []):
        p.add(file, "no __inputs entry for DS_PROMETHEUS (a prometheus datasource)")
    ids = set()
    exprs = []
    for panel in panels(dash.get("panels")):
        title = panel.get("title", "?")
        if panel.get("id") in ids:
            p.add(file, f"panel {title}: id {panel.get('id')} is used twice")
        ids.add(panel.get("id"))
        grid = panel.get("gridPos") or {}
        if not all(isinstance(grid.get(k), int) for k in ("h", "w", "x", "y")):
            p.add(file, f"panel {title}: gridPos needs h, w, x and y")
        elif grid["x"] + grid["w"] > 24:
            p.add(file, f"panel {title}: gridPos is wider than the 24 columns")
        if panel.get("type") == "row":
            continue
        targets = panel.get("targets") or []
        if not targets:
            p.add(file, f"panel {title}: no targets")
        for t in targets:
            if not t.get("expr"):
                p.add(file, f"panel {title}: target {t.get('refId', '?')} has no expr")
            else:
                exprs.append((f"panel {title}", t["expr"]))
    for var in (dash.get("templating") or {}).get("list") or []:
        query = var.get("query")
        if isinstance(query, dict):
            query = query.get("query")
        if var.get("type") == "query" and isinstance(query, str):
            m = re.match(r"\s*label_values\(\s*([^,)]+)", query)
            exprs.append((f"variable {var.get('name')}", m.group(1) if m else query))
    for where, expr in exprs:
        for name in sorted(metric_names(expr)):
            if not name.startswith("enrollflow_"):
                p.add(file, f"{where}: metric `{name}` does not start with enrollflow_")


# --- Main --------------------------------------------------------------------------------------


def check(deploy: Path) -> list[str]:
    deploy = deploy.resolve()
    p = Problems(deploy.parent)
    file = deploy / "compose.yaml"
    if not file.is_file():
        p.add(file, "does not exist")
        return p.lines
    try:
        doc = yaml.safe_load(file.read_text())
    except yaml.YAMLError as e:
        p.add(file, f"does not parse: {e}")
        return p.lines
    if not isinstance(doc, dict):
        p.add(file, "is not a mapping")
        return p.lines
    if "version" in doc:
        p.add(file, "has a `version:` key: the Compose Specification has none")
    check_interpolation(doc, file, p)
    services = check_services(doc, deploy, file, p)

    builds = {build_paths(s["build"], deploy) for s in services.values() if isinstance(s, dict) and s.get("build")}
    if not builds:
        p.add(file, "no service builds the image")
    for ctx, dockerfile in sorted(builds):
        if ctx.is_dir():
            check_dockerfile(dockerfile, ctx, p)

    check_nginx(deploy / "nginx.conf", services, p)
    mounted = {
        str(v).split(":")[0]
        for s in services.values() if isinstance(s, dict)
        for v in s.get("volumes") or [] if isinstance(v, str)
    }
    if "./prometheus.yml" in mounted and (deploy / "prometheus.yml").is_file():
        check_prometheus(deploy / "prometheus.yml", services, p)
    check_dashboard(deploy / "grafana-dashboard.json", p)
    return p.lines


def main() -> int:
    deploy = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "deploy"
    problems = check(deploy)
    for line in problems:
        print(line)
    if problems:
        return 1
    print("compose: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
