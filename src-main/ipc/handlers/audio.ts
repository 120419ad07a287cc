import { IpcFailure } from '../handler-registry.js';
import { id, payload } from '../validate.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function audioHandlers(ctx: HandlerContext): DomainHandlers<'audio'> {
  return {
    'audio:peaks': async (request) => {
      const transcriptionId = id(payload(request, ['id']).id);
      const session = ctx.session();
      const file = await session.transcripts.ensureLocalAudio(transcriptionId, session.signal);
      try {
        return await session.peaks.get(transcriptionId, file, session.signal);
      } catch (error) {
        if ((error as Error).name === 'AbortError') throw new IpcFailure({ code: 'cancelled', message: 'The waveform computation was cancelled.' });
        throw new IpcFailure({ code: 'unsupported', message: `The waveform cannot be drawn: ${(error as Error).message}` });
      }
    },
    'audio:source': async (request) => ctx.session().transcripts.audioSource(id(payload(request, ['id']).id)),
  };
}
