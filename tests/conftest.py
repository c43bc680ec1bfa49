"""Test configuration: hypothesis explores new examples locally and replays a fixed set
in CI (CI=true), so that a CI run is repeatable; what local runs find becomes a test. No
example has a deadline: how long one takes is the machine's, not a property of the code."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("local", deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("local")
if os.environ.get("CI"):
    settings.load_profile("ci")
