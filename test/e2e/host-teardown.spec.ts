// The test host answers every request it has taken before main's services stop under it. A page closed
// mid-request (as Playwright closes one after each test) leaves that request's handler running; stopping
// the services then closed the cache database the handler was about to use.
import { expect, test } from '@playwright/test';
import { ScriptedSpeechEngine, scriptedEngineRegistry } from '../support/scripted-speech-engine.js';
import { startHost } from './e2e-support.js';
import { inProcessServer } from './host/in-process-server.js';

test('requests still being handled when the host closes are answered, not cut off by the closing cache', async () => {
  const host = await startHost({
    server: inProcessServer({ engines: scriptedEngineRegistry(new ScriptedSpeechEngine()) }),
  });
  // Each one asks the server, then records what the answer says about the connection in the cache.
  const calls = Array.from({ length: 8 }, () => host.invoke('languages:serving'));
  await host.close();
  const results = await Promise.all(calls);
  expect(host.unexpectedErrors).toEqual([]);
  for (const result of results) expect(result).toMatchObject({ ok: true, value: { default: { engine: 'scripted' } } });
});
