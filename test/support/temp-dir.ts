import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh empty directory under the OS temp dir (the caller removes it when it cares). */
export function tempDir(prefix = 'kikitori-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
