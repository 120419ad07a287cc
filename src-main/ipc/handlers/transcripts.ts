import fsp from 'node:fs/promises';
import type { ApiTranslationResult } from '../../../src-shared/api-types.js';
import type { ExportOptions } from '../../../src-shared/ipc-contract.js';
import type { CueTranslation } from '../../../src-shared/subtitle-cues.js';
import { AppFailure } from '../../app-failure.js';
import { SPEAKER_WORD, withSpeakerNames } from '../../../src-shared/speaker-names.js';
import { revisionChanges } from '../../edits/revision-changes.js';
import { EXPORT_FILTERS, exportFileName, exportTranscript } from '../../export/transcript-export.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function transcriptHandlers(ctx: HandlerContext): DomainHandlers<'transcripts'> {
  return {
    'transcripts:list': async ({ filter, offset, limit }) =>
      ctx.session().transcripts.list({ filter: filter ?? {}, offset: offset ?? 0, limit: limit ?? 100 }),
    'transcripts:get': async ({ id }) => {
      const detail = await ctx.session().transcripts.detail(id);
      return detail.document ? ctx.session().edits.detail(id) : detail;
    },
    'transcripts:delete': async ({ id }) => ctx.session().transcripts.delete(id),
    'transcripts:edit': async ({ id, segments }) => ctx.session().edits.edit(id, segments),
    'transcripts:edit-document': async ({ id, operation }) => ctx.session().edits.apply(id, [operation]),
    'transcripts:undo': async ({ id }) => ctx.session().edits.undo(id),
    'transcripts:redo': async ({ id }) => ctx.session().edits.redo(id),
    // A revision like any edit (decision 0055); naming a speaker by its own label gives the label back.
    'transcripts:rename-speaker': async ({ id, speaker, name }) =>
      ctx.session().edits.apply(id, [{ kind: 'speaker-name', speaker, name: name.trim() === speaker ? null : name }]),
    // An undoable edit like any other: its revision joins the edit history.
    'transcripts:apply-dictionary': async ({ id, dictionaryId }) =>
      ctx.session().edits.applyDictionary(id, dictionaryId),
    'transcripts:resolve-conflict': async ({ id, keep }) => ctx.session().edits.resolveConflict(id, keep),
    'transcripts:settle-conflict': async ({ id, segments }) => ctx.session().edits.settleConflict(id, segments),
    'transcripts:revisions': async ({ id }) => ctx.session().edits.revisions(id),
    'transcripts:restore-revision': async ({ id, revision }) => ctx.session().edits.restore(id, revision),
    'transcripts:revision-changes': async ({ id, revision }) => revisionChanges(ctx.session().client, id, revision),
    'transcripts:export': async ({ id, options }) => {
      const { record, document: shown, speakerNames } = await ctx.session().transcripts.shownDocument(id);
      // Exports name every speaker as the view does: the user's name, or "Speaker N".
      const document = withSpeakerNames(shown, speakerNames, SPEAKER_WORD[ctx.settings.settings().uiLanguage]);
      const translation = subtitleTranslation(ctx, id, options);
      const target = await ctx.dialogs.saveFile(exportFileName(record.name, options.format), [
        EXPORT_FILTERS[options.format],
      ]);
      if (!target) return null;
      const { data, subtitles } = await exportTranscript(document, options, record.name, translation);
      // Whole or not at all: written beside the target, then renamed over it, so a crash or a full disk
      // never leaves half an export where the user looks for it (nor a reader seeing it half written).
      const partial = `${target}.${process.pid}.partial`;
      try {
        await fsp.writeFile(partial, data);
        await fsp.rename(partial, target);
      } finally {
        await fsp.rm(partial, { force: true });
      }
      return subtitles ? { path: target, subtitles } : { path: target };
    },
    'transcripts:refresh': async () => ctx.session().sync.refreshNow(),
    'transcripts:follow': async ({ id, editing }) => {
      const session = ctx.session();
      // Only a transcription main has: a page cannot make main ask the server about ids of its choosing.
      if (id !== null && !session.store.transcriptions.get(id))
        throw new AppFailure({ code: 'not-found', reason: 'transcription-not-cached' });
      session.follower.follow(id === null ? null : { id, editing });
    },
    'transcripts:rerun-plan': async ({ id }) => ctx.session().reruns.plan(id),
    'transcripts:rerun': async ({ id, options, file }) => {
      const path = file === undefined ? undefined : ctx.files.take(file, 'file', 'file');
      return ctx.session().reruns.rerun(id, { options, path });
    },
  };
}

/** The cached, finished translation that dual-language subtitles asked for; refused when there is none. */
function subtitleTranslation(ctx: HandlerContext, id: string, options: ExportOptions): CueTranslation | null {
  const language = options.subtitles?.translation;
  if (!language || (options.format !== 'srt' && options.format !== 'vtt')) return null;
  const cached = ctx.session().store.analyses.get(id, 'translation', language);
  if (!cached || cached.status !== 'COMPLETED') {
    throw new AppFailure({
      code: 'not-found',
      field: 'translation',
      reason: 'translation-not-cached',
      // A code: the renderer names the language in the UI's language.
      params: { language },
    });
  }
  const result = cached.result as ApiTranslationResult;
  return { language: result.language ?? language, segments: result.segments ?? [] };
}
