// The layer rules in eslint.config.js, checked on small snippets placed at paths in each layer. The
// type-aware rules are switched off here: these rules read only the import specifiers.
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });
});

/** The layer-rule problems for `code` as if it were the file at `file` (relative to the repo root). */
async function problems(file: string, code: string): Promise<Array<{ rule: string | null; message: string }>> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === null || /^no-restricted-(imports|syntax|globals|properties)$/.test(m.ruleId))
    .map((m) => ({ rule: m.ruleId, message: m.message }));
}

const cases: Array<[file: string, code: string, expected: string | null]> = [
  // src-shared imports nothing above it.
  ['src-shared/x.ts', "import { a } from './limits.js';", null],
  ['src-shared/x.ts', "import { Type } from 'typebox';", null],
  ['src-shared/x.ts', "import { a } from '../src-main/services.js';", 'no-restricted-imports'],
  ['src-shared/x.ts', "import type { A } from '../src-server/config.js';", 'no-restricted-imports'],
  ['src-shared/x.ts', "export * from '../src-renderer/lib/api.js';", 'no-restricted-imports'],
  ['src-shared/x.ts', "import fs from 'node:fs';", 'no-restricted-imports'],
  ['src-shared/x.ts', "import { join } from 'path';", 'no-restricted-imports'],
  ['src-shared/x.ts', "import { app } from 'electron';", 'no-restricted-imports'],
  ['src-shared/x.ts', 'export const width = window.innerWidth;', 'no-restricted-globals'],
  ['src-shared/x.ts', 'export const home = process.env.HOME;', 'no-restricted-globals'],
  ['src-shared/x.ts', 'export type Drop = (file: File) => void;', null],
  // The server stays separate from the desktop layers.
  ['src-server/app.ts', "import { x } from '../src-main/services.js';", 'no-restricted-imports'],
  ['src-server/app.ts', "import { x } from '../src-renderer/lib/api.js';", 'no-restricted-imports'],
  ['src-server/app.ts', "import { x } from '../src-preload/build-api.js';", 'no-restricted-imports'],
  ['src-server/app.ts', "import { app } from 'electron';", 'no-restricted-imports'],
  ['src-server/app.ts', "import fs from 'node:fs';\nimport { LIMITS } from '../src-shared/limits.js';", null],
  // Engines do not import jobs; the domain does not import engines.
  ['src-server/engines/audio/ffmpeg.ts', "import { E } from '../../jobs/job-errors.js';", 'no-restricted-imports'],
  ['src-server/engines/audio/ffmpeg.ts', "export { E } from '../../jobs/job-errors.js';", 'no-restricted-imports'],
  [
    'src-server/engines/audio/ffmpeg.ts',
    "export const load = () => import('../../jobs/job-errors.js');",
    'no-restricted-syntax',
  ],
  [
    'src-server/engines/audio/ffmpeg.ts',
    "export type E = import('../../jobs/job-errors.js').E;",
    'no-restricted-syntax',
  ],
  ['src-server/engines/audio/ffmpeg.ts', "import { EngineError } from '../../domain/engine-error.js';", null],
  ['src-server/engines/audio/ffmpeg.ts', "import { x } from '../../../src-main/services.js';", 'no-restricted-imports'],
  [
    'src-server/domain/replacements.ts',
    "import { joinWords } from '../engines/speech/word-text.js';",
    'no-restricted-imports',
  ],
  ['src-server/domain/replacements.ts', "import { app } from 'electron';", 'no-restricted-imports'],
  ['src-server/jobs/transcribe.ts', "import { x } from '../engines/speech/whisper-engine.js';", null],
  // Use cases and the domain do not depend on the HTTP layer (decision 0050).
  ['src-server/application/review.ts', "import { errors } from '../http/errors.js';", 'no-restricted-imports'],
  [
    'src-server/application/review.ts',
    "export { signedUrl } from '../http/representations.js';",
    'no-restricted-imports',
  ],
  [
    'src-server/application/review.ts',
    "export type R = import('../http/api-app.js').RouteModule;",
    'no-restricted-syntax',
  ],
  ['src-server/domain/records.ts', "import { errors } from '../http/errors.js';", 'no-restricted-imports'],
  [
    'src-server/application/review.ts',
    "import { errors } from './errors.js';\nimport { findTranscription } from './lookups.js';\nimport http from 'node:http';",
    null,
  ],
  ['src-server/http/error-handler.ts', "import { x } from '../engines/registry.js';", null],
  // Every route is an adapter: no db/, engines/, jobs/ or storage/, and only settings and the logger from the
  // context (decision 0050).
  ['src-server/http/routes/x.ts', "import { x } from '../../engines/registry.js';", 'no-restricted-imports'],
  [
    'src-server/http/routes/files/tus-upload.ts',
    "import { ObjectTooLargeError } from '../../../storage/storage.js';",
    'no-restricted-imports',
  ],
  [
    'src-server/http/routes/health/index.ts',
    "import type { X } from '../../../db/storage-usage-repository.js';",
    'no-restricted-imports',
  ],
  [
    'src-server/http/routes/openai/list-models.ts',
    'export const f = (ctx: any) => ctx.engines.speechFor("default");',
    'no-restricted-syntax',
  ],
  [
    'src-server/http/routes/health/index.ts',
    'export const f = (ctx: any) => ctx.health.report();',
    'no-restricted-syntax',
  ],
  [
    'src-server/http/routes/files/tus-upload.ts',
    'export class T { constructor(private ctx: any) {} r() { return this.ctx.storageUsage.releaseUpload("u"); } }',
    'no-restricted-syntax',
  ],
  [
    'src-server/http/routes/files/upload-audio.ts',
    "import { storeUploadedAudio } from '../../../application/signed-files.js';\nexport const f = (ctx: any) => [ctx.config.uploads.maxBytes, ctx.logger.warn('x'), storeUploadedAudio];",
    null,
  ],
  // The server's configuration is read once, by the CLI.
  [
    'src-server/engines/speech/x.ts',
    'export const model = process.env.KIKITORI_WHISPER_MODEL;',
    'no-restricted-properties',
  ],
  ['src-server/cli.ts', 'export const env = process.env;', null],
  // Main, preload and renderer never import each other's internals, nor the server.
  ['src-main/services.ts', "import { app } from 'electron';\nimport { x } from '../src-shared/ipc-contract.js';", null],
  ['src-main/services.ts', "import { x } from '../src-renderer/lib/api.js';", 'no-restricted-imports'],
  ['src-main/services.ts', "import { x } from '../src-preload/build-api.js';", 'no-restricted-imports'],
  ['src-main/services.ts', "import { buildApp } from '../src-server/app.js';", 'no-restricted-imports'],
  [
    'src-main/embedded-server/embedded-server.ts',
    "import { buildApp } from '../../src-server/app.js';",
    'no-restricted-imports',
  ],
  ['src-preload/build-api.ts', "import { x } from '../src-main/services.js';", 'no-restricted-imports'],
  ['src-preload/build-api.ts', "import { x } from '../src-renderer/lib/api.js';", 'no-restricted-imports'],
  ['src-preload/build-api.ts', "import { x } from '../src-shared/ipc-contract.js';", null],
  [
    'src-renderer/lib/api.ts',
    "import type { RendererApi } from '../../src-preload/build-api';",
    'no-restricted-imports',
  ],
  ['src-renderer/lib/api.ts', "import { x } from '../../src-main/services.js';", 'no-restricted-imports'],
  ['src-renderer/lib/api.ts', "import { x } from '../../src-server/app.js';", 'no-restricted-imports'],
  ['src-renderer/lib/api.ts', "import path from 'node:path';", 'no-restricted-imports'],
  ['src-renderer/lib/api.ts', "import path from 'path';", 'no-restricted-imports'],
  ['src-renderer/lib/api.ts', "import { ipcRenderer } from 'electron';", 'no-restricted-imports'],
  [
    'src-renderer/lib/api.ts',
    "import { create } from 'zustand';\nimport type { KikitoriApi } from '../../src-shared/ipc-contract';",
    null,
  ],
  // Raw IPC only in the typed wrappers.
  ['src-main/ipc/handlers/app.ts', "import { ipcMain } from 'electron';", 'no-restricted-imports'],
  ['src-main/ipc/typed-ipc.ts', "import { ipcMain } from 'electron';", null],
  ['src-main/ipc/typed-ipc.ts', "import { x } from '../../src-renderer/lib/api.js';", 'no-restricted-imports'],
  ['src-preload/build-api.ts', "import { ipcRenderer } from 'electron';", 'no-restricted-imports'],
  ['src-preload/preload.ts', "import { contextBridge, ipcRenderer } from 'electron';", null],
  // Tests and benches may import any layer, but not raw IPC.
  [
    'test/unit/x.test.ts',
    "import { buildApp } from '../../src-server/app.js';\nimport { x } from '../../src-main/services.js';",
    null,
  ],
  ['bench/x.ts', "import { buildApp } from '../src-server/app.js';", null],
  ['test/unit/x.test.ts', "import { ipcMain } from 'electron';", 'no-restricted-imports'],
  // test/unit holds units only: no servers, processes, PostgreSQL, S3 or synthesized speech (issue 23).
  [
    'test/unit/server/x.test.ts',
    "import { startTestServer } from '../../support/test-server.js';",
    'no-restricted-imports',
  ],
  ['test/unit/main/a/x.test.ts', "import { cli } from '../../../support/cli-process.js';", 'no-restricted-imports'],
  [
    'test/unit/server/db/x.test.ts',
    "import { startPostgres } from '../../../support/postgres.js';",
    'no-restricted-imports',
  ],
  [
    'test/unit/server/db/x.test.ts',
    "import { testDatabases } from '../../../support/test-databases.js';",
    'no-restricted-imports',
  ],
  ['test/unit/server/x.test.ts', "import { startS3 } from '../../support/s3.js';", 'no-restricted-imports'],
  [
    'test/unit/server/x.test.ts',
    "import { synthesizeSpeech } from '../../support/audio-fixtures.js';",
    'no-restricted-imports',
  ],
  [
    'test/unit/server/x.test.ts',
    "const w = '../../support/queue-worker-process.mjs';\nexport const load = () => import('../../support/test-server.js');",
    'no-restricted-syntax',
  ],
  ['test/unit/server/x.test.ts', "import { execFile } from 'node:child_process';", 'no-restricted-imports'],
  ['test/unit/server/x.test.ts', "import { spawn } from 'child_process';", 'no-restricted-imports'],
  ['test/unit/server/x.test.ts', "import pg from 'pg';", 'no-restricted-imports'],
  [
    'test/unit/main/x.test.ts',
    "import { shortSpeech } from '../../integration/main/main-test-support.js';",
    'no-restricted-imports',
  ],
  [
    'test/unit/main/x.test.ts',
    "import { tempDir } from '../../support/temp-dir.js';\nimport http from 'node:http';\nimport { until } from './main-test-support.js';",
    null,
  ],
  [
    'test/integration/server/x.test.ts',
    "import { startTestServer } from '../../support/test-server.js';\nimport { execFile } from 'node:child_process';",
    null,
  ],
];

describe('import layers', () => {
  it.each(cases)('%s: %s', async (file, code, expected) => {
    const found = await problems(file, code);
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toEqual([{ rule: expected, message: expect.any(String) }]);
  });

  it('sends heavy unit tests to test/integration', async () => {
    const [problem] = await problems(
      'test/unit/server/x.test.ts',
      "import { startTestServer } from '../../support/test-server.js';",
    );
    expect(problem?.message).toContain('test/integration');
  });

  it('says what to do instead', async () => {
    const [problem] = await problems(
      'src-server/engines/audio/ffmpeg.ts',
      "import { E } from '../../jobs/job-errors.js';",
    );
    expect(problem?.message).toContain('throw an EngineError');
  });
});
