// OpenAI's known speakers on POST /v1/audio/transcriptions: `known_speaker_names[]` with, in the same order,
// `known_speaker_references[]` (data URLs of 2-10 s audio clips of each person). Checked here, once: at most
// four, a name for each reference and a reference for each name, short names each once, and each reference
// a base64 data URL of audio of bounded size. A name that is a voice of the team's library (/api/v1/speakers)
// labels the separated speaker recognized as that voice (decision 0065); any other name is looked for by its
// clip's print, under settings calibrated for such short clips (decision 0092). A speaker matched by neither
// keeps OpenAI's A, B, ... label: a wrong name is worse than none.
import type { EnrolledVoice } from '../domain/voice-prints.js';
import { errors } from './errors.js';

/** OpenAI's bound. */
export const MAX_KNOWN_SPEAKERS = 4;
export const MAX_SPEAKER_NAME_CHARS = 64;
/** A 10 s clip as 16-bit 48 kHz stereo WAV is 1.9 MB; compressed formats far less. */
export const MAX_REFERENCE_BYTES = 2 * 1024 * 1024;
/** The longest data URL a reference of MAX_REFERENCE_BYTES makes (base64: 4 characters per 3 bytes). */
export const MAX_REFERENCE_CHARS = Math.ceil(MAX_REFERENCE_BYTES / 3) * 4 + 100;

export const NAMES_FIELD = 'known_speaker_names[]';
export const REFERENCES_FIELD = 'known_speaker_references[]';

export interface KnownSpeaker {
  name: string;
  /** The media type the data URL declares (audio/...). */
  mediaType: string;
  audio: Buffer;
}

const DATA_URL = /^data:(audio\/[a-z0-9.+-]+)(?:;[a-z0-9-]+=[^;,]*)*;base64,([A-Za-z0-9+/\s]*={0,2})$/i;

/** The known speakers of a request, or a validation error naming the field at fault. */
export function knownSpeakers(names: readonly string[], references: readonly string[]): KnownSpeaker[] {
  if (names.length > MAX_KNOWN_SPEAKERS)
    throw errors.validation(
      `${NAMES_FIELD}: at most ${MAX_KNOWN_SPEAKERS} known speakers; got ${names.length}.`,
      NAMES_FIELD,
    );
  if (references.length > MAX_KNOWN_SPEAKERS)
    throw errors.validation(
      `${REFERENCES_FIELD}: at most ${MAX_KNOWN_SPEAKERS} known speakers; got ${references.length}.`,
      REFERENCES_FIELD,
    );
  if (names.length !== references.length) {
    const missing = names.length < references.length ? NAMES_FIELD : REFERENCES_FIELD;
    throw errors.validation(
      `Send one ${REFERENCES_FIELD} (a data URL of a 2-10 s clip of the person) for each ${NAMES_FIELD}, in the ` +
        `same order; got ${names.length} names and ${references.length} references.`,
      missing,
    );
  }
  const seen = new Set<string>();
  return names.map((raw, i) => {
    const name = raw.trim();
    if (name === '' || name.length > MAX_SPEAKER_NAME_CHARS)
      throw errors.validation(
        `${NAMES_FIELD}: each name must be 1 to ${MAX_SPEAKER_NAME_CHARS} characters (name ${i + 1} is ${name.length}).`,
        NAMES_FIELD,
      );
    if (seen.has(name))
      throw errors.validation(`${NAMES_FIELD}: "${name}" is given twice; name each speaker once.`, NAMES_FIELD);
    seen.add(name);
    return { name, ...reference(references[i]!, i) };
  });
}

function reference(url: string, i: number): { mediaType: string; audio: Buffer } {
  const match = url.length <= MAX_REFERENCE_CHARS ? DATA_URL.exec(url.trim()) : null;
  if (url.length > MAX_REFERENCE_CHARS)
    throw errors.validation(
      `${REFERENCES_FIELD}: reference ${i + 1} is larger than ${MAX_REFERENCE_BYTES / (1024 * 1024)} MiB; send a clip of 2 to 10 seconds.`,
      REFERENCES_FIELD,
    );
  const audio = match ? Buffer.from(match[2]!.replace(/\s+/g, ''), 'base64') : null;
  if (!match || !audio || audio.length === 0)
    throw errors.validation(
      `${REFERENCES_FIELD}: reference ${i + 1} is not a base64 data URL of audio ("data:audio/wav;base64,...").`,
      REFERENCES_FIELD,
    );
  return { mediaType: match[1]!.toLowerCase(), audio };
}

/**
 * The library's voices (`enrolled`, the team's) that `names` ask for, each under the caller's spelling: a name
 * matches a voice without regard to case or surrounding space. Such a name needs no clip: the voice's own
 * prints are better than a 2-10 s clip's.
 */
export function libraryVoicesNamed(enrolled: readonly EnrolledVoice[], names: readonly string[]): EnrolledVoice[] {
  const asked = new Map(names.map((n) => [libraryKey(n), n.trim()]));
  return enrolled.flatMap((v) => {
    const name = asked.get(libraryKey(v.name));
    return name === undefined ? [] : [{ ...v, name }];
  });
}

/** How a known speaker's name is compared with the library's names. */
export const libraryKey = (name: string): string => name.trim().toLowerCase();
