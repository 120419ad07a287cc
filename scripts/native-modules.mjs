// better-sqlite3 is the one native module built against a specific runtime ABI (the others use N-API).
// npm builds it for Node (tests, `npm run serve`); the desktop app needs it built for Electron.
// `node scripts/native-modules.mjs node|electron` rebuilds it only when it is built for the other one.
// Under npm scripts `node` is the Node 24 that the `node` dev dependency ships (docs/decisions/0023):
// it is rebuilt against that Node's own headers, found beside its binary, so nothing is downloaded.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const marker = path.join(root, 'node_modules/better-sqlite3/build/Release/.kikitori-runtime');
const target = process.argv[2];
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: 'inherit' });

/** Asked of a fresh process: a module that failed to load once stays failed in this one. */
function loadsUnderNode() {
  try {
    execFileSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The directory holding include/node/ for the running Node, or null (node-gyp then uses npm's nodedir). */
function headersOfThisNode() {
  const candidates = [
    path.resolve(path.dirname(process.execPath), '..'),
    path.join(root, 'node_modules/node/node_modules', `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`),
  ];
  const [major, minor, patch] = process.versions.node.split('.');
  return (
    candidates.find((dir) => {
      try {
        const header = fs.readFileSync(path.join(dir, 'include/node/node_version.h'), 'utf8');
        const define = (name) => header.match(new RegExp(`#define ${name} (\\d+)`))?.[1];
        return define('NODE_MAJOR_VERSION') === major && define('NODE_MINOR_VERSION') === minor && define('NODE_PATCH_VERSION') === patch;
      } catch {
        return false;
      }
    }) ?? null
  );
}

if (target === 'node') {
  if (!loadsUnderNode()) {
    const nodedir = headersOfThisNode();
    console.log(`native modules: rebuilding better-sqlite3 for Node ${process.version}${nodedir ? ` (headers in ${nodedir})` : ''}`);
    run('npm', ['rebuild', 'better-sqlite3', ...(nodedir ? [`--nodedir=${nodedir}`] : [])]);
    if (!loadsUnderNode()) {
      console.error(`native modules: better-sqlite3 still does not load under Node ${process.version}`);
      process.exit(1);
    }
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
