// better-sqlite3 is the one native module built against a specific runtime ABI (the others use N-API).
// npm builds it for Node (tests, `npm run serve`); the desktop app needs it built for Electron.
// `node scripts/native-modules.mjs node|electron` rebuilds it only when it is built for the other one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const marker = path.join(root, 'node_modules/better-sqlite3/build/Release/.kikitori-runtime');
const target = process.argv[2];
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: 'inherit' });

function loadsUnderNode() {
  try {
    new (require('better-sqlite3'))(':memory:').close();
    return true;
  } catch {
    return false;
  }
}

if (target === 'node') {
  if (!loadsUnderNode()) {
    console.log('native modules: rebuilding better-sqlite3 for Node');
    run('npm', ['rebuild', 'better-sqlite3']);
  }
  fs.writeFileSync(marker, 'node');
} else if (target === 'electron') {
  const current = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : 'node';
  const electronVersion = require('electron/package.json').version;
  if (current !== `electron-${electronVersion}`) {
    console.log(`native modules: rebuilding better-sqlite3 for Electron ${electronVersion}`);
    run('npx', ['--no-install', 'electron-rebuild', '--only', 'better-sqlite3', '--force']);
    fs.writeFileSync(marker, `electron-${electronVersion}`);
  }
} else {
  console.error('usage: node scripts/native-modules.mjs node|electron');
  process.exit(2);
}
