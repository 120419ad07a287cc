// Extension (issue 24, decision 0052): a transcript's revisions. Every change (a review, edit operations, a
// dictionary re-apply, a restore) makes a new revision; the document at transcription_path is the latest.
// Operations are the desktop app's edit model as it is (src-shared/transcript-editing.ts), plus naming a
// speaker. Writes take `If-Match: "<revision>"`; answers carry the revision as an ETag.
import { Type, type Static } from 'typebox';
import { DateTime, errorResponses, IfMatchHeaders, literalUnion } from './common.js';
import { LIMITS } from '../limits.js';
import type { TranscriptDocument } from '../transcript-document.js';
import { TranscriptionParams, User } from './transcriptions.js';

const tags = ['revisions'];

export const REVISION_SOURCES = ['recognized', 'review', 'edit', 'dictionary', 'restore', 'transcribed-again'] as const;
/** What made a revision. */
export type RevisionSource = (typeof REVISION_SOURCES)[number];

/** Bounds of one request's operations (docs/api/revisions.md). */
export const REVISION_LIMITS = {
  operations: 500,
  text: 20_000,
  query: 1_000,
  speakerName: LIMITS.speakerName,
} as const;

const SegmentId = Type.Integer({ minimum: 0, maximum: 100_000_000, description: "A segment's `id` in the document." });
const WordIndex = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Index into the segment’s `words`.' });
const Speaker = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'A speaker label of the document, e.g. "SPEAKER_1".',
});
const strict = { additionalProperties: false } as const;

export const RevisionOperation = Type.Union(
  [
    Type.Object(
      { kind: Type.Literal('text'), segmentId: SegmentId, text: Type.String({ maxLength: REVISION_LIMITS.text }) },
      { ...strict, description: "A segment's whole text; words keep their times where they still match." },
    ),
    Type.Object(
      {
        kind: Type.Literal('word'),
        segmentId: SegmentId,
        wordIndex: WordIndex,
        text: Type.String({ maxLength: REVISION_LIMITS.text }),
      },
      { ...strict, description: 'One word of a segment, in place.' },
    ),
    Type.Object(
      {
        kind: Type.Literal('replace'),
        query: Type.String({ minLength: 1, maxLength: REVISION_LIMITS.query }),
        replacement: Type.String({ maxLength: REVISION_LIMITS.query }),
        options: Type.Object({ matchCase: Type.Boolean(), wholeWord: Type.Boolean() }, strict),
        only: Type.Optional(
          Type.Object(
            { segmentId: SegmentId, start: Type.Integer({ minimum: 0, maximum: REVISION_LIMITS.text * 100 }) },
            strict,
          ),
        ),
      },
      { ...strict, description: 'Find and replace: every match, or `only` the one at that segment and offset.' },
    ),
    Type.Object(
      { kind: Type.Literal('merge'), segmentId: SegmentId },
      { ...strict, description: 'The segment merged with the next.' },
    ),
    Type.Object(
      {
        kind: Type.Literal('split'),
        segmentId: SegmentId,
        wordIndex: WordIndex,
        speaker: Type.Optional(Type.Union([Speaker, Type.Null()])),
      },
      {
        ...strict,
        description:
          'The segment split before its word `wordIndex` (not the first); with `speaker`, the second part gets that speaker (as for `speaker`).',
      },
    ),
    Type.Object(
      { kind: Type.Literal('speaker'), segmentId: SegmentId, speaker: Type.Union([Speaker, Type.Null()]) },
      {
        ...strict,
        description:
          'A segment\'s speaker: one of the document\'s labels, null, or a new speaker as the next free "SPEAKER_<n>" (one past the highest).',
      },
    ),
    Type.Object(
      { kind: Type.Literal('merge-speakers'), from: Speaker, into: Speaker },
      {
        ...strict,
        description: "Every segment of speaker `from` gets `into`; `from`'s name is removed. `from` and `into` differ.",
      },
    ),
    Type.Object(
      {
        kind: Type.Literal('speaker-name'),
        speaker: Speaker,
        name: Type.Union([Type.String({ maxLength: REVISION_LIMITS.speakerName }), Type.Null()]),
      },
      {
        ...strict,
        description: "A speaker label's name, shared by the team (`speaker_names`); null or blank removes it.",
      },
    ),
  ],
  { description: 'One edit, as the desktop app makes it (src-shared/transcript-editing.ts).' },
);
export type RevisionOperationBody = Static<typeof RevisionOperation>;

