import type { UploadOptions } from '../../../src-shared/ipc-contract.js';
import { array, id, invalid, languageCode, noPayload, nullableInt, oneOf, payload, str, wordEntry } from '../validate.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

const OPTION_KEYS = ['language', 'model', 'numSpeakers', 'minSpeakers', 'maxSpeakers', 'dictionaryId', 'words'] as const;

export function uploadOptions(value: unknown): UploadOptions {
  const o = payload(value, OPTION_KEYS, 'options');
  for (const key of OPTION_KEYS) if (o[key] === undefined) invalid(`options.${key}`, `Missing field "${key}".`);
  const options: UploadOptions = {
    language: o.language === null ? null : languageCode(o.language, 'language'),
    model: oneOf(o.model, 'model', ['default', 'diarization-high'] as const),
    numSpeakers: nullableInt(o.numSpeakers, 'numSpeakers', 1, 99),
    minSpeakers: nullableInt(o.minSpeakers, 'minSpeakers', 1, 99),
    maxSpeakers: nullableInt(o.maxSpeakers, 'maxSpeakers', 1, 99),
    dictionaryId: o.dictionaryId === null ? null : id(o.dictionaryId, 'dictionaryId'),
    words: array(o.words, 'words', wordEntry, 0, 1000),
  };
  const { numSpeakers: n, minSpeakers: min, maxSpeakers: max } = options;
  if (min !== null && max !== null && min > max) invalid('minSpeakers', 'The minimum number of speakers is above the maximum.');
  if (n !== null && ((min !== null && n < min) || (max !== null && n > max))) invalid('numSpeakers', 'The number of speakers must lie between the minimum and the maximum.');
  // The server makes a temporary dictionary of ad-hoc words in place of the chosen one.
  if (options.dictionaryId && options.words.length > 0) invalid('words', 'Choose a dictionary or add words for this upload, not both.');
  return options;
}

export function uploadHandlers(ctx: HandlerContext): DomainHandlers<'uploads'> {
  return {
    'uploads:pick': async (request) => {
      noPayload(request);
      return ctx.dialogs.openAudioFiles();
    },
    'uploads:add': async (request) => {
      const o = payload(request, ['paths', 'options']);
      const paths = array(o.paths, 'paths', (v, field) => str(v, field, { max: 4096 }), 1, 500);
      return ctx.session().uploads.add(paths, uploadOptions(o.options));
    },
    'uploads:list': async (request) => {
      noPayload(request);
      return ctx.session().uploads.list();
    },
    'uploads:cancel': async (request) => ctx.session().uploads.cancel(id(payload(request, ['id']).id)),
  };
}
