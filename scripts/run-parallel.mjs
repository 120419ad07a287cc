// Runs npm scripts at the same time and fails if any fails: `pretest` runs the type check and lint this way,
// as each is mostly one process on one core and CI has two (issue 23: the suite within 10 minutes).
// A lane `a,b` runs `a` then `b`, so lanes of similar length keep both cores busy.
// Each script's output is held and printed whole when it ends, so the two never interleave.
// Usage: node scripts/run-parallel.mjs <lane> [<lane> ...], a lane being <script>[,<script> ...]
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs <npm script>[,<npm script> ...] ...');
  process.exit(2);
}

// Under npm, the npm that runs us; otherwise the one on PATH.
const npm = process.env.npm_execpath
  ? { command: process.execPath, args: [process.env.npm_execpath] }
  : { command: 'npm', args: [] };

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm.command, [...npm.args, 'run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    let ended = false;
    const finish = (code, detail) => {
      if (ended) return; // 'error' may be followed by 'close'
      ended = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(Buffer.concat(output));
      const verdict = code === 0 ? 'passed' : `failed (${detail})`;
      console.log(`npm run ${script}: ${verdict} in ${seconds} s`);
      resolve(code === 0);
    };
    child.on('error', (error) => finish(1, error.message));
    child.on('close', (code, signal) => finish(code ?? 1, signal ? `killed by ${signal}` : `exit code ${code}`));
  });
}

// Every script of a lane runs, as it would in a lane of its own: a type error does not hide a format error.
async function lane(names) {
  let passed = true;
  for (const script of names.split(',')) passed = (await run(script)) && passed;
  return passed;
}

const results = await Promise.all(scripts.map(lane));
process.exit(results.every(Boolean) ? 0 : 1);
