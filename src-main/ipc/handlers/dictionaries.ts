import { array, id, noPayload, oneOf, optionalStr, payload, str, wordEntry } from '../validate.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

const name = (v: unknown) => str(v, 'name', { max: 200 }).trim();
const words = (v: unknown) => array(v, 'words', wordEntry, 1, 100_000);

export function dictionaryHandlers(ctx: HandlerContext): DomainHandlers<'dictionaries'> {
  const dictionaries = () => ctx.session().dictionaries;
  return {
    'dictionaries:list': async (request) => {
      noPayload(request);
      return dictionaries().list();
    },
    'dictionaries:get': async (request) => dictionaries().get(id(payload(request, ['id']).id)),
    'dictionaries:create': async (request) => {
      const o = payload(request, ['name', 'words']);
      return dictionaries().create(name(o.name), o.words === undefined ? [] : array(o.words, 'words', wordEntry, 0, 100_000));
    },
    'dictionaries:rename': async (request) => {
      const o = payload(request, ['id', 'name']);
      return dictionaries().rename(id(o.id), name(o.name));
    },
    'dictionaries:delete': async (request) => dictionaries().delete(id(payload(request, ['id']).id)),
    'dictionaries:add-words': async (request) => {
      const o = payload(request, ['id', 'words']);
      return dictionaries().addWords(id(o.id), words(o.words));
    },
    'dictionaries:remove-word': async (request) => {
      const o = payload(request, ['id', 'wordId']);
      return dictionaries().removeWord(id(o.id), id(o.wordId, 'wordId'));
    },
    'dictionaries:add-replacements': async (request) => {
      const o = payload(request, ['id', 'replacements']);
      const replacements = array(
        o.replacements,
        'replacements',
        (v, field) => {
          const r = payload(v, ['pattern', 'replacement'], field);
          return { pattern: str(r.pattern, `${field}.pattern`, { max: 200 }).trim(), replacement: optionalStr(r.replacement, `${field}.replacement`, { min: 0, max: 200 })?.trim() ?? '' };
        },
        1,
        100_000,
      );
      return dictionaries().addReplacements(id(o.id), replacements);
    },
    'dictionaries:remove-replacement': async (request) => {
      const o = payload(request, ['id', 'replacementId']);
      return dictionaries().removeReplacement(id(o.id), id(o.replacementId, 'replacementId'));
    },
    'dictionaries:import': async (request) => {
      const o = payload(request, ['id', 'text', 'kind']);
      return dictionaries().import(id(o.id), str(o.text, 'text', { max: 5_000_000 }), oneOf(o.kind, 'kind', ['words', 'replacements'] as const));
    },
  };
}
