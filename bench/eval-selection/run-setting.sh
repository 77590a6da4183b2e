#!/bin/sh
# One setting of bench/eval-selection (see README.md): starts the simulated agents' server, writes
# team<NAME>.yaml (with the extra orchestrator keys given), runs coord eval into ev<NAME>/, stops
# the server. Run from a scratch folder holding gsm200.jsonl; COORD is the built CLI.
#   run-setting.sh NAME "P" Q [ORCHESTRATOR_YAML_LINES]
#   e.g. run-setting.sh A 0.6 0.7 "  tie_break: fresh_answers"
set -eu
name=$1 p=$2 q=$3 extra=${4:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
node "$root/dist/test/support/eval-sim-server-main.js" gsm200.jsonl --p "$p" --q "$q" --seed 26 \
  > "server$name.out" 2> "server$name.err" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
while ! grep -q '^END$' "server$name.out" 2>/dev/null; do sleep 0.2; done
sed -n '/^CONFIG$/,/^END$/p' "server$name.out" | sed '1d;$d' > "team$name.yaml"
if [ -n "$extra" ]; then printf 'orchestrator:\n%s\n' "$extra" >> "team$name.yaml"; fi
rm -rf "ev$name"
node "$root/dist/bin/coord.js" eval gsm200.jsonl --config "team$name.yaml" --scorer gsm8k --yes \
  --no-logs --concurrency 4 --out "ev$name" > "report$name.txt" 2> "eval$name.err"
