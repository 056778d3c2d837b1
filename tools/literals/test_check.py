"""The literals check fails on what it must refuse (run by `make check`): a step id, a carrier flag,
a reason id or a plan year planted in the code, and an allow-list entry that no longer matches; it
passes on the repository and does not read tests or comments."""
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "tools/literals/check.py"


class LiteralsCheck(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = Path(tempfile.mkdtemp())
        for part in ("server/src", "engine/src", "web/src", "rules", "tools/literals"):
            shutil.copytree(ROOT / part, self.dir / part, ignore=shutil.ignore_patterns("node_modules"))

    def tearDown(self) -> None:
        shutil.rmtree(self.dir)

    def run_check(self) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(self.dir / "tools/literals/check.py"), str(self.dir)], capture_output=True, text=True)

    def append(self, file: str, text: str) -> None:
        path = self.dir / file
        path.write_text(path.read_text() + "\n" + text + "\n")

    def test_the_repository_passes(self) -> None:
        out = self.run_check()
        self.assertEqual(out.returncode, 0, out.stdout)

    def test_a_step_id_in_a_handler_fails(self) -> None:
        self.append("server/src/http/plans.rs", 'const STEP: &str = "subInfo";')
        out = self.run_check()
        self.assertEqual(out.returncode, 1)
        self.assertIn("server/src/http/plans.rs", out.stdout)
        self.assertIn("`subInfo` is a step id", out.stdout)

    def test_a_carrier_flag_a_reason_and_a_plan_year_in_the_web_app_fail(self) -> None:
        self.append("web/src/lib/flow.ts", "export const X = ['display_ph', 'qle', 2025];")
        out = self.run_check()
        self.assertEqual(out.returncode, 1)
        for word in ("`display_ph` is a carrier", "`qle` is an enrollment reason", "`2025` is a plan year"):
            self.assertIn(word, out.stdout)

    def test_a_step_id_in_sql_or_a_route_and_a_network_by_number_fail(self) -> None:
        self.append(
            "server/src/db/applications.rs",
            'const Q: &str = "SELECT data->\'census\'->\'dependents\' FROM applications";\n'
            'const P: &str = "SELECT data #> \'{subInfo,sub_ssn}\' FROM applications";\n'
            "fn hmo(network: Option<i16>) -> bool { network == Some(2) }",
        )
        self.append("web/src/lib/flow.ts", "export const R = '/census';\nexport const S = \"/subInfo/edit\";")
        # Before the file's test module (which the check does not read).
        path = self.dir / "server/src/rules/quoting.rs"
        path.write_text("fn c(medical_carrier_id: i16) -> bool { medical_carrier_id != 3 }\n" + path.read_text())
        out = self.run_check()
        self.assertEqual(out.returncode, 1)
        for said in (
            "`census` is a step id in an SQL path",
            "`subInfo` is a step id in an SQL path",
            "`network == Some(2` is a catalog id as a number",
            "web/src/lib/flow.ts:",
            "`census` is a step's route",
            "`subInfo` is a step's route",
            "`medical_carrier_id != 3` is a catalog id as a number",
        ):
            self.assertIn(said, out.stdout)

    def test_tests_and_comments_are_not_read(self) -> None:
        self.append("server/src/rules/quoting.rs", '// the "census" step\n')
        (self.dir / "web/src/lib/x.test.ts").write_text("const s = 'census';\n")
        out = self.run_check()
        self.assertEqual(out.returncode, 0, out.stdout)

    def test_an_allowance_that_no_longer_matches_fails(self) -> None:
        path = self.dir / "server/src/http/print.rs"
        path.write_text(path.read_text().replace('"review"', '"review_page"'))
        out = self.run_check()
        self.assertEqual(out.returncode, 1)
        self.assertIn("no longer says it", out.stdout)


if __name__ == "__main__":
    unittest.main()
