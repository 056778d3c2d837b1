"""`enrollflow check` and `enrollflow texts` on the languages, as an analyst runs them on a
copy of rules/, forms/ and templates/: a Spanish text removed is named with the file and line of its
English text and the catalog it belongs in; a translation of no text is named at its catalog line;
a third language is its catalogs, started by `enrollflow texts --write`, and its versions of the
consumer's templates.
Usage: python3 tools/i18n/test_cli.py BIN (the enrollflow binary)."""
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

BIN = None
ROOT = Path(__file__).resolve().parent.parent.parent


class LanguagesCli(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = Path(self.dir.name)
        for folder in ("rules", "forms", "templates"):
            shutil.copytree(ROOT / folder, self.root / folder)

    def tearDown(self):
        self.dir.cleanup()

    def check(self):
        return subprocess.run([BIN, "check", str(self.root)], capture_output=True, text=True)

    def test_the_repository_set_is_complete_in_spanish(self):
        r = self.check()
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_a_removed_spanish_key_is_named_with_its_text_and_catalog(self):
        catalog = self.root / "forms/locales/es.yaml"
        text = catalog.read_text()
        self.assertIn('"Gender": "Sexo"\n', text)
        catalog.write_text(text.replace('"Gender": "Sexo"\n', ""))
        r = self.check()
        self.assertEqual(r.returncode, 1)
        line = next(i for i, l in enumerate((ROOT / "forms/census.form.yaml").read_text().splitlines(), 1) if "Gender" in l)
        self.assertIn(
            f"forms/census.form.yaml:{line}:1: no es translation of `Gender` (in forms/locales/es.yaml)", r.stderr
        )
        self.assertIn("1 problem(s)", r.stderr)

    def test_a_translation_of_no_text_is_named_at_its_line(self):
        catalog = self.root / "rules/locales/es.yaml"
        lines = catalog.read_text().splitlines()
        catalog.write_text("\n".join(lines + ['"A text nobody writes": "Un texto que nadie escribe"']) + "\n")
        r = self.check()
        self.assertEqual(r.returncode, 1)
        self.assertIn(
            f"rules/locales/es.yaml:{len(lines) + 1}:1: `A text nobody writes` is not a text of the forms, tables or rules",
            r.stderr,
        )

    def test_a_third_language_is_its_catalogs(self):
        r = subprocess.run([BIN, "texts", "--language", "fr", "--dir", str(self.root), "--write"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("wrote forms/locales/fr.yaml", r.stdout)
        # Every text is listed, blank: the set is not served until each is translated.
        r = self.check()
        self.assertEqual(r.returncode, 1)
        missing = re.findall(r"no fr translation of `", r.stderr)
        self.assertGreater(len(missing), 300)
        # Filled in (here with the English itself, as a stand-in), the set loads.
        for path in ("forms/locales/fr.yaml", "rules/locales/fr.yaml"):
            catalog = self.root / path
            out = []
            for line in catalog.read_text().splitlines():
                m = re.fullmatch(r'(".*"): ""', line)
                out.append(f"{m.group(1)}: {m.group(1)}" if m else line)
            catalog.write_text("\n".join(out) + "\n")
        # And the consumer's templates (legal texts, e-mails), each in the language.
        r = self.check()
        self.assertEqual(r.returncode, 1)
        self.assertIn("templates/email/receipt.txt:1:1: no fr version of this template (templates/fr/email/receipt.txt)", r.stderr)
        for path in (self.root / "templates/es").rglob("*"):
            if path.is_file():
                target = self.root / "templates/fr" / path.relative_to(self.root / "templates/es")
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(self.root / "templates" / path.relative_to(self.root / "templates/es"), target)
        r = self.check()
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run([BIN, "texts", "--language", "fr", "--dir", str(self.root)], capture_output=True, text=True)
        self.assertNotIn(': ""', r.stdout)
        self.assertIn(json.dumps("Gender") + ": " + json.dumps("Gender"), r.stdout)


if __name__ == "__main__":
    BIN = sys.argv.pop(1)
    unittest.main()
