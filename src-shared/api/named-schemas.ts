// The schemas with an $id. The server registers them once, so operations refer to them with
// Type.Ref(name) and the OpenAPI document lists them under components.schemas.
import { ErrorBody } from './common.js';
import { BlacklistWord, Dictionary, DictionaryListItem, Word } from './dictionaries.js';
import { OpenAiErrorBody } from './openai.js';
import { Speaker } from './speakers.js';
import { Transcription } from './transcriptions.js';

export const sharedSchemas = [
  ErrorBody,
  Transcription,
  Word,
  BlacklistWord,
  Dictionary,
  DictionaryListItem,
  OpenAiErrorBody,
  Speaker,
];
