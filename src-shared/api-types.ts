// The Transcription and Dictionary API as the desktop app reads it: Static<> of the contract's schemas
// (src-shared/api/). Responses use the client views, where extension fields (and the spec's later
// additions) are optional, because the app may talk to another server implementing the same spec
// (docs/decisions/0011-one-http-contract.md).
import type { Static } from 'typebox';
import type {
  AsyncAck,
  EmotionResultView,
  SummaryResultView,
  TranslationResultView,
  TranslationTargets,
} from './api/analyses.js';
import type { ErrorBody, TranscriptionStatus } from './api/common.js';
import type {
  BlacklistWord,
  BlacklistWordCreateRequest,
  CreateDictionaryRequest,
  DictionaryListItem,
  DictionaryView,
  DictionaryViewRefs,
  UpdateDictionaryRequest,
  WordCreateRequest,
  WordView,
} from './api/dictionaries.js';
import type { TranscriptFormat } from './api/files.js';
import type { CreateSpeakerRequest, Speaker, UpdateSpeakerRequest } from './api/speakers.js';
import type {
  Review,
  TranscribeAgainRequest,
  TranscriptionView,
  UploadRequest,
  UploadTicketView,
  User,
} from './api/transcriptions.js';

export { FINAL_TRANSCRIPTION_STATUSES } from './api/common.js';

export type ApiErrorBody = ErrorBody;
export type ApiTranscriptionStatus = TranscriptionStatus;

export type ApiUser = Static<typeof User>;
/** 2.1 Transcription. */
export type ApiTranscription = Static<typeof TranscriptionView>;
/** 4.1.1 Upload request body. */
export type ApiUploadRequest = Static<typeof UploadRequest>;
export type ApiTranscribeAgainRequest = Static<typeof TranscribeAgainRequest>;
/** 2.2 Upload ticket. */
export type ApiUploadTicket = Static<typeof UploadTicketView>;

/** 2.4 WordCreateRequest. */
export type ApiWordCreate = Static<typeof WordCreateRequest>;
/** 2.4 Word. */
export type ApiWord = Static<typeof WordView>;
export type ApiBlacklistWordCreate = Static<typeof BlacklistWordCreateRequest>;
/** 2.5 Forced-replacement (blacklist) word. */
export type ApiBlacklistWord = Static<typeof BlacklistWord>;
/** 2.3 Dictionary list item. */
export type ApiDictionaryListItem = Static<typeof DictionaryListItem>;
/** 2.3 Dictionary. */
export type ApiDictionary = Static<typeof DictionaryView, DictionaryViewRefs>;
export type ApiDictionaryCreate = Static<typeof CreateDictionaryRequest>;
export type ApiDictionaryUpdate = Static<typeof UpdateDictionaryRequest>;

/** Extension: an enrolled voice of the team's voice library (decision 0065). */
export type ApiSpeaker = Static<typeof Speaker>;
export type ApiSpeakerCreate = Static<typeof CreateSpeakerRequest>;
export type ApiSpeakerUpdate = Static<typeof UpdateSpeakerRequest>;

/** 2.9 Asynchronous acknowledgment. */
export type ApiAsyncAck = Static<typeof AsyncAck>;
/** 2.6 Summary result, with kikitori-server's anchored details. */
export type ApiSummaryResult = Static<typeof SummaryResultView>;
/** 2.7 Emotion result. */
export type ApiEmotionResult = Static<typeof EmotionResultView>;
/** 2.8 Translation result. */
export type ApiTranslationResult = Static<typeof TranslationResultView>;
export type ApiTranslationTargets = Static<typeof TranslationTargets>;

/** 4.1.2 Review (revision 1.2.0). */
export type ApiReview = Static<typeof Review>;

/** Formats a transcript document can be downloaded in (`transcription_path` + `&format=`). */
export type ApiTranscriptFormat = TranscriptFormat;
