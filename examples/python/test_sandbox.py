"""The sandbox from Python: a unittest suite on the standard library only (unittest, urllib, subprocess).

Run it from the repository root, after ``npx tsup``:

    python3 -m unittest discover examples/python
"""

import re
import unittest

from sandbox_fixture import Sandbox

ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


class SandboxTestCase(unittest.TestCase):
    """One sandbox process for the class; a reset before each test."""

    sandbox = None

    @classmethod
    def setUpClass(cls):
        cls.sandbox = Sandbox().start()

    @classmethod
    def tearDownClass(cls):
        cls.sandbox.stop()

    def setUp(self):
        self.sandbox.reset()

    def agent_id(self):
        answer = self.sandbox.api("GET", "/ext/agents?limit=100")
        return next(a["id"] for a in answer.json["data"] if a["status"] == "available")

    def assertRateHeaders(self, answer):
        self.assertRegex(answer.headers["X-RateLimit-Limit"], r"^\d+$")
        self.assertRegex(answer.headers["X-RateLimit-Remaining"], r"^\d+$")
        self.assertRegex(answer.headers["X-RateLimit-Reset"], ISO_UTC)


class TestTaskLifecycle(SandboxTestCase):
    def test_a_task_created_the_clock_advanced_the_task_completed_the_usage_checked(self):
        sb = self.sandbox
        created = sb.api("POST", "/ext/tasks", {"agent_id": self.agent_id(), "description": "Write a haiku."})
        self.assertEqual(created.status, 201, created.text)
        self.assertEqual(created.json["status"], "queued")
        self.assertRateHeaders(created)

        clock = sb.control("POST", "/clock", {"advance": "5m"})
        self.assertEqual(clock.status, 200)
        self.assertEqual(clock.json["mode"], "manual")

        task = sb.api("GET", f"/ext/tasks/{created.json['id']}")
        self.assertEqual(task.json["status"], "completed")
        self.assertGreater(task.json["usage"]["cost_usd"], 0)

        usage = sb.api("GET", "/ext/usage")
        self.assertEqual(usage.status, 200)
        self.assertEqual(usage.json["tasks"]["completed"], 1)
        self.assertAlmostEqual(usage.json["cost_usd"], task.json["usage"]["cost_usd"], places=9)

    def test_reset_between_tests_leaves_no_task(self):
        self.assertEqual(self.sandbox.api("GET", "/ext/usage").json["tasks"]["completed"], 0)
        self.assertEqual(self.sandbox.control("GET", "/tasks").json["data"], [])


class TestScenarios(SandboxTestCase):
    def test_402_under_out_of_credits_with_the_rate_headers(self):
        sb = self.sandbox
        self.assertEqual(sb.control("POST", "/scenarios", {"name": "out-of-credits"}).status, 204)
        answer = sb.api("POST", "/ext/tasks", {"agent_id": self.agent_id(), "description": "x"})
        self.assertEqual(answer.status, 402)
        self.assertEqual(answer.json["error"]["code"], "insufficient_credits")
        self.assertEqual(set(answer.json), {"error"})
        self.assertRateHeaders(answer)

    def test_429_under_rate_limited_with_retry_after(self):
        sb = self.sandbox
        self.assertEqual(sb.control("POST", "/scenarios", {"name": "rate-limited"}).status, 204)
        answer = sb.api("GET", "/ext/agents")
        self.assertEqual(answer.status, 429)
        self.assertEqual(answer.json["error"]["code"], "rate_limit_exceeded")
        self.assertRateHeaders(answer)
        self.assertEqual(answer.headers["X-RateLimit-Remaining"], "0")
        self.assertGreaterEqual(int(answer.headers["Retry-After"]), 1)

    def test_the_audit_after_a_deliberately_bad_retry(self):
        sb = self.sandbox
        sb.control("POST", "/scenarios", {"name": "rate-limited"})
        first = sb.api("GET", "/ext/usage")
        self.assertEqual(first.status, 429)
        sb.api("GET", "/ext/usage")  # again at once, before X-RateLimit-Reset: what the audit catches
        audit = sb.control("GET", "/audit?account_id=acc_demo")
        self.assertEqual(audit.status, 200)
        rules = [f["rule"] for f in audit.json["data"]]
        self.assertIn("retry-before-reset", rules)
        finding = next(f for f in audit.json["data"] if f["rule"] == "retry-before-reset")
        self.assertEqual(finding["account_id"], "acc_demo")
        self.assertEqual(finding["severity"], "error")

    def test_a_careful_client_has_a_clean_audit(self):
        sb = self.sandbox
        sb.api("GET", "/ext/agents")
        sb.api("GET", "/ext/usage")
        self.assertEqual(sb.control("GET", "/audit").json["data"], [])


