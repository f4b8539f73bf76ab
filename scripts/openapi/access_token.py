#!/usr/bin/env python3
"""Prints an access token of a sandbox person (`BASE USER [PROVIDER]`), for schemathesis."""
import os, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from sandbox_login import login  # noqa: E402

print(login(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "bankid")["access_token"])
