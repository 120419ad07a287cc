// Helpers for the main-process integration tests: short real speech, transcriptions on a real server, and
// the light helpers of the unit tier (re-exported, so a test imports one module).
import { ApiClient } from '../../../src-main/api-client/api-client.js';
import type { CacheStore } from '../../../src-main/cache/cache-store.js';
import { EditService } from '../../../src-main/edits/edit-service.js';
import type { NotificationEvent } from '../../../src-main/notifications.js';
import { TranscriptService } from '../../../src-main/transcripts/transcript-service.js';
import { synthesizeSpeech, toWav16k } from '../../support/audio-fixtures.js';
import { uploadFile, waitForStatus, type TestServer } from '../../support/test-server.js';

export * from '../../unit/main/main-test-support.js';

/** About two seconds of clear speech as a 16 kHz WAV (cached across runs). */
export async function shortSpeech(): Promise<string> {
  return toWav16k(await synthesizeSpeech('the budget meeting is on friday'));
}

/** A completed transcription on `server`: uploaded, transcribed, waited for. */
export async function completedTranscription(server: TestServer, key: string, file: string): Promise<string> {
  const ticket = await uploadFile(server, key, file);
  const started = await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
  if (started.status !== 200) throw new Error(`transcribe failed: ${started.text}`);
  const done = await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED']);
  if (done.json.status !== 'COMPLETED')
    throw new Error(`transcription ${done.json.status}: ${done.json.failure_reason}`);
  return ticket.transcription_id;
}

/** Tiny deterministic analysis engines, so analyses complete in tests whatever the server configures. */
export async function testAnalysisEngines() {
  const { AnalysisEngineRegistry } = await import('../../../src-server/engines/analysis/analysis-registry.js');
  const neutral = { anger: 0, disgust: 0, fear: 0, joy: 0, neutral: 1, sadness: 0, surprise: 0 };
  return new AnalysisEngineRegistry(
    [
      {
        name: 'test-summary',
        languages: 'any',
        async summarize({ document }) {
          const first = document.segments[0];
          const point = first
            ? [{ segment_id: first.id, start: first.start, end: first.end, text: `Discussed ${first.text}` }]
            : [];
          return {
            summarizedText: `Overview: ${document.text}`,
            details: {
              overview: `Overview of the talk about ${first?.text ?? 'nothing'}`,
              key_points: point,
              action_items: [],
              decisions: [],
              dates: [],
            },
          };
        },
      },
    ],
    [
      {
        name: 'test-emotion',
        languages: 'any',
        async analyze({ document }) {
          return [
            ...document.segments.map((s) => ({
              segment_id: s.id,
              start: s.start,
              end: s.end,
              speaker: s.speaker,
              label: 'neutral' as const,
              score: 1,
              scores: neutral,
            })),
            {
              segment_id: null,
              start: 0,
              end: document.duration,
              speaker: null,
              label: 'neutral' as const,
              score: 1,
              scores: neutral,
            },
          ];
        },
      },
    ],
    [
      {
        name: 'test-translation',
        offline: true,
        targets: () => 'any',
        async translate({ document }, target) {
          const segments = document.segments.map((s) => ({
            segment_id: s.id,
            start: s.start,
            end: s.end,
            text: `[${target}] ${s.text} presupuesto`,
          }));
          return { translatedText: segments.map((s) => s.text).join(' '), segments };
        },
      },
    ],
  );
}

/**
 * One computer's editing side, as the profile session wires it: a client (no retries) of the server the
 * connection names when each request is made, and the transcripts and the edits over `store`.
 */
export function editingServices(options: {
  connection: () => { baseUrl: string; apiKey: string };
  store: CacheStore;
  audioDir: string;
  notify: (event: NotificationEvent) => void;
}) {
  const { store } = options;
  const client = new ApiClient({ connection: options.connection, retry: { retries: 0 } });
  const transcripts = new TranscriptService({ store, client, audioDir: options.audioDir, onChanged: () => {} });
  const edits = new EditService({ store, client, transcripts, notify: options.notify, onChanged: () => {} });
  return { client, transcripts, edits };
}
