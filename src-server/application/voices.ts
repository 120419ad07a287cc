// The team voice library (decision 0065): voices enrolled from parts of the team's own transcriptions.
// Every operation is scoped to the caller's team: another team's voice, or a sample from another team's
// transcription, answers as unknown. What is kept of a sample is its print and where it came from; the
// audio is decoded for the print and removed at once.
import path from 'node:path';
import { LIMITS } from '../../src-shared/limits.js';
import type { AppContext } from '../app-context.js';
import type { NewVoiceSample } from '../db/voice-repository.js';
import type { Caller, VoiceRecord, VoiceSampleRecord } from '../domain/records.js';
import { errors } from './errors.js';

export type VoicesContext = Pick<AppContext, 'voices' | 'voicePrints' | 'transcriptions' | 'storage' | 'config'>;

/** A part of one of the team's transcriptions, in seconds from the start of its audio. */
export interface SampleInput {
  transcriptionId: string;
  start: number;
  end: number;
}

/** A voice with its samples, as the API shows one. */
export interface VoiceView {
  voice: VoiceRecord;
  samples: VoiceSampleRecord[];
}

/** A print's sample may start this far past the decoded end and still count as inside (rounding of durations). */
const END_TOLERANCE_SECONDS = 0.05;
/** Each sample's decode and print; a request with the most samples of the longest length stays well inside it. */
const PRINT_TIMEOUT_MS = 120_000;

export async function listVoices(ctx: VoicesContext, caller: Caller, page: number): Promise<VoiceView[]> {
  const voices = await ctx.voices.list(caller.teamId, page, ctx.config.pageSize);
  const samples = await ctx.voices.samples(voices.map((v) => v.voiceId));
  return voices.map((voice) => ({ voice, samples: samples.filter((s) => s.voiceId === voice.voiceId) }));
}

export async function getVoice(ctx: VoicesContext, caller: Caller, voiceId: string): Promise<VoiceView> {
  const voice = await ctx.voices.get(caller.teamId, voiceId);
  if (!voice) throw errors.speakerNotFound(voiceId);
  return { voice, samples: await ctx.voices.samples([voiceId]) };
}

export async function enrolVoice(
  ctx: VoicesContext,
  caller: Caller,
  input: { name: string; samples: SampleInput[] },
): Promise<VoiceView> {
  // Checked before any decoding too: a full library costs nothing to ask about.
  const limit = ctx.config.voices.maxPerTeam;
  const full = (voices: number) => {
    if (voices >= limit) throw errors.tooManyVoices(limit);
  };
  full(await ctx.voices.count(caller.teamId));
  const samples = await printSamples(ctx, caller, input.samples, 'samples');
  assertEnoughSpeech(samples, 'samples');
  const voice = await ctx.voices.create(caller.teamId, input.name.trim(), samples, full);
  return { voice, samples: await ctx.voices.samples([voice.voiceId]) };
}

export async function updateVoice(
  ctx: VoicesContext,
  caller: Caller,
  voiceId: string,
  change: { name?: string; addSamples: SampleInput[]; removeSampleIds: string[] },
): Promise<VoiceView> {
  // Checked before any decoding: another team's voice costs nothing to ask about.
  const { samples: current } = await getVoice(ctx, caller, voiceId);
  const unknown = change.removeSampleIds.findIndex((id) => !current.some((s) => s.sampleId === id));
  if (unknown >= 0)
    throw errors.speakerSampleInvalid(
      `This voice has no sample with id "${change.removeSampleIds[unknown]}". GET the speaker for its samples' ids.`,
      `remove_sample_ids.${unknown}`,
    );
  const add = await printSamples(ctx, caller, change.addSamples, 'add_samples');
  const updated = await ctx.voices.update(
    caller.teamId,
    voiceId,
    {
      ...(change.name === undefined ? {} : { name: change.name.trim() }),
      add,
      removeSampleIds: change.removeSampleIds,
    },
    (after) => {
      if (after.length > LIMITS.voiceSamples)
        throw errors.speakerSampleInvalid(
          `A voice keeps at most ${LIMITS.voiceSamples} samples; this change would leave ${after.length}. Remove some with remove_sample_ids first.`,
          'add_samples',
        );
      assertEnoughSpeech(after, 'remove_sample_ids');
    },
  );
  if (!updated) throw errors.speakerNotFound(voiceId);
  return { voice: updated, samples: await ctx.voices.samples([voiceId]) };
}

