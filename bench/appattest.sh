#!/usr/bin/env bash
# App Attest verification throughput on one core (taskset -c 0):
#   - assertion and attestation verifications/s through `onramp appattest bench` (release build),
#   - `openssl speed -seconds 3 ecdsap256` verify/s from the same run, and the ratio,
#   - the same vectors through Python `pyattest` (PyPI) for comparison; skipped with a message when it
#     cannot be imported or installed.
# Usage: bench/appattest.sh [SECONDS]   (default 3). PYTHON may name an interpreter that has pyattest.
set -euo pipefail
seconds="${1:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
vectors="${VECTORS:-$root/Tests/AppAttestTests/Fixtures/appattest}"
attestation="$vectors/basd-dev-attestation.json"
assertion="$vectors/basd-dev-assertion.json"
pin=(taskset -c 0)
command -v taskset > /dev/null || pin=()

cd "$root"
swift build -c release --product onramp > "$root/.build/bench-build.log" 2>&1 || { cat "$root/.build/bench-build.log"; exit 1; }
echo "vectors: $(basename "$attestation"), $(basename "$assertion"); ${seconds}s per measurement, one core"

ours="$("${pin[@]}" .build/release/onramp appattest bench --attestation "$attestation" --assertion "$assertion" --seconds "$seconds")"
assertions_per_s="$(sed -E 's/.*"assertion_verifications_per_second":([0-9]+).*/\1/' <<< "$ours")"
attestations_per_s="$(sed -E 's/.*"attestation_verifications_per_second":([0-9]+).*/\1/' <<< "$ours")"

openssl_line="$("${pin[@]}" openssl speed -seconds 3 ecdsap256 2> /dev/null | grep -E 'ecdsa \(nistp256\)' | tail -n 1)"
openssl_verify="$(awk '{print $NF}' <<< "$openssl_line")"
openssl_sign="$(awk '{print $(NF-1)}' <<< "$openssl_line")"

printf 'onramp   assertion verifications/s:   %s\n' "$assertions_per_s"
printf 'onramp   attestation verifications/s: %s\n' "$attestations_per_s"
printf 'openssl  ecdsap256 sign/s: %s  verify/s: %s\n' "$openssl_sign" "$openssl_verify"
awk -v a="$assertions_per_s" -v o="$openssl_verify" \
  'BEGIN { printf "ratio    assertion verify / openssl verify: %.2f\n", a / o }'

python="${PYTHON:-python3}"
if ! "$python" -c 'import pyattest' 2> /dev/null; then
  venv="$root/.build/bench-venv"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pyattest' 2> /dev/null; then
    { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet pyattest; } > /dev/null 2>&1 || true
  fi
  python="$venv/bin/python"
fi
if ! "$python" -c 'import pyattest' 2> /dev/null; then
  echo "pyattest: skipped (cannot import or install pyattest from PyPI)"
  exit 0
fi
"${pin[@]}" "$python" - "$attestation" "$assertion" "$seconds" <<'PY'
import asyncio, base64, datetime, json, sys, time
from unittest import mock
from cryptography.hazmat.primitives.asymmetric import ec
from pyhanko_certvalidator import ValidationContext
from pyattest.assertion import Assertion
from pyattest.attestation import Attestation
from pyattest.configs.apple import AppleConfig
import pyattest.verifiers.apple_attestation as apple_attestation

def b64(text):
    text = text.replace("-", "+").replace("_", "/").rstrip("=")
    return base64.b64decode(text + "=" * (-len(text) % 4))

att = json.load(open(sys.argv[1])); asr = json.load(open(sys.argv[2])); seconds = float(sys.argv[3])
moment = datetime.datetime.fromisoformat(att["verify_at_time"].replace("Z", "+00:00"))
# pyattest hashes the challenge itself (clientDataHash = SHA256(challenge)) and validates at the current time;
# this vector's challenge is known, and the validation time is pinned like ours.
challenge = att["challenge"]["utf8"].encode()
raw_att = b64(att["attestation_b64"])
config = AppleConfig(key_id=base64.b64decode(att["key_id"]), app_id=att["app_id"], production=False)
public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64(asr["public_key_x963_b64"]))
raw_asr = b64(asr["assertion_b64"]); client_data_hash = bytes.fromhex(asr["client_data_hash_hex"])

def measure(body):
    start = time.perf_counter(); count = 0
    while time.perf_counter() - start < seconds:
        body(); count += 1
    return count / (time.perf_counter() - start)

loop = asyncio.new_event_loop()
with mock.patch.object(apple_attestation, "ValidationContext",
                       lambda **kw: ValidationContext(moment=moment, **kw)):
    attestations = measure(lambda: loop.run_until_complete(Attestation(raw_att, challenge, config).verify()))
assertions = measure(lambda: Assertion(raw_asr, client_data_hash, public_key, config).verify())
print(f"pyattest assertion verifications/s:   {assertions:.0f}  (signature only: no rpId or counter check)")
print(f"pyattest attestation verifications/s: {attestations:.0f}")
PY