export const RevisionInfo = Type.Object({
  revision: Type.Integer({ minimum: 1 }),
  created_at: DateTime,
  author: User,
  source: literalUnion(REVISION_SOURCES),
  summary: Type.String({ description: 'A short line saying what changed.' }),
});
export type RevisionInfoBody = Static<typeof RevisionInfo>;

export const RevisionList = Type.Object({
  transcription_id: Type.String(),
  latest_revision: Type.Integer({ minimum: 1 }),
  revisions: Type.Array(RevisionInfo, { description: 'Oldest first.' }),
});

/** The transcript document as served at transcription_path (src-shared/transcript-document.ts). */
const Document = Type.Unsafe<TranscriptDocument>({
  type: 'object',
  additionalProperties: true,
  description: 'The transcript document of that revision, as transcription_path serves it (with `revision`).',
});

export const RevisionWithDocument = Type.Object({
  transcription_id: Type.String(),
  ...RevisionInfo.properties,
  document: Document,
});

export const CreateRevisionRequest = Type.Object(
  {
    base_revision: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'The revision the operations were made on.',
    }),
    operations: Type.Array(RevisionOperation, { minItems: 1, maxItems: REVISION_LIMITS.operations }),
  },
  strict,
);

export const CreatedRevision = Type.Object({
  transcription_id: Type.String(),
  ...RevisionInfo.properties,
  rebased: Type.Boolean({
    description:
      'Whether the operations were applied on a newer revision than base_revision (nobody else had touched their segments).',
  }),
  changed: Type.Boolean({ description: 'False when the operations changed nothing: no revision was made.' }),
});

export const RevisionParams = Type.Object({
  transcription_id: Type.String(),
  revision: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});

export const listRevisions = {
  method: 'GET',
  path: '/api/v1/transcriptions/:transcription_id/revisions',
  schema: {
    summary: "Extension: a transcript's revisions, oldest first",
    tags,
    params: TranscriptionParams,
    response: { 200: RevisionList, ...errorResponses(401, 404, 409) },
  },
} as const;

export const getRevision = {
  method: 'GET',
  path: '/api/v1/transcriptions/:transcription_id/revisions/:revision',
  schema: {
    summary: "Extension: one revision's transcript document",
    description: 'A revision past the latest answers 400 VALIDATION_FAILED with `field: "revision"`.',
    tags,
    params: RevisionParams,
    response: { 200: RevisionWithDocument, ...errorResponses(400, 401, 404, 409) },
  },
} as const;

export const createRevision = {
  method: 'POST',
  path: '/api/v1/transcriptions/:transcription_id/revisions',
  schema: {
    summary: 'Extension: apply edit operations made on base_revision, as a new revision',
    description:
      'Operations made on an older revision are applied on the latest when they touch nothing anyone changed since; ' +
      'otherwise 412 REVISION_CONFLICT with the segment ids (and speaker labels) in `details`, and nothing is written. ' +
      'An operation that cannot apply to base_revision is 400 with `field` naming it (`operations.2.wordIndex`).',
    tags,
    params: TranscriptionParams,
    headers: IfMatchHeaders,
    body: CreateRevisionRequest,
    response: { 200: CreatedRevision, ...errorResponses(400, 401, 404, 409, 412) },
  },
} as const;

export const restoreRevision = {
  method: 'POST',
  path: '/api/v1/transcriptions/:transcription_id/revisions/:revision/restore',
  schema: {
    summary: 'Extension: make a new revision equal to that one',
    tags,
    params: RevisionParams,
    headers: IfMatchHeaders,
    response: { 200: CreatedRevision, ...errorResponses(400, 401, 404, 409, 412) },
  },
} as const;
