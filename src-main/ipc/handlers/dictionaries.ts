import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function dictionaryHandlers(ctx: HandlerContext): DomainHandlers<'dictionaries'> {
  const dictionaries = () => ctx.session().dictionaries;
  return {
    'dictionaries:list': async () => dictionaries().list(),
    'dictionaries:get': async ({ id }) => dictionaries().get(id),
    'dictionaries:create': async ({ name, words }) => dictionaries().create(name, words ?? []),
    'dictionaries:rename': async ({ id, name }) => dictionaries().rename(id, name),
    'dictionaries:delete': async ({ id }) => dictionaries().delete(id),
    'dictionaries:add-words': async ({ id, words }) => dictionaries().addWords(id, words),
    'dictionaries:remove-word': async ({ id, wordId }) => dictionaries().removeWord(id, wordId),
    'dictionaries:add-replacement-rules': async ({ id, replacementRules }) =>
      dictionaries().addReplacementRules(id, replacementRules),
    'dictionaries:remove-replacement-rule': async ({ id, replacementRuleId }) =>
      dictionaries().removeReplacementRule(id, replacementRuleId),
    'dictionaries:import': async ({ id, text, kind, skipBadLines }) =>
      dictionaries().import(id, text, kind, skipBadLines ?? false),
  };
}
