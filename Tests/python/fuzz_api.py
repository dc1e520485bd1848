"""Fuzzes OnrampKit from its own `/openapi.json` with schemathesis (PyPI), which knows nothing of us:
it generates valid and invalid requests for every operation and checks every answer (no 5xx; status,
content type, headers and body as the description says; credentials really required).

Usage: fuzz_api.py BASE_URL REPORT_DIR. Credentials come from the environment (see fuzz_hooks.py);
ONRAMP_FUZZ_EXAMPLES (default 10) bounds the cases per operation and phase, ONRAMP_FUZZ_SEED fixes the
seed (default 1, so CI is reproducible). The operations are split in two halves (the Stripe family and
pages under /v1/, /auth/ and /embedded/; everything else) fuzzed by two schemathesis processes at once,
one per core (its own threads would trip CPython 3.11's parser). Prints both reports; exits non-zero
when either run fails.
"""
import os
import subprocess
import sys

base, report_dir = sys.argv[1:3]
here = os.path.dirname(os.path.abspath(__file__))
environment = dict(os.environ, SCHEMATHESIS_HOOKS="fuzz_hooks",
                   PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   DISABLE_CDP_ERROR_REPORTING="true", DISABLE_CDP_USAGE_TRACKING="true")
stripe_family = "^/(v1|auth|embedded)/"
halves = {"stripe": ["--include-path-regex", stripe_family], "other": ["--exclude-path-regex", stripe_family]}


def command(name, selection):
    return [
        os.path.join(os.path.dirname(sys.executable), "schemathesis"),
        "--config-file", os.path.join(here, "schemathesis.toml"), "run", base + "/openapi.json",
        *selection,
        "--checks", "all",
        # Valid-by-schema data is not valid by our rules (an address's checksum, an id that exists), so a
        # 4xx to a schema-valid request is expected; everything else is checked.
        "--exclude-checks", "positive_data_acceptance",
        "--phases", "examples,coverage,fuzzing",
        "--max-examples", os.environ.get("ONRAMP_FUZZ_EXAMPLES", "10"),
        "--seed", os.environ.get("ONRAMP_FUZZ_SEED", "1"),
        "--workers", "1", "--no-color", "--request-timeout", "10",
        "--report", "ndjson", "--report-ndjson-path", os.path.join(report_dir, f"events-{name}.ndjson"),
    ]


runs = {name: subprocess.Popen(command(name, selection), env=environment, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        for name, selection in halves.items()}
status = 0
for name, run in runs.items():
    out, err = run.communicate()
    print(f"===== schemathesis: {name} operations =====")
    print(out)
    print(err, file=sys.stderr)
    status = status or run.returncode
sys.exit(status)
