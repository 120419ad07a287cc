import fsp from 'node:fs/promises';
import type { TranscriptionStatus } from '../../../src-shared/ipc-contract.js';
import { EXPORT_FILTERS, exportFileName, exportTranscript } from '../../export/transcript-export.js';
import { array, bool, id, int, languageCode, noPayload, oneOf, payload, str } from '../validate.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

const STATUSES: readonly TranscriptionStatus[] = ['IN_PROGRESS', 'CONVERTING', 'COMPLETED', 'FAILED', 'CANCELLED'];

export function transcriptHandlers(ctx: HandlerContext): DomainHandlers<'transcripts'> {
  return {
    'transcripts:list': async (request) => {
      const o = request === undefined ? {} : payload(request, ['filter', 'offset', 'limit']);
      const f = o.filter === undefined ? {} : payload(o.filter, ['status', 'language', 'text'], 'filter');
      return ctx.session().transcripts.list({
        filter: {
          ...(f.status !== undefined ? { status: array(f.status, 'filter.status', (v, field) => oneOf(v, field, STATUSES), 0, 5) } : {}),
          ...(f.language !== undefined ? { language: languageCode(f.language, 'filter.language') } : {}),
          ...(f.text !== undefined ? { text: str(f.text, 'filter.text', { min: 0, max: 500 }) } : {}),
        },
        offset: o.offset === undefined ? 0 : int(o.offset, 'offset', 0, 1_000_000_000),
        limit: o.limit === undefined ? 100 : int(o.limit, 'limit', 1, 1000),
      });
    },
    'transcripts:get': async (request) => ctx.session().transcripts.detail(id(payload(request, ['id']).id)),
    'transcripts:delete': async (request) => ctx.session().transcripts.delete(id(payload(request, ['id']).id)),
    'transcripts:edit': async (request) => {
      const o = payload(request, ['id', 'segments']);
      const segments = array(
        o.segments,
        'segments',
        (v, field) => {
          const s = payload(v, ['id', 'text'], field);
          return { id: int(s.id, `${field}.id`, 0, 10_000_000), text: str(s.text, `${field}.text`, { min: 0, max: 100_000 }) };
        },
        1,
        100_000,
      );
      return ctx.session().edits.edit(id(o.id), segments);
    },
    'transcripts:rename-speaker': async (request) => {
      const o = payload(request, ['id', 'speaker', 'name']);
      return ctx.session().transcripts.renameSpeaker(id(o.id), str(o.speaker, 'speaker', { max: 200 }), str(o.name, 'name', { min: 0, max: 100 }));
    },
    'transcripts:resolve-conflict': async (request) => {
      const o = payload(request, ['id', 'keep']);
      return ctx.session().edits.resolveConflict(id(o.id), oneOf(o.keep, 'keep', ['local', 'server'] as const));
    },
    'transcripts:export': async (request) => {
      const o = payload(request, ['id', 'options']);
      const opts = payload(o.options, ['format', 'speakers', 'timestamps'], 'options');
      const options = {
        format: oneOf(opts.format, 'options.format', ['txt', 'srt', 'vtt', 'json', 'docx'] as const),
        speakers: bool(opts.speakers, 'options.speakers'),
        timestamps: bool(opts.timestamps, 'options.timestamps'),
      };
      const { record, document } = await ctx.session().transcripts.shownDocument(id(o.id));
      const target = await ctx.dialogs.saveFile(exportFileName(record.name, options.format), [EXPORT_FILTERS[options.format]]);
      if (!target) return null;
      const { data } = await exportTranscript(document, options, record.name);
      await fsp.writeFile(target, data);
      return { path: target };
    },
    'transcripts:refresh': async (request) => {
      noPayload(request);
      return ctx.session().sync.refreshNow();
    },
  };
}
