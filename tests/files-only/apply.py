#!/usr/bin/env python3
"""Copies rules/, forms/ and templates/ of the repository to OUT and applies tests/files-only/changes.txt
(its format is described at its top). Usage: apply.py OUT. Fails, naming the change, when a change
does not apply (a "replace" whose text is not in the file exactly once, an "add" of a file that exists).
"""
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def changes(text):
    """The changes of changes.txt: (op, path, body, replacement)."""
    out = []
    current = None
    for line in text.splitlines(keepends=True):
        if line.startswith("== "):
            op, path = line[3:].split(maxsplit=1)
            current = [op, path.strip(), [], None]
            out.append(current)
        elif current is None:
            continue
        elif current[0] == "replace" and line.rstrip("\n") == "-- with":
            current[3] = []
        elif current[3] is not None:
            current[3].append(line)
        else:
            current[2].append(line)
    return [(op, path, "".join(body), None if repl is None else "".join(repl)) for op, path, body, repl in out]


def apply(out: Path):
    for op, path, body, repl in changes((HERE / "changes.txt").read_text()):
        target = out / path
        if op == "add":
            if target.exists():
                sys.exit(f"add {path}: the file exists")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body)
        elif op == "append":
            text = target.read_text()
            target.write_text(text + ("" if text.endswith("\n") else "\n") + body)
        elif op == "replace":
            text = target.read_text()
            if repl is None or text.count(body) != 1:
                sys.exit(f"replace {path}: the text to replace occurs {text.count(body)} times\n{body}")
            target.write_text(text.replace(body, repl))
        else:
            sys.exit(f"unknown change `{op}`")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    for d in ("rules", "forms", "templates"):
        shutil.copytree(REPO / d, out / d, dirs_exist_ok=False)
    apply(out)


if __name__ == "__main__":
    main()
