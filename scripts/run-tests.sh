#!/usr/bin/env bash
# The whole test suite, as `make test` runs it (inside scripts/with-postgres.sh): builds once, runs every
# test but the API fuzzer, then the API fuzzer alone, and prints the wall time of each part.
#
# The fuzzer's two schemathesis processes keep both cores busy for about half a minute; run beside the
# rest of the suite, they starved it and the whole run took 150 s instead of 51 + 34. A plain
# `swift test` still runs everything at once.
set -euo pipefail
swift=${SWIFT:-swift}
fuzzer='OpenAPITests/theFuzzerFindsNoServerError'

"$swift" build --build-tests
start=$(date +%s)
"$swift" test --skip-build --skip "$fuzzer"
suite_done=$(date +%s)
"$swift" test --skip-build --filter "$fuzzer"
end=$(date +%s)
echo "run-tests: suite $((suite_done - start)) s, API fuzzer $((end - suite_done)) s"
