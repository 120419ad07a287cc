// npm run drill — the reliability drill (issue 11, item 9). It runs the built kikitori-server as users
// run it (child processes of bin/kikitori-server.js, SQLite and files in a fresh data dir, role all)
// and prints one table: check, requests/runs, result, figure, pass/fail.
//   fuzz  a seeded fuzz of every route (DRILL_SEED, DRILL_FUZZ_REQUESTS, DRILL_FUZZ_ONLY to replay one)
//   kill  SIGKILLs during uploads and transcriptions (DRILL_KILLS, DRILL_RECORDINGS)
//   disk  a full disk during an upload and during decoding (a small tmpfs when it can mount one)
//   load  slow-loris clients and a burst of connections while a transcription runs (DRILL_BURST, DRILL_LORIS)
//   attacks  the second hardening round's attacks (issue 22): hostile Host/X-Forwarded-Host on tus, uploader-chosen
//         types, quotas through tus and /v1, a team ADMIN on the server's models, a deleted review on disk
// DRILL_PHASES=fuzz,kill picks phases; DRILL_QUICK=1 makes every phase small. Exits 1 when a check fails.
import { attacksPhase } from './attacks.js';
import { diskPhase } from './disk-full.js';
import { fuzzPhase } from './fuzz.js';
import { killPhase } from './kill.js';
import { loadPhase } from './load.js';
import { QUICK, type CheckResult } from './support.js';

const PHASES = { fuzz: fuzzPhase, kill: killPhase, disk: diskPhase, load: loadPhase, attacks: attacksPhase } as const;
type Phase = keyof typeof PHASES;

const seed = process.env.DRILL_SEED ? Number(process.env.DRILL_SEED) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(seed)) throw new Error(`DRILL_SEED must be an integer, got "${process.env.DRILL_SEED}"`);
const wanted = (process.env.DRILL_PHASES ?? Object.keys(PHASES).join(','))
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean);
for (const name of wanted)
  if (!(name in PHASES))
    throw new Error(`unknown phase "${name}" in DRILL_PHASES (known: ${Object.keys(PHASES).join(', ')})`);

console.log(
  `kikitori reliability drill: seed ${seed} (DRILL_SEED=${seed} repeats it)${QUICK ? ', quick sizes' : ''}; phases ${wanted.join(', ')}`,
);
const rows: CheckResult[] = [];
for (const name of wanted as Phase[]) {
  const started = Date.now();
  console.log(`\n[${name}] running…`);
  try {
    const results = await PHASES[name](seed);
    rows.push(...results);
  } catch (error) {
    rows.push({
      check: `${name}: phase crashed`,
      runs: '-',
      result: (error as Error).stack?.split('\n').slice(0, 3).join(' ') ?? String(error),
      figure: '-',
      pass: false,
    });
  }
  console.log(`[${name}] done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const header = ['check', 'requests/runs', 'result', 'figure', 'pass/fail'];
const table = rows.map((r) => [r.check, r.runs, r.result, r.figure, r.pass ? 'PASS' : 'FAIL']);
const widths = header.map((h, i) => Math.min(70, Math.max(h.length, ...table.map((row) => row[i]!.length))));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
console.log('\nNotes:');
for (const row of rows) for (const note of row.notes ?? []) console.log(`  ${note}`);
console.log(`\nReliability drill (seed ${seed})\n`);
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('-+-'));
for (const row of table) console.log(line(row));
const failed = rows.filter((r) => !r.pass).length;
console.log(`\n${failed === 0 ? 'all checks passed' : `${failed} check${failed === 1 ? '' : 's'} failed`}`);
process.exitCode = failed === 0 ? 0 : 1;
