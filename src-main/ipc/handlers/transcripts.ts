import fsp from 'node:fs/promises';
import { SPEAKER_WORD, withSpeakerNames } from '../../../src-shared/speaker-names.js';
import { EXPORT_FILTERS, exportFileName, exportTranscript } from '../../export/transcript-export.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function transcriptHandlers(ctx: HandlerContext): DomainHandlers<'transcripts'> {
  return {
    'transcripts:list': async ({ filter, offset, limit }) => ctx.session().transcripts.list({ filter: filter ?? {}, offset: offset ?? 0, limit: limit ?? 100 }),
    'transcripts:get': async ({ id }) => ctx.session().transcripts.detail(id),
    'transcripts:delete': async ({ id }) => ctx.session().transcripts.delete(id),
    'transcripts:edit': async ({ id, segments }) => ctx.session().edits.edit(id, segments),
    'transcripts:rename-speaker': async ({ id, speaker, name }) => ctx.session().transcripts.renameSpeaker(id, speaker, name),
    'transcripts:apply-dictionary': async ({ id, dictionaryId }) => ctx.session().transcripts.applyDictionary(id, dictionaryId),
    'transcripts:resolve-conflict': async ({ id, keep }) => ctx.session().edits.resolveConflict(id, keep),
    'transcripts:export': async ({ id, options }) => {
      const { record, document: shown, speakerNames } = await ctx.session().transcripts.shownDocument(id);
      // Exports name every speaker as the view does: the user's name, or "Speaker N".
      const document = withSpeakerNames(shown, speakerNames, SPEAKER_WORD[ctx.settings.settings().uiLanguage]);
      const target = await ctx.dialogs.saveFile(exportFileName(record.name, options.format), [EXPORT_FILTERS[options.format]]);
      if (!target) return null;
      const { data } = await exportTranscript(document, options, record.name);
      await fsp.writeFile(target, data);
      return { path: target };
    },
    'transcripts:refresh': async () => ctx.session().sync.refreshNow(),
    'transcripts:rerun-plan': async ({ id }) => ctx.session().reruns.plan(id),
    'transcripts:rerun': async ({ id, options, path }) => ctx.session().reruns.rerun(id, { options, path }),
  };
}
