// Section 4.2: dictionaries, their words and their forced-replacement (blacklist) words.
import { Type, type TSchema } from 'typebox';
import { LIMITS } from '../limits.js';
import { clientView, DateTime, EmptyBody, errorResponses, NonBlank, NullableString, PageQuery } from './common.js';

const tags = ['dictionaries'];

/** 2.4 Word. */
export const Word = Type.Object(
  {
    word_id: Type.String(),
    dictionary_id: Type.String(),
    word: Type.String(),
    reading: NullableString,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Word', title: 'Word' },
);
/** The spec calls the reading optional: another server may leave it out. */
export const WordView = clientView(Word, ['reading']);

/** 2.5 Forced-replacement (blacklist) word. */
export const BlacklistWord = Type.Object(
  {
    blacklist_word_id: Type.String(),
    dictionary_id: Type.String(),
    pattern: Type.String(),
    replacement: Type.String(),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'BlacklistWord', title: 'BlacklistWord' },
);

/** 2.3 Dictionary, with its words. */
export const Dictionary = Type.Object(
  {
    dictionary_id: Type.String(),
    team_id: Type.String(),
    name: Type.String(),
    words: Type.Array(Type.Ref('Word')),
    blacklist_words: Type.Array(Type.Ref('BlacklistWord'), { description: 'Extension: the forced-replacement words.' }),
    is_temporary: Type.Boolean(),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Dictionary', title: 'Dictionary' },
);
/** The spec has no operation listing blacklist words; other servers need not send them. */
export const DictionaryView = clientView(Dictionary, ['blacklist_words']);
/** What the Refs inside a Dictionary stand for, for Static<typeof DictionaryView, DictionaryViewRefs>. */
export type DictionaryViewRefs = { Word: typeof WordView; BlacklistWord: typeof BlacklistWord };

/** 2.3 Dictionary list item: only the spec's five fields. */
export const DictionaryListItem = Type.Object(
  {
    dictionary_id: Type.String(),
    team_id: Type.String(),
    name: Type.String(),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'DictionaryListItem', title: 'DictionaryListItem' },
);

/** 2.4 WordCreateRequest. */
export const WordCreateRequest = Type.Object(
  {
    word: NonBlank(LIMITS.word),
    reading: Type.Optional(
      Type.String({ maxLength: LIMITS.reading, description: 'Phonetic respelling ("zin tricks") or kana.' }),
    ),
  },
  { additionalProperties: false },
);

export const BlacklistWordCreateRequest = Type.Object(
  {
    pattern: NonBlank(LIMITS.pattern, 'Words to rewrite; matched whole-word and case-insensitively.'),
    replacement: Type.String({ maxLength: LIMITS.replacement }),
  },
  { additionalProperties: false },
);

const DictionaryName = NonBlank(LIMITS.name);

export const CreateDictionaryRequest = Type.Object(
  {
    name: DictionaryName,
    words: Type.Optional(Type.Array(WordCreateRequest, { maxItems: LIMITS.bulkItems })),
    is_temporary: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const UpdateDictionaryRequest = Type.Object(
  { name: Type.Optional(DictionaryName), is_temporary: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const DictionaryParams = Type.Object({ dictionary_id: Type.String() });

// ---------- operations ----------

export const listDictionaries = {
  method: 'GET',
  path: '/api/v1/dictionaries',
  schema: {
    summary: 'List the team’s dictionaries, newest first',
    tags,
    querystring: PageQuery,
    response: { 200: Type.Array(Type.Ref('DictionaryListItem')), ...errorResponses(400, 401) },
  },
} as const;

export const createDictionary = {
  method: 'POST',
  path: '/api/v1/dictionaries',
  schema: {
    summary: 'Create a dictionary, optionally with words',
    tags,
    body: CreateDictionaryRequest,
    response: { 200: Type.Ref('Dictionary'), ...errorResponses(400, 401) },
  },
} as const;

export const getDictionary = {
  method: 'GET',
  path: '/api/v1/dictionaries/:dictionary_id',
  schema: {
    summary: 'Get a dictionary with its words and blacklist words',
    tags,
    params: DictionaryParams,
    response: { 200: Type.Ref('Dictionary'), ...errorResponses(401, 404) },
  },
} as const;

export const updateDictionary = {
  method: 'PATCH',
  path: '/api/v1/dictionaries/:dictionary_id',
  schema: {
    summary: 'Rename a dictionary or change is_temporary',
    tags,
    params: DictionaryParams,
    body: UpdateDictionaryRequest,
    response: { 200: Type.Ref('Dictionary'), ...errorResponses(400, 401, 404) },
  },
} as const;

export const deleteDictionary = {
  method: 'DELETE',
  path: '/api/v1/dictionaries/:dictionary_id',
  schema: {
    summary: 'Delete a dictionary with its words and blacklist words (empty body)',
    tags,
    params: DictionaryParams,
    response: { 200: EmptyBody, ...errorResponses(401, 404) },
  },
} as const;

/**
 * Words and blacklist words are both entries of a dictionary with the same four operations (add, bulk
 * add, get, delete); this declares them from one description per kind.
 */
function entryOperations<Input extends TSchema, Segment extends string, IdParam extends string>(kind: {
  /** Path segment: "words" or "blacklist_words". */
  segment: Segment;
  idParam: IdParam;
  label: string;
  input: Input;
  responseRef: string;
  /** Error statuses of the two add operations: 409 where the dictionary holds a limited number. */
  addErrors: readonly number[];
}) {
  const base = `/api/v1/dictionaries/:dictionary_id/${kind.segment}` as const;
  const itemParams = Type.Object({ dictionary_id: Type.String(), [kind.idParam]: Type.String() });
  const entry = Type.Ref(kind.responseRef);
  return {
    idParam: kind.idParam,
    create: {
      method: 'POST',
      path: base,
      schema: {
        summary: `Add a ${kind.label}`,
        tags,
        params: DictionaryParams,
        body: kind.input,
        response: { 200: entry, ...errorResponses(...kind.addErrors) },
      },
    },
    bulkCreate: {
      method: 'POST',
      path: `${base}/bulk`,
      schema: {
        summary: `Add many ${kind.label}s at once (all or nothing)`,
        tags,
        params: DictionaryParams,
        body: Type.Array(kind.input, { minItems: 1, maxItems: LIMITS.bulkItems }),
        response: { 200: Type.Array(entry), ...errorResponses(...kind.addErrors) },
      },
    },
    get: {
      method: 'GET',
      path: `${base}/:${kind.idParam}`,
      schema: {
        summary: `Get a ${kind.label}`,
        tags,
        params: itemParams,
        response: { 200: entry, ...errorResponses(401, 404) },
      },
    },
    remove: {
      method: 'DELETE',
      path: `${base}/:${kind.idParam}`,
      schema: {
        summary: `Delete a ${kind.label} (empty body)`,
        tags,
        params: itemParams,
        response: { 200: EmptyBody, ...errorResponses(401, 404) },
      },
    },
  } as const;
}

export const wordOperations = entryOperations({
  segment: 'words',
  idParam: 'word_id',
  label: 'word',
  input: WordCreateRequest,
  responseRef: 'Word',
  addErrors: [400, 401, 404],
});

export const blacklistWordOperations = entryOperations({
  segment: 'blacklist_words',
  idParam: 'blacklist_word_id',
  label: 'blacklist (forced-replacement) word',
  input: BlacklistWordCreateRequest,
  responseRef: 'BlacklistWord',
  // 409 TOO_MANY_BLACKLIST_WORDS: LIMITS.replacementRulesPerDictionary.
  addErrors: [400, 401, 404, 409],
});

/** The operations of one entry kind, for the server's one set of entry handlers. */
export type EntryOperations<Input extends TSchema> = ReturnType<typeof entryOperations<Input, string, string>>;
