"""The layer check fails on what it must refuse (run by `make check`): a planted circle, an arrow
up the layer order, SQL outside db/ (raw SQL and query macros included), HTTP types outside http/,
a module in no layer, a circle in the engine, and
an import hidden after a character literal or a string that looks like a comment; and passes on the
repository."""
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "tools/layers/check.py"


def run(src: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CHECK), str(src)], capture_output=True, text=True)


class LayerCheck(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = Path(tempfile.mkdtemp())
        self.src = self.dir / "src"
        shutil.copytree(ROOT / "server/src", self.src)

    def tearDown(self) -> None:
        shutil.rmtree(self.dir)

    def plant(self, file: str, line: str) -> None:
        path = self.src / file
        path.write_text(line + "\n" + path.read_text())

    def test_the_repository_passes(self) -> None:
        out = run(self.src)
        self.assertEqual(out.returncode, 0, out.stderr)

    def test_a_circle_between_two_services_fails(self) -> None:
        self.plant("crypto.rs", "use crate::mail;")
        out = run(self.src)
        self.assertEqual(out.returncode, 1)
        self.assertIn("import circle of 2 modules: crypto -> mail; mail -> crypto", out.stderr)

    def test_an_arrow_up_the_layers_fails(self) -> None:
        self.plant("db/agents.rs", "use crate::http::site::SiteInfo;")
        out = run(self.src)
        self.assertEqual(out.returncode, 1)
        self.assertIn("db::agents (db) -> http::site (http): against the layer order", out.stderr)

    def test_a_grouped_super_path_counts(self) -> None:
        self.plant("accounts.rs", "use crate::{http::{self, session::Session}};")
        out = run(self.src)
        self.assertIn("accounts (services) -> http::session (http)", out.stderr)

    def test_sql_outside_db_fails(self) -> None:
        self.plant("http/site.rs", 'fn f() { let _ = sqlx::query_scalar::<_, i32>("SELECT 1"); }')
        out = run(self.src)
        self.assertIn("http::site: SQL outside db/", out.stderr)

    def test_a_quote_in_a_character_literal_hides_nothing_after_it(self) -> None:
        self.plant("db/agents.rs", "const Q: char = '\"';\nfn up() { let _ = crate::http::site::PRODUCT; }")
        out = run(self.src)
        self.assertIn("db::agents (db) -> http::site (http)", out.stderr)

    def test_a_comment_marker_in_a_string_or_a_raw_string_hides_nothing(self) -> None:
        self.plant(
            "db/users.rs",
            'const U: &str = "https://example.com";\nconst R: &str = r#"a " quote"#;\n'
            "use crate::http::session;",
        )
        out = run(self.src)
        self.assertIn("db::users (db) -> http::session (http)", out.stderr)

    def test_raw_sql_and_query_macros_outside_db_fail(self) -> None:
        self.plant("http/site.rs", 'fn f() { let _ = sqlx::raw_sql("VACUUM"); }')
        self.plant("quoting.rs", 'fn g() { let _ = query!("SELECT 1"); }')
        out = run(self.src)
        self.assertIn("http::site: SQL outside db/", out.stderr)
        self.assertIn("quoting: SQL outside db/", out.stderr)

    def test_http_types_outside_http_fail(self) -> None:
        self.plant("quoting.rs", "use axum::response::Response;")
        out = run(self.src)
        self.assertIn("quoting: HTTP types (axum, tower, tower_http) outside http/", out.stderr)

    def test_a_lifetime_is_not_a_character_literal(self) -> None:
        self.plant("crypto.rs", "fn f<'a>(x: &'a str) -> &'a str { x }")
        self.assertEqual(run(self.src).returncode, 0)

    def test_a_module_in_no_layer_fails(self) -> None:
        (self.src / "stray.rs").write_text("//! A module nobody placed.\n")
        out = run(self.src)
        self.assertIn("stray: not in any layer", out.stderr)

    def test_test_modules_may_reach_anywhere(self) -> None:
        path = self.src / "crypto.rs"
        path.write_text(path.read_text() + "\n#[cfg(test)]\nmod tests {\n    use crate::http::session;\n}\n")
        self.assertEqual(run(self.src).returncode, 0)


class EngineCircles(unittest.TestCase):
    """The engine has no layers, but no import circle either."""

    def setUp(self) -> None:
        self.dir = Path(tempfile.mkdtemp())
        self.src = self.dir / "src"
        shutil.copytree(ROOT / "engine/src", self.src)

    def tearDown(self) -> None:
        shutil.rmtree(self.dir)

    def check(self) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(CHECK), "--circles-only", str(self.src)], capture_output=True, text=True
        )

    def test_the_engine_has_no_circle(self) -> None:
        out = self.check()
        self.assertEqual(out.returncode, 0, out.stderr)

    def test_a_planted_circle_in_the_engine_fails(self) -> None:
        path = self.src / "form.rs"
        path.write_text("use crate::coverage::Probe;\n" + path.read_text())
        out = self.check()
        self.assertEqual(out.returncode, 1)
        self.assertIn("import circle", out.stderr)


if __name__ == "__main__":
    unittest.main()
