#!/bin/bash
# Start one evaluation question through the shared bridge (../shared/agent-eval/play.sh):
#   tests/agent_eval/ask.sh OUT qNN        (env: PLAY; run from the checkout under test)
# HCIROOT is OUT/prod, TZ is UTC; then drive it with play.sh next/reply as README.md says.
set -eu
out=$1; id=$2
PLAYSH=${PLAYSH:-/work/shared/agent-eval/play.sh}
text=$(python3 -c "import json,sys; print(next(q['text'] for q in json.load(open(sys.argv[1])) if q['id']==sys.argv[2]))" "$out/questions.json" "$id")
export HCIROOT=$out/prod TZ=UTC
"$PLAYSH" start "$id" "$text"
