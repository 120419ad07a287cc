// What each IPC channel accepts, as TypeBox schemas: the one declaration the request types derive from
// (Static<>) and main validates against (src-main/ipc/request-validator.ts) before any handler runs.
// Normalisation (trimmed names and words, lower-case language codes) is a decode step on the schema,
// so it happens once, after validation. Cross-field rules a schema cannot say live beside the
// validator. Kept apart from ipc-contract.ts so the preload and the renderer, which need only types,
// do not bundle TypeBox.
import { Type, type Static, type StaticDecode, type TEnum, type TSchema } from 'typebox';
import { LIMITS } from '../limits.js';
import { REVISION_LIMITS } from '../api/revisions.js';
import { SUBTITLE_LIMITS } from '../subtitle-cues.js';
import {
  ANALYSIS_KINDS,
  EXPORT_FORMATS,
  TRANSCRIPTION_MODELS,
  TRANSCRIPTION_STATUSES,
  UI_LANGUAGES,
  type IpcChannel,
} from '../ipc-contract.js';

// ---------- building blocks ----------

/**
 * Extra keywords the validator reads to word its message: `patternHint` finishes "<field> ..." when
 * `pattern` fails; `invalidMessage` replaces any message for the whole value.
 */
export interface MessageOptions {
  patternHint?: string;
  invalidMessage?: string;
}

const NON_BLANK = { pattern: '\\S', patternHint: 'must not be empty' };

/** Text with at least one visible character. */
function Text(title: string | undefined, maxLength: number) {
  return Type.String({ ...(title ? { title } : {}), maxLength, ...NON_BLANK });
}

/** Text that may be empty. */
function AnyText(title: string | undefined, maxLength: number) {
  return Type.String({ ...(title ? { title } : {}), maxLength });
}

/** Text with a visible character, handed on without the spaces around it. */
function TrimmedText(title: string, maxLength: number) {
  return Type.Decode(Text(title, maxLength), (value: string) => value.trim());
}

function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

function OneOf<const V extends readonly string[]>(values: V, title?: string): TEnum<[...V]> {
  return Type.Enum<[...V]>(values, title ? { title } : {});
}

/** An id the renderer got from main: short and printable, never a path. */
function Id(title?: string) {
  return Type.String({
    ...(title ? { title } : {}),
    minLength: 1,
    maxLength: 200,
    pattern: '^[^\\s/\\\\]+$',
    patternHint: 'is not a valid id',
  });
}

/**
 * A handle of a file or folder main offered ('uploads:pick', 'uploads:pick-folder', a drop): never a
 * path. Main looks it up in its own registry (src-main/uploads/file-handles.ts).
 */
function FileHandle(title: string) {
  return Type.String({
    title,
    pattern: '^file-[0-9a-f]{32}$',
    invalidMessage: `This ${title.toLowerCase()} was not chosen in Kikitori. Choose or drop it again.`,
  });
}

/** ISO 639-1; either case is accepted and handed on in lower case. */
function LanguageCode(title = 'Language') {
  return Type.Decode(
    Type.String({
      title,
      minLength: 1,
      maxLength: 2,
      pattern: '^[a-zA-Z]{2}$',
      patternHint: 'must be a two-letter ISO 639-1 code such as "en" or "ja"',
    }),
    (value: string) => value.toLowerCase(),
  );
}

/** One language, or several when the recording mixes them (as the API's `language`); null: none chosen. */
function LanguageChoice(title = 'Language') {
  return Nullable(
    Type.Union([LanguageCode(title), Type.Array(LanguageCode(title), { title, minItems: 1, maxItems: 10 })]),
  );
}

function Count(title: string) {
  return Type.Integer({ title, minimum: LIMITS.speakers.min, maximum: LIMITS.speakers.max });
}

function Strict<P extends Parameters<typeof Type.Object>[0]>(properties: P, title?: string) {
  return Type.Object(properties, { additionalProperties: false, ...(title ? { title } : {}) });
}

/** Channels that take nothing accept no argument, null, or an empty object (what the bridges send). */
const NoRequest = Type.Union([Type.Undefined(), Type.Null(), Strict({})], {
  invalidMessage: 'This operation takes no request.',
});

