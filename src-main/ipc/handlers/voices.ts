import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function voiceHandlers(ctx: HandlerContext): DomainHandlers<'voices'> {
  const voices = () => ctx.session().voices;
  return {
    'voices:list': async () => voices().list(),
    'voices:identify': async ({ id, speaker, voice }) => voices().identify(id, speaker, voice),
    'voices:rename': async ({ id, name }) => voices().rename(id, name),
    'voices:delete': async ({ id }) => voices().delete(id),
    'voices:samples': async ({ id }) => voices().samples(id),
    'voices:remove-sample': async ({ id, sampleId }) => voices().removeSample(id, sampleId),
  };
}
