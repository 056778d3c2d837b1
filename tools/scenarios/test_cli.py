"""`enrollflow scenarios` as a tester runs it (make test-rules): --filter picks scenarios by name,
--junit writes JUnit XML that CI test reports read, and a failure names the suite file and line.
Usage: python3 tools/scenarios/test_cli.py BIN (the server's `enrollflow`, or the analysts'
`enrollflow-rules`, which runs the same commands without a database)."""
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

BIN = None
ROOT = Path(__file__).resolve().parent.parent.parent

SUITE = """\
- name: passes on purpose
  context: { today: 2024-11-20 }
  steps:
    - valid: whyApplying
      expect: { allowed: true }
- name: fails on purpose
  context: { today: 2024-11-20 }
  steps:
    - valid: whyApplying
      expect: { allowed: false }
"""


def run(*args):
    return subprocess.run([BIN, "scenarios", "--root", str(ROOT), *args], capture_output=True, text=True)


class ScenariosCli(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.suite = Path(self.dir.name) / "suite.yaml"
        self.suite.write_text(SUITE)

    def tearDown(self):
        self.dir.cleanup()

    def test_a_failure_names_the_file_and_line_and_the_junit_report_says_it(self):
        report = Path(self.dir.name) / "report.xml"
        r = run(str(self.suite), "--junit", str(report))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("1 passed, 1 failed", r.stdout)
        self.assertIn(f"FAIL {self.suite}:6: fails on purpose", r.stdout)
        self.assertIn(f"{self.suite}:9: step 1:", r.stdout)
        root = ET.parse(report).getroot()
        self.assertEqual((root.get("tests"), root.get("failures")), ("2", "1"))
        cases = {c.get("name"): c for c in root.iter("testcase")}
        self.assertIsNone(cases["passes on purpose"].find("failure"))
        failure = cases["fails on purpose"].find("failure")
        self.assertIsNotNone(failure)
        self.assertIn(":9: step 1:", failure.get("message"))

    def test_filter_runs_only_the_scenarios_named(self):
        r = run(str(self.suite), "--filter", "PASSES")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("1 passed, 0 failed", r.stdout)


class CoverageCli(unittest.TestCase):
    """`enrollflow coverage`: the summary line, the HTML report, and the floor of rules/coverage.yaml."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = Path(self.dir.name)
        shutil.copytree(ROOT / "rules", self.root / "rules")
        shutil.copytree(ROOT / "forms", self.root / "forms")
        self.suite = self.root / "suite.yaml"
        self.suite.write_text(SUITE.split("- name: fails on purpose")[0])

    def tearDown(self):
        self.dir.cleanup()

    def cover(self, *args):
        return subprocess.run([BIN, "coverage", "--root", str(self.root), str(self.suite), *args],
                              capture_output=True, text=True)

    def test_a_floor_not_met_fails_and_names_the_kind(self):
        html = self.root / "coverage.html"
        r = self.cover("--html", str(html))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertRegex(r.stdout, r"coverage: statements \d+/\d+ \([\d.]+%\), branches")
        self.assertIn("FAIL rules/coverage.yaml: transitions ", r.stdout)
        self.assertIn("rules/flows/enrollment.flow.yaml:", r.stdout)
        self.assertIn("not reached: transition census → medical", r.stdout)
        self.assertIn("<h1>Enrollflow rule coverage</h1>", html.read_text())

    def test_without_a_floor_the_run_passes(self):
        (self.root / "rules" / "coverage.yaml").unlink()
        r = self.cover()
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


def no_stored_applications():
    """The server's impact also replays stored applications; the analysts' binary reads none."""
    return ["--applications", "0"] if Path(BIN).name == "enrollflow" else []


class ImpactCli(unittest.TestCase):
    """`enrollflow impact`: a draft against a base folder or git revision, over the scenario suites."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.base = Path(self.dir.name) / "base"
        self.draft = Path(self.dir.name) / "draft"
        for root in (self.base, self.draft):
            for d in ("rules", "forms", "templates"):
                shutil.copytree(ROOT / d, root / d)

    def tearDown(self):
        self.dir.cleanup()

    def impact(self, base, *args):
        return subprocess.run(
            [BIN, "impact", "--base", str(base), "--against", str(self.draft),
             "--suites", str(ROOT / "tests" / "scenarios"), *no_stored_applications(), *args],
            capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})

    def test_a_changed_premium_fails_the_scenarios_that_price_it(self):
        medical = self.draft / "rules" / "catalog" / "2025" / "medical.yaml"
        text = medical.read_text()
        at = text.index("id: 521")
        rates = text.index("rates:", at)
        end = text.index("\n", rates)
        line = text[rates:end]
        area4 = line.split(" 4: ")[1].split(",")[0]
        medical.write_text(text[:rates] + line.replace(f" 4: {area4}", " 4: 200.00", 1) + text[end:])
        report = Path(self.dir.name) / "impact.json"
        r = self.impact(self.base, "--fail-on-change", "--json", str(report))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("quoting.yaml:34: passed -> failed", r.stdout)
        self.assertIn("plan 521 costs $293.94 a month", r.stdout)
        self.assertIn("changes found", r.stdout)
        self.assertTrue(report.read_text().startswith("{"))
        # Without --fail-on-change the report is the answer, not a failure.
        self.assertEqual(self.impact(self.base).returncode, 0)

    def test_a_git_revision_as_the_base_with_no_change(self):
        # The draft is the repository's rule set at HEAD, as the base names it.
        shutil.rmtree(self.draft)
        self.draft.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", "rules", "forms", "templates"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(self.draft)], input=archive, check=True)
        r = subprocess.run(
            [BIN, "impact", "--base", "HEAD", "--against", str(self.draft),
             "--suites", str(ROOT / "tests" / "scenarios"), *no_stored_applications(), "--fail-on-change"],
            capture_output=True, text=True, cwd=ROOT, env={"PATH": "/usr/bin:/bin"})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("no change", r.stdout)
        # A revision git does not know is a clear error.
        r = self.impact("no-such-revision")
        self.assertEqual(r.returncode, 1)
        self.assertIn("no-such-revision", r.stderr)


if __name__ == "__main__":
    BIN = sys.argv.pop(1)
    unittest.main()