const IdRequest = Strict({ id: Id() });
/** One revision of a transcript on the server. */
const RevisionRequest = Strict({
  id: Id(),
  revision: Type.Integer({ title: 'Revision', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});

/** A speech model's catalogue name ("base", "large-v3-turbo", "small.en"), as the HTTP contract's ModelName. */
const ModelNameRequest = Strict({
  name: Type.String({
    title: 'Model',
    minLength: 1,
    maxLength: 64,
    pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
    patternHint: 'is not a speech model name',
  }),
});

// ---------- shared shapes ----------

/** A dictionary word; the reading is dropped when it is blank. */
export const WordInput = Type.Decode(
  Strict({ word: Text('Word', LIMITS.word), reading: Type.Optional(AnyText('Reading', LIMITS.reading)) }),
  ({ word, reading }): { word: string; reading?: string } => {
    const trimmed = reading?.trim();
    return trimmed ? { word: word.trim(), reading: trimmed } : { word: word.trim() };
  },
);
export type WordInput = Static<typeof WordInput>;

export const ReplacementRuleInput = Type.Decode(
  Strict({
    pattern: Text('Pattern', LIMITS.pattern),
    replacement: Type.Optional(AnyText('Replacement', LIMITS.replacement)),
  }),
  ({ pattern, replacement }) => ({ pattern: pattern.trim(), replacement: replacement?.trim() ?? '' }),
);

/** Options for the next upload. Every key is present; null means "let the server decide". */
export const UploadOptions = Strict(
  {
    language: LanguageChoice(),
    model: OneOf(TRANSCRIPTION_MODELS, 'Model'),
    numSpeakers: Nullable(Count('Number of speakers')),
    minSpeakers: Nullable(Count('Minimum number of speakers')),
    maxSpeakers: Nullable(Count('Maximum number of speakers')),
    dictionaryId: Nullable(Id('Dictionary')),
    /** Each channel transcribed as its own speaker (upload `multichannel`, decision 0061); absent: mixed down. */
    multichannel: Type.Optional(Type.Boolean({ title: 'Each channel is a speaker' })),
    /** Ad-hoc words: sent as upload `words`, which makes a temporary dictionary. */
    words: Type.Array(WordInput, { title: 'Words', maxItems: LIMITS.bulkItems }),
  },
  'Upload options',
);
export type UploadOptions = Static<typeof UploadOptions>;

export const TranscriptFilter = Strict(
  {
    status: Type.Optional(
      Type.Array(OneOf(TRANSCRIPTION_STATUSES, 'Status'), { title: 'Status', maxItems: TRANSCRIPTION_STATUSES.length }),
    ),
    language: Type.Optional(LanguageCode()),
    /** Full-text query over transcripts, summaries and translations. */
    text: Type.Optional(AnyText('Search text', 500)),
  },
  'Filter',
);
export type TranscriptFilter = Static<typeof TranscriptFilter>;

const { maxCharsPerLine, maxLinesPerCue, maxCueDuration, minGap } = SUBTITLE_LIMITS;

/** How SRT and WebVTT cues are cut (src-shared/subtitle-cues.ts); ignored by the other formats. */
export const SubtitleExportOptions = Strict(
  {
    /** null: the usual width for the transcript's language (42; 13 for Japanese). */
    maxCharsPerLine: Nullable(
      Type.Integer({ title: 'Characters per line', minimum: maxCharsPerLine.min, maximum: maxCharsPerLine.max }),
    ),
    maxLinesPerCue: Type.Integer({ title: 'Lines per cue', minimum: maxLinesPerCue.min, maximum: maxLinesPerCue.max }),
    maxCueDuration: Type.Number({ title: 'Longest cue', minimum: maxCueDuration.min, maximum: maxCueDuration.max }),
    minGap: Type.Number({ title: 'Gap between cues', minimum: minGap.min, maximum: minGap.max }),
    /** How speakers are named when `speakers` is on; SRT has no voice tags and always prefixes. */
    speakerStyle: OneOf(['prefix', 'voice'] as const, 'Speakers as'),
    /** The target language of a translation to put under each cue; null: the original only. */
    translation: Nullable(LanguageCode('Translation')),
  },
  'Subtitle options',
);
export type SubtitleExportOptions = Static<typeof SubtitleExportOptions>;

export const ExportOptions = Strict(
  {
    format: OneOf(EXPORT_FORMATS, 'Format'),
    speakers: Type.Boolean({ title: 'Speakers' }),
    timestamps: Type.Boolean({ title: 'Timestamps' }),
    subtitles: Type.Optional(SubtitleExportOptions),
  },
  'Export options',
);
export type ExportOptions = Static<typeof ExportOptions>;

/** A settings change: only the keys given change; `defaults` may be partial too. */
export const SettingsPatch = Strict({
  uiLanguage: Type.Optional(OneOf(UI_LANGUAGES, 'Interface language')),
  defaults: Type.Optional(
    Strict(
      {
        language: Type.Optional(LanguageChoice('Default language')),
        model: Type.Optional(OneOf(TRANSCRIPTION_MODELS, 'Default model')),
        numSpeakers: Type.Optional(Nullable(Count('Default number of speakers'))),
        minSpeakers: Type.Optional(Nullable(Count('Default minimum number of speakers'))),
        maxSpeakers: Type.Optional(Nullable(Count('Default maximum number of speakers'))),
        dictionaryId: Type.Optional(Nullable(Id('Default dictionary'))),
      },
      'Defaults',
    ),
  ),
  playbackRate: Type.Optional(Type.Number({ title: 'Playback rate', minimum: 0.25, maximum: 4 })),
  notifications: Type.Optional(Type.Boolean({ title: 'Notifications' })),
  collapsedPanels: Type.Optional(
    Strict(
      {
        uploads: Type.Optional(Type.Boolean({ title: 'Uploads collapsed' })),
        speechOffer: Type.Optional(Type.Boolean({ title: 'Speech model offer collapsed' })),
      },
      'Collapsed panels',
    ),
  ),
  subtitleExport: Type.Optional(SubtitleExportOptions),
});
export type SettingsPatch = Static<typeof SettingsPatch>;

const BULK = 100_000;
/** One recorded chunk, base64: 8 MiB of text, minutes of Opus. */
const RECORDING_CHUNK_BASE64 = 8 * 1024 * 1024;
/** One chunk of live audio, base64: up to 2 s of 16 kHz PCM16 (the renderer sends about a quarter second). */
const LIVE_AUDIO_BASE64 = Math.ceil((16_000 * 2 * 2) / 3) * 4;

const SegmentId = () => Type.Integer({ title: 'Segment', minimum: 0, maximum: 10_000_000 });
/** Segments settled in one conflict: far more than two people edit apart, bounded so one call stays small. */
const SETTLED_SEGMENTS = 10_000;
const WordIndex = () => Type.Integer({ title: 'Word', minimum: 0, maximum: 1_000_000 });

/** One edit of a transcript (src-shared/transcript-editing.ts EditOperation). */
const EditOperationRequest = Type.Union([
  Strict({ kind: Type.Literal('text'), segmentId: SegmentId(), text: AnyText('Text', 100_000) }),
  Strict({ kind: Type.Literal('word'), segmentId: SegmentId(), wordIndex: WordIndex(), text: AnyText('Word', 1000) }),
  Strict({
    kind: Type.Literal('replace'),
    query: Type.String({ title: 'Find', minLength: 1, maxLength: 1000 }),
    replacement: AnyText('Replace with', 1000),
    options: Strict({ matchCase: Type.Boolean(), wholeWord: Type.Boolean() }),
    only: Type.Optional(Strict({ segmentId: SegmentId(), start: Type.Integer({ minimum: 0, maximum: 10_000_000 }) })),
  }),
  Strict({ kind: Type.Literal('merge'), segmentId: SegmentId() }),
  Strict({
    kind: Type.Literal('split'),
    segmentId: SegmentId(),
    wordIndex: WordIndex(),
    speaker: Type.Optional(Nullable(Text('Speaker', 200))),
  }),
  Strict({ kind: Type.Literal('speaker'), segmentId: SegmentId(), speaker: Nullable(Text('Speaker', 200)) }),
  Strict({ kind: Type.Literal('merge-speakers'), from: Text('Speaker', 200), into: Text('Speaker', 200) }),
  Strict({
    kind: Type.Literal('speaker-name'),
    speaker: Text('Speaker', 200),
    name: Nullable(AnyText('Name', LIMITS.speakerName)),
  }),
]);

// ---------- channels ----------

export const IPC_REQUESTS = {
  'app:info': NoRequest,

  'connection:status': NoRequest,
  'profiles:list': NoRequest,
  'profiles:add': Strict({
    name: Text('Name', 100),
    baseUrl: Text('Server address', 2000),
    apiKey: Text('API key', 1000),
  }),
  'profiles:remove': IdRequest,
  'profiles:activate': IdRequest,

  'settings:get': NoRequest,
  'settings:update': SettingsPatch,

  'languages:serving': NoRequest,

  'transcripts:list': Strict({
    filter: Type.Optional(TranscriptFilter),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  }),
  'transcripts:get': IdRequest,
  'transcripts:delete': IdRequest,
  'transcripts:edit': Strict({
    id: Id(),
    segments: Type.Array(
      Strict({ id: Type.Integer({ minimum: 0, maximum: 10_000_000 }), text: AnyText(undefined, 100_000) }),
      { minItems: 1, maxItems: BULK },
    ),
  }),
  'transcripts:edit-document': Strict({ id: Id(), operation: EditOperationRequest }),
  'transcripts:undo': IdRequest,
  'transcripts:redo': IdRequest,
  'transcripts:rename-speaker': Strict({
    id: Id(),
    speaker: Text('Speaker', 200),
    name: AnyText('Name', LIMITS.speakerName),
  }),
  /** dictionaryId null: the transcription's own dictionary. */
  'transcripts:apply-dictionary': Strict({ id: Id(), dictionaryId: Nullable(Id()) }),
  'transcripts:resolve-conflict': Strict({ id: Id(), keep: OneOf(['local', 'server'] as const) }),
  'transcripts:settle-conflict': Strict({
    id: Id(),
    segments: Type.Array(
      Strict({
        segmentId: SegmentId(),
        text: AnyText('Text', REVISION_LIMITS.text),
        speaker: Nullable(Text('Speaker', 200)),
      }),
      { minItems: 1, maxItems: SETTLED_SEGMENTS },
    ),
  }),
  'transcripts:revisions': IdRequest,
  'transcripts:restore-revision': RevisionRequest,
  'transcripts:revision-changes': RevisionRequest,
  'transcripts:export': Strict({ id: Id(), options: ExportOptions }),
  'transcripts:refresh': NoRequest,
  'transcripts:follow': Strict({ id: Nullable(Id()), editing: Type.Boolean({ title: 'Editing' }) }),
  'transcripts:rerun-plan': IdRequest,
  'transcripts:rerun': Strict({
    id: Id(),
    options: Type.Optional(UploadOptions),
    file: Type.Optional(FileHandle('File')),
  }),

  'search:query': Strict({
    text: Text('Search text', 500),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  }),

  'uploads:pick': NoRequest,
  'uploads:add': Strict({
    files: Type.Array(FileHandle('File'), { title: 'Files', minItems: 1, maxItems: LIMITS.uploadsPerRequest }),
    options: UploadOptions,
  }),
  'uploads:pick-folder': NoRequest,
  'uploads:add-folder': Strict({ folder: FileHandle('Folder'), options: UploadOptions }),
  'uploads:list': NoRequest,
  'uploads:cancel': IdRequest,
  'uploads:clear-finished': NoRequest,
  'uploads:retry': IdRequest,

  /** What MediaRecorder produces: WebM or Ogg with Opus, or MP4 (Safari's WebKit; not Electron today). */
  'recordings:start': Strict({
    mimeType: Type.String({
      title: 'Recording format',
      minLength: 1,
      maxLength: 100,
      pattern: '^audio/(webm|ogg|mp4)(;.*)?$',
      patternHint: 'is not a recording format Kikitori can keep',
    }),
    /** Show live text while recording (decision 0073), in this language, with this dictionary. */
    live: Type.Optional(Strict({ language: LanguageChoice(), dictionaryId: Nullable(Id('Dictionary')) }, 'Live text')),
  }),
  /** Base64 works over both bridges (Electron's structured clone and the test host's JSON); chunks are about a second. */
  'recordings:append': Strict({
    id: Id(),
    offset: Type.Integer({ title: 'Offset', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    data: Type.String({
      title: 'Recorded audio',
      minLength: 4,
      maxLength: RECORDING_CHUNK_BASE64,
      pattern: '^[A-Za-z0-9+/]+={0,2}$',
      patternHint: 'is not base64',
    }),
  }),
  /** 16 kHz mono PCM16 little-endian, base64, for live text only (the file is what 'recordings:append' keeps). */
  'recordings:live-audio': Strict({
    id: Id(),
    data: Type.String({
      title: 'Live audio',
      minLength: 4,
      maxLength: LIVE_AUDIO_BASE64,
      pattern: '^[A-Za-z0-9+/]+={0,2}$',
      patternHint: 'is not base64',
    }),
  }),
  'recordings:finish': Strict({ id: Id(), options: UploadOptions }),
  'recordings:list': NoRequest,
  'recordings:discard': IdRequest,

  'audio:peaks': IdRequest,
  'audio:source': IdRequest,

  'dictionaries:list': NoRequest,
  'dictionaries:get': IdRequest,
  'dictionaries:create': Strict({
    name: TrimmedText('Name', LIMITS.name),
    words: Type.Optional(Type.Array(WordInput, { title: 'Words', maxItems: BULK })),
  }),
  'dictionaries:rename': Strict({ id: Id(), name: TrimmedText('Name', LIMITS.name) }),
  'dictionaries:delete': IdRequest,
  'dictionaries:add-words': Strict({
    id: Id(),
    words: Type.Array(WordInput, { title: 'Words', minItems: 1, maxItems: BULK }),
  }),
  'dictionaries:remove-word': Strict({ id: Id(), wordId: Id('Word') }),
  'dictionaries:add-replacement-rules': Strict({
    id: Id(),
    replacementRules: Type.Array(ReplacementRuleInput, { title: 'Replacement rules', minItems: 1, maxItems: BULK }),
  }),
  'dictionaries:remove-replacement-rule': Strict({ id: Id(), replacementRuleId: Id('Replacement rule') }),
  'dictionaries:import': Strict({
    id: Id(),
    text: Text('Text', 5_000_000),
    kind: OneOf(['words', 'replacement-rules'] as const),
    /** Import the good lines and leave out those that cannot be imported (the user saw them listed). */
    skipBadLines: Type.Optional(Type.Boolean({ title: 'Leave out the lines that cannot be imported' })),
  }),

  'voices:list': NoRequest,
  /** id: the transcription; speaker: its label ("SPEAKER_1"); voice: an existing voice, or a new one by name. */
  'voices:identify': Strict({
    id: Id(),
    speaker: Text('Speaker', 200),
    voice: Type.Union([
      Strict({ id: Id('Voice') }, 'Voice'),
      Strict({ name: TrimmedText('Name', LIMITS.speakerName) }, 'New voice'),
    ]),
  }),
  'voices:rename': Strict({ id: Id('Voice'), name: TrimmedText('Name', LIMITS.speakerName) }),
  'voices:delete': Strict({ id: Id('Voice') }),
  'voices:samples': Strict({ id: Id('Voice') }),
  'voices:remove-sample': Strict({ id: Id('Voice'), sampleId: Id('Sample') }),

  'analysis:request': Strict({ id: Id(), kind: OneOf(ANALYSIS_KINDS), language: Type.Optional(LanguageCode()) }),
  'analysis:get': Strict({ id: Id(), kind: OneOf(ANALYSIS_KINDS), language: Type.Optional(LanguageCode()) }),
  'analysis:translation-targets': IdRequest,

  'models:list': NoRequest,
  'models:download': ModelNameRequest,
  'models:cancel': ModelNameRequest,
  'models:delete': ModelNameRequest,
  'models:install-file': ModelNameRequest,
  'models:dismiss-offer': NoRequest,

  /** Paths the preload read from dropped Files (webUtils.getPathForFile); never sent by the renderer. */
  'files:offer-dropped': Strict({
    paths: Type.Array(Text('File path', 4096), { title: 'Files', minItems: 1, maxItems: LIMITS.uploadsPerRequest }),
  }),
} satisfies Record<IpcChannel, TSchema>;

type Schemas = typeof IPC_REQUESTS;

/** What the renderer sends on a channel. */
export type RequestOf<C extends IpcChannel> = Schemas[C] extends typeof NoRequest ? void : Static<Schemas[C]>;
/** What the channel's handler receives: validated, normalised and cross-checked. */
export type DecodedRequestOf<C extends IpcChannel> = Schemas[C] extends typeof NoRequest
  ? void
  : StaticDecode<Schemas[C]>;
