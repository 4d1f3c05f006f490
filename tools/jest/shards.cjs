// Splits the jest test files into shards of about equal time, for `npm test` (tools/test.sh) on two cores.
//
//   node tools/jest/shards.cjs split N K [--after-soak]     prints shard K's files (1-based), one per line, from
//                                                          `jest --listTests` (the soak's own files left out); with
//                                                          --after-soak shard N starts only once the soak has run
//   node tools/jest/shards.cjs record RESULTS.json ...      writes tmp/jest-durations.json from jest --json output
//
// Durations come from this checkout's last run (tmp/jest-durations.json), else from the committed record
// (tools/jest/durations.json: refresh it by copying the tmp file after a full run); a file with neither counts as the
// median file (4 s while fewer than half the files have a record). Longest first, each to the shard that ends soonest (LPT): within ~5% of ideal here.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const COMMITTED = path.join(__dirname, 'durations.json');
const LAST_RUN = path.join(root, 'tmp/jest-durations.json');

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

function readDurations() {
  return { ...readJson(COMMITTED), ...readJson(LAST_RUN) };
}

function listTests() {
  const out = execFileSync(path.join(root, 'node_modules/.bin/jest'), ['--listTests', '--json'], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out)
    .map((file) => path.relative(root, file))
    .sort();
}

/** Assigns files to `count` shards, longest first, each to the shard with the least time so far. */
function split(files, durations, count, heads) {
  const known = files
    .map((f) => durations[f])
    .filter((s) => typeof s === 'number')
    .sort((a, b) => a - b);
  // With few files recorded (the seed record holds only the slowest), the median of those would overrate the rest.
  const median = known.length * 2 >= files.length ? known[Math.floor(known.length / 2)] : 4;
  const weighted = files.map((file) => ({ file, seconds: durations[file] ?? median }));
  weighted.sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  const shards = Array.from({ length: count }, (_, i) => ({ seconds: heads[i] ?? 0, files: [] }));
  for (const w of weighted) {
    const target = shards.reduce((best, s) => (s.seconds < best.seconds ? s : best));
    target.seconds += w.seconds;
    target.files.push(w.file);
  }
  return shards;
}

function record(resultFiles) {
  const durations = readDurations();
  for (const file of resultFiles) {
    let results;
    try {
      results = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      continue; // A run that wrote no results records nothing.
    }
    for (const r of results.testResults ?? []) {
      const seconds = (r.endTime - r.startTime) / 1000;
      if (Number.isFinite(seconds) && seconds > 0) durations[path.relative(root, r.name)] = Math.round(seconds * 10) / 10;
    }
  }
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
  fs.mkdirSync(path.dirname(LAST_RUN), { recursive: true });
  fs.writeFileSync(LAST_RUN, `${JSON.stringify(sorted, null, 2)}\n`);
}

function main([command, ...args]) {
  if (command === 'record') return record(args);
  const [count, index] = args.slice(0, 2).map(Number);
  if (command !== 'split' || !(count >= 1 && index >= 1 && index <= count)) {
    console.error('usage: shards.cjs split N K [--after-soak] | record RESULTS.json ...  (1 <= K <= N)');
    process.exit(2);
  }
  const durations = readDurations();
  const all = listTests();
  const soak = all.filter((f) => f.startsWith('tools/soak/')).reduce((sum, f) => sum + (durations[f] ?? 0), 0);
  const heads = Array.from({ length: count }, (_, i) => (i === count - 1 && args.includes('--after-soak') ? soak : 0));
  const files = all.filter((f) => !f.startsWith('tools/soak/'));
  for (const file of split(files, durations, count, heads)[index - 1].files) console.log(file);
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { split };