export async function deleteVoice(ctx: VoicesContext, caller: Caller, voiceId: string): Promise<void> {
  if (!(await ctx.voices.delete(caller.teamId, voiceId))) throw errors.speakerNotFound(voiceId);
}

function assertEnoughSpeech(samples: ReadonlyArray<{ speechSeconds: number }>, field: string): void {
  const speech = samples.reduce((sum, s) => sum + s.speechSeconds, 0);
  if (speech < LIMITS.voiceMinSpeechSeconds)
    throw errors.speakerSampleInvalid(
      `A voice needs at least ${LIMITS.voiceMinSpeechSeconds} seconds of speech in all its samples; these hold ${speech.toFixed(1)} s. Add longer parts where the person speaks.`,
      field,
    );
}

/** Checks every sample against its transcription, then prints them, one transcription's audio at a time. */
async function printSamples(
  ctx: VoicesContext,
  caller: Caller,
  samples: SampleInput[],
  field: string,
): Promise<NewVoiceSample[]> {
  const byTranscription = new Map<string, { index: number; sample: SampleInput }[]>();
  for (const [index, sample] of samples.entries()) {
    const at = `${field}.${index}`;
    if (!(sample.end > sample.start))
      throw errors.speakerSampleInvalid(
        `Sample ${index + 1} ends (${sample.end} s) before it starts (${sample.start} s). Give end after start.`,
        `${at}.end`,
      );
    if (sample.end - sample.start > LIMITS.voiceSampleSeconds)
      throw errors.speakerSampleInvalid(
        `Sample ${index + 1} is ${(sample.end - sample.start).toFixed(0)} s long; a sample is at most ${LIMITS.voiceSampleSeconds} s. Pick the parts where the person speaks.`,
        `${at}.end`,
      );
    byTranscription.set(sample.transcriptionId, [
      ...(byTranscription.get(sample.transcriptionId) ?? []),
      { index, sample },
    ]);
  }
  const out = new Array<NewVoiceSample>(samples.length);
  const signal = AbortSignal.timeout(PRINT_TIMEOUT_MS);
  for (const [transcriptionId, parts] of byTranscription) {
    const at = `${field}.${parts[0]!.index}`;
    const record = await ctx.transcriptions.get(caller.teamId, transcriptionId);
    if (!record) throw errors.transcriptionNotFound(transcriptionId, `${at}.transcription_id`);
    if (record.status !== 'COMPLETED' || !record.audioKey || record.duration === null)
      throw errors.transcriptionNotCompleted(transcriptionId, record.status);
    for (const { index, sample } of parts)
      if (sample.end > record.duration + END_TOLERANCE_SECONDS)
        throw errors.speakerSampleInvalid(
          `Sample ${index + 1} ends at ${sample.end} s, past the end of transcription "${transcriptionId}" (${record.duration.toFixed(2)} s long).`,
          `${field}.${index}.end`,
        );
    if ((await ctx.storage.stat(record.audioKey)) === null) throw errors.audioGone(transcriptionId);
    const audioPath = await ctx.storage.localPath(record.audioKey);
    try {
      const prints = await ctx.voicePrints.printParts(
        audioPath,
        parts.map((p) => ({ start: p.sample.start, end: Math.min(p.sample.end, record.duration!) })),
        path.join(ctx.config.dataDir, 'work'),
        signal,
      );
      parts.forEach(({ index, sample }, i) => {
        out[index] = { ...sample, speechSeconds: round(prints[i]!.speechSeconds), print: prints[i]!.print };
      });
    } finally {
      await ctx.storage.releaseLocalPath?.(audioPath);
    }
  }
  return out;
}

const round = (x: number) => Math.round(x * 100) / 100;
