import type { UiLanguage } from '../../../src-shared/ipc-contract.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

/** The first word of a new recording's file name, which becomes the transcription's name. */
const RECORDING_WORD: Record<UiLanguage, string> = { en: 'Recording', ja: '録音' };

export function recordingHandlers(ctx: HandlerContext): DomainHandlers<'recordings'> {
  return {
    'recordings:start': async ({ mimeType, live }) =>
      ctx.session().recordings.start(mimeType, RECORDING_WORD[ctx.settings.settings().uiLanguage], live),
    'recordings:append': async ({ id, offset, data }) =>
      ctx.session().recordings.append(id, offset, Buffer.from(data, 'base64')),
    'recordings:live-audio': async ({ id, data }) =>
      ctx.session().recordings.liveAudio(id, Buffer.from(data, 'base64')),
    'recordings:finish': async ({ id, options }) => ctx.session().recordings.finish(id, options),
    'recordings:list': async () => ctx.session().recordings.list(),
    'recordings:discard': async ({ id }) => ctx.session().recordings.discard(id),
  };
}