class TestControlAssertions(SandboxTestCase):
    def test_requests_and_spend_through_the_control_api(self):
        sb = self.sandbox
        before = next(a for a in sb.control("GET", "/accounts").json["data"] if a["id"] == "acc_demo")
        for text in ("one", "two"):
            self.assertEqual(sb.api("POST", "/ext/tasks", {"agent_id": self.agent_id(), "description": text}).status, 201)
        sb.control("POST", "/clock", {"advance": "10m"})

        posts = sb.control("GET", "/requests?method=POST&path=/api/v1/ext/tasks").json["data"]
        self.assertEqual([r["status"] for r in posts], [201, 201])
        self.assertEqual({r["key_id"] for r in posts}, {"key_demo_admin"})
        self.assertEqual(posts[0]["trace"][0]["step"], "key")

        tasks = sb.control("GET", "/tasks?account_id=acc_demo").json["data"]
        spent = sum(t["usage"]["cost_usd"] for t in tasks)
        self.assertEqual([t["status"] for t in tasks], ["completed", "completed"])
        after = next(a for a in sb.control("GET", "/accounts").json["data"] if a["id"] == "acc_demo")
        self.assertAlmostEqual(before["balance_usd"] - after["balance_usd"], spent, places=6)
        self.assertAlmostEqual(sb.api("GET", "/ext/usage").json["cost_usd"], spent, places=9)

    def test_verify_and_spend_routes(self):
        """POST /__sandbox/verify and GET /__sandbox/spend: skipped on a sandbox that does not have them yet."""
        sb = self.sandbox
        probe = sb.control("GET", "/spend?account_id=acc_demo")
        if probe.status == 404:
            self.skipTest("GET /__sandbox/spend is not in this build of the sandbox (404)")
        mark = sb.control("POST", "/marks")
        if mark.status == 404:
            self.skipTest("POST /__sandbox/marks is not in this build of the sandbox (404)")
        since = mark.json["mark"]
        sb.api("POST", "/ext/tasks", {"agent_id": self.agent_id(), "description": "counted"})
        sb.control("POST", "/clock", {"advance": "10m"})
        verify = sb.control(
            "POST",
            "/verify",
            {"pattern": {"method": "POST", "path": "/api/v1/ext/tasks"}, "count": {"eq": 1}, "since": since},
        )
        if verify.status == 404:
            self.skipTest("POST /__sandbox/verify is not in this build of the sandbox (404)")
        self.assertEqual(verify.status, 200, verify.text)
        self.assertTrue(verify.json["ok"], verify.text)
        spend = sb.control("GET", f"/spend?account_id=acc_demo&since={since}")
        self.assertEqual(spend.status, 200, spend.text)
        self.assertGreater(spend.json["usd"], 0)
        self.assertGreater(spend.json["tokens"], 0)


class TestReadyLine(SandboxTestCase):
    def test_the_ready_line_names_the_port_and_the_keys_per_account(self):
        ready = self.sandbox.ready
        self.assertEqual(ready["base_url"], f"http://127.0.0.1:{ready['port']}/api/v1")
        self.assertTrue(self.sandbox.key().startswith("ak_"))
        self.assertIn("acc_free", [a["id"] for a in ready["accounts"]])

    def test_the_control_api_describes_itself(self):
        doc = self.sandbox.request("GET", self.sandbox.ready["control_openapi_url"]).json
        self.assertEqual(doc["openapi"], "3.1.0")
        self.assertIn("/reset", doc["paths"])


if __name__ == "__main__":
    unittest.main()
