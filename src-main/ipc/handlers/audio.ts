import { AppFailure } from '../../app-failure.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function audioHandlers(ctx: HandlerContext): DomainHandlers<'audio'> {
  return {
    'audio:peaks': async ({ id }) => {
      const session = ctx.session();
      const file = await session.transcripts.ensureLocalAudio(id, session.signal);
      try {
        return await session.peaks.get(id, file, session.signal);
      } catch (error) {
        if (session.signal.aborted)
          throw new AppFailure({ code: 'cancelled', reason: 'waveform-cancelled' }, { cause: error });
        throw new AppFailure(
          { code: 'unsupported', reason: 'waveform-failed', detail: (error as Error).message },
          { cause: error },
        );
      }
    },
    'audio:source': async ({ id }) => ctx.session().transcripts.audioSource(id),
  };
}
