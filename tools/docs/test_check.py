"""The docs check fails on what it must refuse (run by `make check`): a path that does not exist,
a server or engine module missing from the code map, an `enrollflow` command named nowhere, and a
link outside the repository; it passes on the repository and on placeholders, globs, line
numbers, example hosts and the folders a command makes."""
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "tools/docs/check.py"

# A small repository: two server modules, one engine module, a CLI of two commands.
MAIN_RS = """//! The command.
#[derive(Subcommand)]
enum Command {
    /// Serve.
    Serve(Box<ServeArgs>),
    /// Check a packet.
    VerifyPacket {
        /// The file.
        file: PathBuf,
    },
    #[command(hide = true)]
    DraftWorker,
}

fn main() {
    match cli.command {
        Command::Serve(a) => {}
    }
}
"""

ARCHITECTURE = """# Architecture

## Code map

### `engine/src/`

- `lib.rs`: the engine.

### `server/src/`

- `main.rs`: the binary (`serve`, `verify-packet`, `draft-worker`).
- `http/`: axum; `http/steps.rs`, `plans.rs`.

## Invariants

- A rule lives in `rules/flow.yaml`, a step of `{step}` in `web/src/*.ts`; `server/src/main.rs:12-30`.
- The demo runs on http://acme.localhost:8080/ and `web/dist/index.html` is built.
"""


class DocsCheck(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = Path(tempfile.mkdtemp())
        files = {
            "engine/src/lib.rs": "//! Engine.\n",
            "server/src/main.rs": MAIN_RS,
            "server/src/http/steps.rs": "//! Steps.\n",
            "server/src/http/plans.rs": "//! Plans.\n",
            "rules/flow.yaml": "steps: []\n",
            "ARCHITECTURE.md": ARCHITECTURE,
            "README.md": "# Readme\n\nRun `enrollflow serve`.\n",
            "docs/deploy.md": "# Deploy\n\nMinIO answers at http://minio:9000 and http://127.0.0.1:9091/.\n",
            ".gitignore": "/web/dist/\n*.log\n",
        }
        for path, text in files.items():
            (self.dir / path).parent.mkdir(parents=True, exist_ok=True)
            (self.dir / path).write_text(text)

    def tearDown(self) -> None:
        shutil.rmtree(self.dir)

    def run_check(self, root: Path | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(CHECK), str(root or self.dir)], capture_output=True, text=True)

    def append(self, file: str, text: str) -> None:
        path = self.dir / file
        path.write_text(path.read_text() + text + "\n")

    def test_the_repository_passes(self) -> None:
        out = self.run_check(ROOT)
        self.assertEqual(out.returncode, 0, out.stderr)

    def test_the_small_repository_passes(self) -> None:
        out = self.run_check()
        self.assertEqual(out.returncode, 0, out.stderr)

    def test_a_path_that_does_not_exist_fails_in_each_page(self) -> None:
        self.append("ARCHITECTURE.md", "- Also `server/src/gone.rs`.")
        self.append("README.md", "See `tests/nowhere/`.")
        self.append("docs/deploy.md", "Run `scripts/missing.sh --fast`.")
        out = self.run_check()
        self.assertEqual(out.returncode, 1)
        for path in ("server/src/gone.rs", "tests/nowhere/", "scripts/missing.sh"):
            self.assertIn(f"`{path}` does not exist", out.stderr)

    def test_a_code_map_name_that_does_not_exist_fails(self) -> None:
        path = self.dir / "ARCHITECTURE.md"
        path.write_text(path.read_text().replace("`plans.rs`", "`plan.rs`"))
        out = self.run_check()
        self.assertEqual(out.returncode, 1)
        self.assertIn("`plan.rs` (server/src/http/plan.rs) does not exist", out.stderr)

    def test_a_module_missing_from_the_code_map_fails(self) -> None:
        (self.dir / "server/src/cache.rs").write_text("//! Caches.\n")
        (self.dir / "engine/src/catalog").mkdir()
        (self.dir / "engine/src/catalog/mod.rs").write_text("//! Catalog.\n")
        out = self.run_check()
        self.assertEqual(out.returncode, 1)
        self.assertIn("the code map does not name `server/src/cache.rs`", out.stderr)
        self.assertIn("the code map does not name `engine/src/catalog`", out.stderr)
        # Named outside the code map is not enough.
        self.append("ARCHITECTURE.md", "Also `server/src/cache.rs`.")
        self.assertIn("`server/src/cache.rs`", self.run_check().stderr)

    def test_a_command_named_nowhere_fails(self) -> None:
        path = self.dir / "server/src/main.rs"
        path.write_text(path.read_text().replace("    DraftWorker,", "    DraftWorker,\n    /// Rotate.\n    RotateKey { batch: i64 },"))
        out = self.run_check()
        self.assertEqual(out.returncode, 1)
        self.assertIn("`enrollflow rotate-key` is named in neither", out.stderr)
        # A mention as a plain word does not count; `enrollflow rotate-key` in the README does.
        self.append("README.md", "Keys rotate-key rotate.")
        self.assertEqual(self.run_check().returncode, 1)
        self.append("README.md", "Run `enrollflow rotate-key --batch 10`.")
        self.assertEqual(self.run_check().returncode, 0)

    def test_a_flattened_command_named_nowhere_fails(self) -> None:
        # The analysts' commands are the tools crate's, flattened into the server's.
        path = self.dir / "server/src/main.rs"
        path.write_text(path.read_text().replace(
            "    DraftWorker,", "    DraftWorker,\n    #[command(flatten)]\n    Rules(cli::RulesCommand),"))
        tools = self.dir / "engine-tools/src/cli.rs"
        tools.parent.mkdir(parents=True)
        tools.write_text("#[derive(clap::Subcommand)]\npub enum RulesCommand {\n    /// Check.\n"
                         "    Check { dir: PathBuf },\n}\n")
        arch = self.dir / "ARCHITECTURE.md"
        arch.write_text(arch.read_text().replace(
            "### `server/src/`", "### `engine-tools/src/`\n\n- `cli.rs`: the rules' commands.\n\n### `server/src/`"))
        out = self.run_check()
        self.assertEqual(out.returncode, 1)
        self.assertIn("`enrollflow check` is named in neither", out.stderr)
        self.assertNotIn("enrollflow rules`", out.stderr)
        self.append("README.md", "Run `enrollflow check .`.")
        self.assertEqual(self.run_check().returncode, 0, self.run_check().stderr)

    def test_a_link_outside_the_repository_fails(self) -> None:
        self.append("ARCHITECTURE.md", "The design: https://github.com/someone/design.")
        self.append("docs/deploy.md", "See http://docs.example.io/x and https://www.example.com/ok.")
        out = self.run_check()
        self.assertEqual(out.returncode, 1)
        self.assertIn("ARCHITECTURE.md:", out.stderr)
        self.assertIn("https://github.com/someone/design", out.stderr)
        self.assertIn("http://docs.example.io/x", out.stderr)
        self.assertNotIn("www.example.com", out.stderr)

    def test_placeholders_globs_line_numbers_and_made_folders_pass(self) -> None:
        self.append(
            "docs/deploy.md",
            "`server/src/db/<table>.rs`, `rules/scripts/*.rhai`, `web/src/locales/{shell,wizard}/es.po`, "
            "`server/src/http/steps.rs:204-366`, `web/dist/`, `https://…`, `tests/…`.",
        )
        out = self.run_check()
        self.assertEqual(out.returncode, 0, out.stderr)


if __name__ == "__main__":
    unittest.main()
