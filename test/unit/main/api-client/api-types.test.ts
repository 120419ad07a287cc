// The client's types are Static<> of the contract's client views: what kikitori-server always sends but
// another server implementing the spec may not is optional (docs/decisions/0011-one-http-contract.md).
// Checked by the type-check (npm run typecheck); the runtime part checks the views leave the server's
// schemas as they are.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Dictionary, DictionaryView } from '../../../../src-shared/api/dictionaries.js';
import { Transcription, TranscriptionView } from '../../../../src-shared/api/transcriptions.js';
import type {
  ApiDictionary,
  ApiEmotionResult,
  ApiTranscription,
  ApiTranscriptionStatus,
} from '../../../../src-shared/api-types.js';

describe('client views of the contract', () => {
  it('type the spec fields as required and the extensions as optional', () => {
    expectTypeOf<ApiTranscription['transcription_id']>().toEqualTypeOf<string>();
    expectTypeOf<ApiTranscription['status']>().toEqualTypeOf<ApiTranscriptionStatus>();
    expectTypeOf<ApiTranscription['progress']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<ApiTranscription['user']>().toEqualTypeOf<{ user_id: string; name: string } | undefined>();
    expectTypeOf<ApiDictionary['words'][number]['word']>().toEqualTypeOf<string>();
    expectTypeOf<ApiDictionary['words'][number]['reading']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ApiEmotionResult['engine']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ApiEmotionResult['emotions'][number]['label']>().toEqualTypeOf<
      'anger' | 'disgust' | 'fear' | 'joy' | 'neutral' | 'sadness' | 'surprise'
    >();
  });

  it('leave the server schemas requiring every field they send', () => {
    expect(Transcription.required).toContain('progress');
    expect(Transcription.required).toContain('user');
    expect(TranscriptionView.required).not.toContain('progress');
    expect(TranscriptionView.required).toContain('transcription_id');
    expect(Dictionary.required).toContain('blacklist_words');
    expect(DictionaryView.required).not.toContain('blacklist_words');
  });
});
