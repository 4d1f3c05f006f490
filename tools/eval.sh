#!/usr/bin/env bash
# `npm run eval`: every shipped eval set (evals/sets/*), full size, offline. Set-up first (like `npm run demo`), then
# `dossier eval SET --out out/eval/SET` for each set, and one table of the overall figures at the end.
# Extra arguments go to every `dossier eval` (e.g. --engine openai, --questions 3).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$_repo_root"
ensure_dependencies
bash tools/ensure-services.sh
sets=()
for dir in evals/sets/*/; do
  [ -f "$dir/set.json" ] && sets+=("$(basename "$dir")")
done
status=0
for set in "${sets[@]}"; do
  node --enable-source-maps -r ./tools/ts-register.cjs apps/cli/src/main.ts eval "$set" --out "out/eval/$set" "$@" || status=1
done
node -e '
const fs = require("node:fs");
const rows = process.argv.slice(1).flatMap((s) => {
  const f = `out/eval/${s}/eval.json`;
  if (!fs.existsSync(f)) return [];
  const { overall: o } = JSON.parse(fs.readFileSync(f, "utf8"));
  const n = (v) => (v === null ? "—" : v.toFixed(2));
  const lint = o.lintPer100 === null || o.lintPer100 === undefined ? "—" : o.lintPer100.toFixed(1);
  return [[s, o.questions, n(o.keyPointRecall), n(o.sourceRecall), o.trapHits, lint, n(o.citationSupport), `${(o.wallMs / 1000).toFixed(0)} s`]];
});
const head = ["set", "questions", "recall", "source recall", "traps", "lint per 100 sentences", "citation support", "time"];
console.log("\n| " + head.join(" | ") + " |\n|" + head.map(() => "---").join("|") + "|");
for (const r of rows) console.log("| " + r.join(" | ") + " |");
' "${sets[@]}"
exit $status
