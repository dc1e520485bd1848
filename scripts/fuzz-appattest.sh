#!/usr/bin/env bash
# Fuzz the App Attest CBOR reader and attestation/assertion parsers with libFuzzer.
#   scripts/fuzz-appattest.sh [SECONDS]   (default 60)
# Builds .build/fuzz/appattest-fuzz with `swiftc -sanitize=fuzzer,address`, seeds the corpus with every
# attestation and assertion object in Tests/AppAttestTests/Fixtures/appattest, runs for SECONDS on one core and prints
# libFuzzer's final statistics (stat::number_of_executed_units is the executions count).
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
vectors="${VECTORS:-$root/Tests/AppAttestTests/Fixtures/appattest}"
out="$root/.build/fuzz"
corpus="$out/corpus"
mkdir -p "$out" "$corpus"

sources=(CBORValue CBORError CBORReader CBORWriter AuthenticatorData AttestationObject AssertionObject
         AppAttestError AppAttestNonceExtension)
files=()
for name in "${sources[@]}"; do files+=("$root/Sources/AppAttest/$name.swift"); done

swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name AppAttestFuzz \
  "${files[@]}" "$root/Fuzz/AppAttestFuzzTarget.swift" -o "$out/appattest-fuzz" 2> "$out/build.log" \
  || { cat "$out/build.log"; exit 1; }

python3 - "$vectors" "$corpus" <<'PY'
import base64, glob, json, os, sys
vectors, corpus = sys.argv[1], sys.argv[2]
for path in glob.glob(os.path.join(vectors, "*.json")):
    vector = json.load(open(path))
    for field in ("attestation_b64", "assertion_b64"):
        if vector.get(field):
            text = vector[field].replace("-", "+").replace("_", "/").rstrip("=")
            data = base64.b64decode(text + "=" * (-len(text) % 4))
            name = os.path.basename(path)[:-5] + "-" + field.split("_")[0]
            open(os.path.join(corpus, name), "wb").write(data)
PY

"$out/appattest-fuzz" "$corpus" -max_total_time="$seconds" -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$out/" 2>&1 | tail -n 25
