// Extension: the team voice library (issue 25, decision 0065). A speaker is an enrolled voice: a name and
// samples taken from parts of the team's own transcriptions. What the server keeps of a sample is a voice
// print (numbers describing the voice) and where it came from, never audio. New transcriptions of the team
// name the separated speakers whose voice matches (segments' speaker_id, speaker_name, speaker_confidence).
import { Type } from 'typebox';
import { LIMITS } from '../limits.js';
import { DateTime, EmptyBody, errorResponses, NonBlank, PageQuery } from './common.js';

const tags = ['speakers'];

const Seconds = (description: string) => Type.Number({ minimum: 0, maximum: 1_000_000, description });

export const SpeakerSampleRequest = Type.Object(
  {
    transcription_id: Type.String({
      minLength: 1,
      maxLength: 100,
      description: "One of the team's COMPLETED transcriptions.",
    }),
    start: Seconds('Seconds from the start of its audio.'),
    end: Seconds(`After start, at most the audio's length and ${LIMITS.voiceSampleSeconds} s after start.`),
  },
  { additionalProperties: false },
);

const SpeakerName = NonBlank(LIMITS.speakerName);

export const SpeakerSample = Type.Object({
  sample_id: Type.String(),
  transcription_id: Type.String({
    description: 'Where the sample came from; the print stays when that transcription is deleted.',
  }),
  start: Type.Number(),
  end: Type.Number(),
  speech_seconds: Type.Number({ description: 'Seconds of speech the print holds (pauses left out).' }),
  created_at: DateTime,
});

export const Speaker = Type.Object(
  {
    speaker_id: Type.String(),
    team_id: Type.String(),
    name: Type.String(),
    samples: Type.Array(SpeakerSample),
    speech_seconds: Type.Number({ description: 'Seconds of speech in all its samples.' }),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Speaker', title: 'Speaker' },
);

export const CreateSpeakerRequest = Type.Object(
  {
    name: SpeakerName,
    samples: Type.Array(SpeakerSampleRequest, {
      minItems: 1,
      maxItems: LIMITS.voiceSamples,
      description: `At least ${LIMITS.voiceMinSpeechSeconds} s of the person's speech in all.`,
    }),
  },
  { additionalProperties: false },
);

export const UpdateSpeakerRequest = Type.Object(
  {
    name: Type.Optional(SpeakerName),
    add_samples: Type.Optional(Type.Array(SpeakerSampleRequest, { maxItems: LIMITS.voiceSamples })),
    remove_sample_ids: Type.Optional(
      Type.Array(Type.String({ maxLength: 100 }), { maxItems: LIMITS.voiceSamples, uniqueItems: true }),
    ),
  },
  { additionalProperties: false },
);

export const SpeakerParams = Type.Object({ speaker_id: Type.String() });

export const listSpeakers = {
  method: 'GET',
  path: '/api/v1/speakers',
  schema: {
    summary: 'Extension: list the team’s enrolled voices, newest first',
    tags,
    querystring: PageQuery,
    response: { 200: Type.Array(Type.Ref('Speaker')), ...errorResponses(400, 401) },
  },
} as const;

export const createSpeaker = {
  method: 'POST',
  path: '/api/v1/speakers',
  schema: {
    summary: 'Extension: enrol a voice from parts of the team’s transcriptions (keeps voice prints, never audio)',
    tags,
    body: CreateSpeakerRequest,
    response: { 200: Type.Ref('Speaker'), ...errorResponses(400, 401, 404, 409, 410) },
  },
} as const;

export const getSpeaker = {
  method: 'GET',
  path: '/api/v1/speakers/:speaker_id',
  schema: {
    summary: 'Extension: get an enrolled voice with its samples',
    tags,
    params: SpeakerParams,
    response: { 200: Type.Ref('Speaker'), ...errorResponses(401, 404) },
  },
} as const;

export const updateSpeaker = {
  method: 'PATCH',
  path: '/api/v1/speakers/:speaker_id',
  schema: {
    summary: 'Extension: rename an enrolled voice, add samples or remove them',
    tags,
    params: SpeakerParams,
    body: UpdateSpeakerRequest,
    response: { 200: Type.Ref('Speaker'), ...errorResponses(400, 401, 404, 409, 410) },
  },
} as const;

export const deleteSpeaker = {
  method: 'DELETE',
  path: '/api/v1/speakers/:speaker_id',
  schema: {
    summary: 'Extension: delete an enrolled voice with all its voice prints (empty body)',
    tags,
    params: SpeakerParams,
    response: { 200: EmptyBody, ...errorResponses(401, 404) },
  },
} as const;
