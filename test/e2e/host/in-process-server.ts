// kikitori-server in the spec's own process (the runtime the integration tests use: HTTP, the job queue
// and its runner, storage, SQLite), with engines the spec gives: for specs about what the app shows
// around a transcription, which drive a scripted speech engine (test/support/scripted-speech-engine.ts)
// instead of waiting on real recognition. Kept apart from start-host.ts so that the host (and the
// benchmark compiled with it) does not load the test server unless a spec asks for it.
import type { EngineRegistry } from '../../../src-server/engines/engine-registry.js';
import { startTestServer } from '../../support/test-server.js';
import type { OwnServer } from './start-host.js';

export function inProcessServer(options: {
  engines: EngineRegistry;
  /** Extra environment for the server's configuration. */
  env?: Record<string, string>;
  /** Roles of the test's API key (default: DELETE), as HostOptions.keyRoles. */
  keyRoles?: readonly string[];
}): () => Promise<OwnServer> {
  return async () => {
    const server = await startTestServer({
      env: options.env,
      runtime: { engines: options.engines },
      storage: 'files',
      logLevel: 'warn',
    });
    const apiKey = await server.key('e2e', 'tester', [...(options.keyRoles ?? ['DELETE'])]);
    return { url: server.url, apiKey, stop: () => server.close() };
  };
}
