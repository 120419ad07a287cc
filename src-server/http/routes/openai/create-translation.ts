// POST /v1/audio/translations: OpenAI's speech-to-English operation. The same form, upload, engines and
// answers as /v1/audio/transcriptions (registerAudioOperation), with the engine's translate task;
// engines that cannot translate are refused with a 400 naming the model or setting that can.
import type { RouteModule } from '../../api-app.js';
import { registerAudioOperation } from './create-transcription.js';

export const createTranslation: RouteModule = (app, ctx) =>
  registerAudioOperation(app, ctx, {
    url: '/v1/audio/translations',
    task: 'translate',
    summary: 'Translate the speech of an audio file into English text (OpenAI-compatible, synchronous)',
    description:
      'multipart/form-data as OpenAI\'s API: file (required), model ("whisper-1" = the default engine, or an engine name; the engine ' +
      'must translate: whisper with a multilingual model does), prompt, response_format (json, text, srt, vtt, verbose_json). ' +
      'The spoken language is detected. Errors use OpenAI\'s error body; an engine that cannot translate answers 400 with param "model".',
  });
