"""The Compose check fails on what it must refuse (run by `make check`): a depends_on naming no
service, a literal secret, an undeclared volume, an interpolation with neither default nor message,
an unquoted port or restart policy, an instance missing from nginx's upstream, an image running as
root, a dashboard metric outside enrollflow_; and it passes on the repository's deploy/."""
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "tools/compose/check.py"
sys.path.insert(0, str(CHECK.parent))
import check  # noqa: E402


class ComposeCheck(unittest.TestCase):
    def setUp(self) -> None:
        # A copy of deploy/ and the Dockerfile, with what the Dockerfile copies from the context as
        # empty stand-ins.
        self.dir = Path(tempfile.mkdtemp())
        shutil.copytree(ROOT / "deploy", self.dir / "deploy")
        for name in ("Dockerfile", ".dockerignore"):
            shutil.copy(ROOT / name, self.dir / name)
        for word, args in check.instructions((ROOT / "Dockerfile").read_text()):
            if word in ("COPY", "ADD"):
                from_stage, sources = check.copy_sources(args)
                for s in [] if from_stage else sources:
                    target = self.dir / s
                    if s.endswith("/") or (ROOT / s).is_dir():
                        target.mkdir(parents=True, exist_ok=True)
                    else:
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.touch()

    def tearDown(self) -> None:
        shutil.rmtree(self.dir)

    def run_check(self) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(CHECK), str(self.dir / "deploy")], capture_output=True, text=True)

    def compose(self) -> dict:
        return yaml.safe_load((self.dir / "deploy/compose.yaml").read_text())

    def write_compose(self, doc: dict) -> None:
        (self.dir / "deploy/compose.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))

    def edit_text(self, file: str, old: str, new: str) -> None:
        path = self.dir / file
        text = path.read_text()
        self.assertIn(old, text)
        path.write_text(text.replace(old, new, 1))

    def assert_fails_with(self, *words: str) -> None:
        out = self.run_check()
        self.assertEqual(out.returncode, 1, out.stdout)
        for word in words:
            self.assertIn(word, out.stdout)
        self.assertNotIn("compose: ok", out.stdout)

    def test_the_repository_passes(self) -> None:
        out = subprocess.run([sys.executable, str(CHECK)], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout)
        self.assertEqual(out.stdout.strip(), "compose: ok")

    def test_the_copy_passes(self) -> None:
        out = self.run_check()
        self.assertEqual(out.returncode, 0, out.stdout)

    def test_a_depends_on_naming_no_service_fails(self) -> None:
        doc = self.compose()
        doc["services"]["seed"]["depends_on"] = {"migrations": {"condition": "service_completed_successfully"}}
        self.write_compose(doc)
        self.assert_fails_with("deploy/compose.yaml: service seed: depends_on names `migrations`, which is not a service")

    def test_waiting_for_a_restarting_service_to_complete_fails(self) -> None:
        doc = self.compose()
        doc["services"]["migrate"]["restart"] = "on-failure:3"
        self.write_compose(doc)
        self.assert_fails_with("service seed: waits for migrate to complete, but migrate restarts (on-failure:3)")

    def test_a_bad_condition_fails(self) -> None:
        doc = self.compose()
        doc["services"]["migrate"]["depends_on"] = {"postgres": {"condition": "service_ready"}}
        doc["services"]["lb"]["depends_on"] = {"enrollflow-1": {"condition": "service_healthy"}}
        self.write_compose(doc)
        self.assert_fails_with("condition `service_ready`", "waits for enrollflow-1 to be healthy, but enrollflow-1 has no healthcheck")

    def test_a_literal_secret_fails(self) -> None:
        doc = self.compose()
        doc["services"]["enrollflow-2"]["environment"]["ENROLLFLOW_DATA_KEY"] = "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0cw=="
        doc["services"]["enrollflow-1"]["environment"]["ENROLLFLOW_ADMIN_TOKEN"] = "${ENROLLFLOW_ADMIN_TOKEN:-0123456789abcdef0123456789abcdef}"
        self.write_compose(doc)
        self.assert_fails_with("service enrollflow-2: ENROLLFLOW_DATA_KEY has a literal value",
                               "service enrollflow-1: ENROLLFLOW_ADMIN_TOKEN has a literal value")

    def test_an_undeclared_volume_fails(self) -> None:
        doc = self.compose()
        doc["services"]["postgres"]["volumes"] = ["postgres-files:/var/lib/postgresql/data"]
        self.write_compose(doc)
        self.assert_fails_with("service postgres: volume `postgres-files` is not declared")

    def test_a_missing_host_file_fails(self) -> None:
        (self.dir / "deploy/prometheus.yml").unlink()
        self.assert_fails_with("service prometheus: mounts ./prometheus.yml, which does not exist")

    def test_an_interpolation_without_default_or_message_fails(self) -> None:
        doc = self.compose()
        env = doc["services"]["enrollflow-1"]["environment"]
        env["ENROLLFLOW_EXAMPLE_REGION"] = "${EXAMPLE_REGION}"
        env["ENROLLFLOW_EXAMPLE_URL"] = "http://$EXAMPLE_HOST:9000"
        env["ENROLLFLOW_BASE_DOMAINS"] = "${BASE_DOMAINS:?}"
        env["ENROLLFLOW_CLIENT_IP_HEADER"] = "$(hostname)"
        self.write_compose(doc)
        self.assert_fails_with("`${EXAMPLE_REGION}` has no default", "`${EXAMPLE_HOST}` has no default",
                               "`${BASE_DOMAINS:?}` needs a message", "a lone `$`")

    def test_a_dollar_escape_and_defaults_pass(self) -> None:
        doc = self.compose()
        doc["services"]["enrollflow-1"]["environment"]["ENROLLFLOW_MAIL_FROM"] = "$$HOME ${A:-${B:-x}}"
        self.write_compose(doc)
        out = self.run_check()
        self.assertEqual(out.returncode, 0, out.stdout)

    def test_unquoted_ports_and_restart_fail(self) -> None:
        # YAML reads 22:22 as 1342 (base 60) and `no` as false.
        self.edit_text("deploy/compose.yaml", '- "8080:80"', "- 22:22")
        self.edit_text("deploy/compose.yaml", '- "9090"', "- 9090")
        self.edit_text("deploy/compose.yaml", 'restart: "no"', "restart: no")
        self.assert_fails_with("service lb: ports entry 1342 must be a quoted string",
                               "service enrollflow-1: expose entry 9090 must be a quoted string",
                               "service minio-init: restart must be a string")

    def test_a_version_key_fails(self) -> None:
        path = self.dir / "deploy/compose.yaml"
        path.write_text('version: "3.8"\n' + path.read_text())
        self.assert_fails_with("has a `version:` key")

    def test_an_instance_missing_from_the_upstream_fails(self) -> None:
        self.edit_text("deploy/nginx.conf", "server enrollflow-2:8080", "server enrollflow-3:8080")
        self.assert_fails_with("deploy/nginx.conf: upstream enrollflow names enrollflow-3, which is not a service",
                               "deploy/nginx.conf: no upstream names the instance enrollflow-2")

    def test_an_image_running_as_root_or_missing_rules_fails(self) -> None:
        self.edit_text("Dockerfile", "USER 10001", "USER root")
        self.edit_text("Dockerfile", "COPY rules/ /app/rules/", "")
        self.assert_fails_with("Dockerfile: the final stage runs as root", "Dockerfile: the image does not copy rules/")

    def test_a_secret_in_the_image_fails(self) -> None:
        self.edit_text("Dockerfile", "ENV ENROLLFLOW_LISTEN", "ENV ENROLLFLOW_ADMIN_TOKEN=x ENROLLFLOW_LISTEN")
        self.assert_fails_with("Dockerfile: ENV names ENROLLFLOW_ADMIN_TOKEN")

    def test_a_copied_folder_missing_from_the_context_fails(self) -> None:
        shutil.rmtree(self.dir / "templates")
        self.assert_fails_with("Dockerfile: COPY templates/: not in the build context")

    def test_a_dashboard_metric_outside_enrollflow_fails(self) -> None:
        path = self.dir / "deploy/grafana-dashboard.json"
        dash = json.loads(path.read_text())
        panel = next(p for p in dash["panels"] if p.get("targets"))
        panel["targets"][0]["expr"] = 'sum by (route) (rate(http_requests_total{route=~"$route"}[$__rate_interval]))'
        path.write_text(json.dumps(dash))
        self.assert_fails_with("deploy/grafana-dashboard.json: panel", "metric `http_requests_total` does not start with enrollflow_")

    def test_a_dashboard_that_does_not_parse_fails(self) -> None:
        (self.dir / "deploy/grafana-dashboard.json").write_text("{")
        self.assert_fails_with("deploy/grafana-dashboard.json: is not JSON")

    def test_promql_metric_names(self) -> None:
        self.assertEqual(
            check.metric_names('histogram_quantile(0.95, sum by (route, le) (rate(enrollflow_a_bucket{x="y"}[5m]))) '
                               '/ on (i) group_left (j) enrollflow_b + 1e3 - time()'),
            {"enrollflow_a_bucket", "enrollflow_b"},
        )


if __name__ == "__main__":
    unittest.main()
