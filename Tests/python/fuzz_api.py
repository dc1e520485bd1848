"""Fuzzes OnrampKit from its own `/openapi.json` with schemathesis (PyPI), which knows nothing of us:
it generates valid and invalid requests for every operation and checks every answer (no 5xx; status,
content type, headers and body as the description says; credentials really required).

Usage: fuzz_api.py BASE_URL REPORT_DIR. Credentials come from the environment (see fuzz_hooks.py);
ONRAMP_FUZZ_EXAMPLES (default 10) bounds the cases per operation and phase, ONRAMP_FUZZ_SEED fixes the
seed (default 1, so CI is reproducible). Prints schemathesis's own report, then one JSON line of counts.
Exits with schemathesis's status.
"""
import json
import os
import subprocess
import sys

base, report_dir = sys.argv[1:3]
here = os.path.dirname(os.path.abspath(__file__))
environment = dict(os.environ, SCHEMATHESIS_HOOKS="fuzz_hooks",
                   PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   DISABLE_CDP_ERROR_REPORTING="true", DISABLE_CDP_USAGE_TRACKING="true")
ndjson = os.path.join(report_dir, "events.ndjson")
command = [
    os.path.join(os.path.dirname(sys.executable), "schemathesis"),
    "--config-file", os.path.join(here, "schemathesis.toml"), "run", base + "/openapi.json",
    "--checks", "all",
    # Valid-by-schema data is not valid by our rules (an address's checksum, an id that exists), so a
    # 4xx to a schema-valid request is expected; everything else is checked.
    "--exclude-checks", "positive_data_acceptance",
    "--phases", "examples,coverage,fuzzing",
    "--max-examples", os.environ.get("ONRAMP_FUZZ_EXAMPLES", "10"),
    "--seed", os.environ.get("ONRAMP_FUZZ_SEED", "1"),
    # One worker: CPython 3.11's parser is not safe for Hypothesis's lambda descriptions in threads.
    "--workers", "1", "--no-color", "--request-timeout", "10",
    "--report", "ndjson", "--report-ndjson-path", ndjson,
]
run = subprocess.run(command, env=environment, capture_output=True, text=True)
print(run.stdout)
print(run.stderr, file=sys.stderr)
print(run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "", file=sys.stderr)
sys.exit(run.returncode)
