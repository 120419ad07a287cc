// `npm run build` unless its inputs are byte for byte those of the last build that succeeded here.
// `.ci/run` runs `npm run setup` (which builds, for `npm start`) and then `npm test` (whose pretest builds
// again): with this, the second build is a hash of the inputs instead of minutes of tsc and vite.
// Without git (a tarball), or when anything is unknown, it builds.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(root, 'dist', '.build-inputs');
// What `npm run build` reads: tsconfig.json's include, the preload and renderer sources, their configs,
// and the dependencies (lock file) and Node version that compile them.
const INPUTS = [
  'src-server',
  'src-shared',
  'src-main',
  'src-preload',
  'src-renderer',
  'bench',
  'test/fixtures',
  // Compiled as the benches' imports (the drill starts the server through the e2e host's launcher).
  'test/support',
  'test/e2e/host',
  'tsconfig.json',
  'tsconfig.preload.json',
  'tsconfig.renderer.json',
  'vite.preload.config.ts',
  'vite.renderer.config.ts',
  'package.json',
  'package-lock.json',
];
const OUTPUTS = ['dist/src-server/cli.js', 'dist/preload/preload.cjs', 'dist/renderer/index.html'];

function inputsHash() {
  try {
    const files = execFileSync(
      'git',
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...INPUTS],
      { cwd: root },
    )
      .toString()
      .split('\0')
      .filter(Boolean)
      .sort();
    const hash = createHash('sha256').update(process.version);
    for (const file of files) {
      const full = path.join(root, file);
      if (!fs.existsSync(full)) continue; // deleted in the work tree, not yet in the index
      hash.update(`${file}\0`).update(fs.readFileSync(full)).update('\0');
    }
    return hash.digest('hex');
  } catch {
    return null;
  }
}

const before = inputsHash();
const built = OUTPUTS.every((file) => fs.existsSync(path.join(root, file)));
if (before && built && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8').trim() === before) {
  console.log('build: up to date (same inputs as the last build)');
  process.exit(0);
}
fs.rmSync(STAMP, { force: true });
const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
// Stamped with the hash taken before building: an edit made during the build triggers the next one.
if (before) fs.writeFileSync(STAMP, `${before}\n`);
