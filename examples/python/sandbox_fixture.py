"""A process fixture for agent-work-sandbox, in Python's standard library only.

It starts the CLI on a free port (``--port 0``) with ``--log json``, reads the first line of stdout (the ready line:
one JSON object with the base URL, the port and the ready keys per account) and stops the process at the end.

The CLI is ``node dist/cli.js`` of this repository (build it with ``npx tsup``); set ``AGENT_WORK_SANDBOX_CMD`` to run
another command instead, e.g. ``npx agent-work-sandbox``.
"""

import json
import os
import shlex
import subprocess
import threading
import urllib.error
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
READY_TIMEOUT_S = 30


def _command():
    custom = os.environ.get("AGENT_WORK_SANDBOX_CMD")
    if custom:
        return shlex.split(custom)
    return ["node", os.path.join(ROOT, "dist", "cli.js")]


class Answer:
    """An HTTP answer: status, headers (case-insensitive) and the parsed JSON body (None when empty)."""

    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.text = body.decode("utf-8")
        self.json = json.loads(self.text) if self.text else None


class Sandbox:
    """One sandbox process: ``start()`` waits for the ready line, ``stop()`` ends it."""

    def __init__(self, *args):
        self.args = ["--port", "0", "--log", "json", "--clock", "manual", *args]
        self.process = None
        self.ready = None

    def start(self):
        self.process = subprocess.Popen(
            [*_command(), *self.args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        line = self._first_line()
        self.ready = json.loads(line)
        if self.ready.get("event") != "ready":
            raise RuntimeError(f"the first line is not the ready line: {line!r}")
        # The request log follows on stdout, one JSON object a line: read on, so the pipe never fills.
        threading.Thread(target=self._drain, daemon=True).start()
        return self

    def _first_line(self):
        got = {}
        reader = threading.Thread(target=lambda: got.update(line=self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(READY_TIMEOUT_S)
        if not got.get("line"):
            self.stop()
            raise RuntimeError(f"no ready line within {READY_TIMEOUT_S} s (is dist/ built? run npx tsup)")
        return got["line"]

    def _drain(self):
        for _ in self.process.stdout:
            pass

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    # ---- what the ready line says ----

    @property
    def base_url(self):
        return self.ready["base_url"]

    @property
    def control_url(self):
        return self.ready["control_url"]

    def key(self, label="admin", account="acc_demo"):
        """The ready key with this label on this account."""
        for a in self.ready["accounts"]:
            if a["id"] == account:
                for k in a["keys"]:
                    if k["label"] == label:
                        return k["key"]
        raise KeyError(f"no key {label!r} on {account!r}")

    # ---- requests ----

    def request(self, method, url, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                return Answer(res.status, res.headers, res.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.headers, error.read())

    def api(self, method, path, body=None, key=None, headers=None):
        """A request to the API (``/api/v1``) with ``Authorization: Bearer <key>`` (the admin key by default)."""
        headers = {"Authorization": f"Bearer {key or self.key()}", **(headers or {})}
        return self.request(method, self.base_url + path, body, headers)

    def control(self, method, path, body=None):
        """A request to the control API (``/__sandbox``)."""
        token = self.ready.get("control_token")
        return self.request(method, self.control_url + path, body, {"X-Sandbox-Token": token} if token else None)

    def reset(self):
        answer = self.control("POST", "/reset")
        assert answer.status == 204, answer.text
