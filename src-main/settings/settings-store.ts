// The typed settings: the contract's Settings plus the server profiles. Remote profiles keep their
// API key only as SecretBox output (base64), never in clear.
import { DEFAULT_UPLOAD_DEFAULTS, type ServerProfile, type Settings } from '../../src-shared/ipc-contract.js';
import { LIMITS } from '../../src-shared/limits.js';
import { SUBTITLE_LIMITS } from '../../src-shared/subtitle-cues.js';

export interface StoredProfile extends ServerProfile {
  kind: 'remote';
  /** base64 of SecretBox.encrypt(apiKey). */
  encryptedApiKey: string;
  /** The user confirmed in main's dialog that Kikitori may send to this server (decision 0046). */
  confirmed?: boolean;
}

export interface SettingsData {
  settings: Settings;
  profiles: StoredProfile[];
  /** What main remembers for itself, not a user preference. */
  speech: SpeechMemory;
}

export interface SpeechMemory {
  /** The user dismissed the first-run offer to download a speech model. */
  offerDismissed: boolean;
}

/** Where settings persist. conf in tests, electron-store in the app. */
export interface SettingsStore {
  read(): SettingsData;
  write(data: SettingsData): void;
}

export const EMBEDDED_PROFILE_ID = 'embedded';

export function defaultSettingsData(locale = 'en'): SettingsData {
  return {
    settings: {
      activeProfileId: EMBEDDED_PROFILE_ID,
      uiLanguage: locale.toLowerCase().startsWith('ja') ? 'ja' : 'en',
      defaults: { ...DEFAULT_UPLOAD_DEFAULTS },
      playbackRate: 1,
      notifications: true,
    },
    profiles: [],
    speech: { offerDismissed: false },
  };
}

const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const speakerCount = nullable({ type: 'integer', minimum: LIMITS.speakers.min, maximum: LIMITS.speakers.max });

/** JSON schema of SettingsData (conf and electron-store validate every write with it). */
export const settingsSchema = {
  settings: {
    type: 'object',
    additionalProperties: false,
    required: ['activeProfileId', 'uiLanguage', 'defaults', 'playbackRate', 'notifications'],
    properties: {
      activeProfileId: { type: 'string', minLength: 1 },
      uiLanguage: { enum: ['en', 'ja'] },
      defaults: {
        type: 'object',
        additionalProperties: false,
        required: ['language', 'model', 'numSpeakers'],
        properties: {
          language: nullable({
            anyOf: [
              { type: 'string', pattern: '^[a-z]{2}$' },
              { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', pattern: '^[a-z]{2}$' } },
            ],
          }),
          model: { enum: ['default', 'diarization-high'] },
          numSpeakers: speakerCount,
          // Optional, so files written before they existed stay valid (SettingsService fills them in).
          minSpeakers: speakerCount,
          maxSpeakers: speakerCount,
          dictionaryId: nullable({ type: 'string', minLength: 1, maxLength: 200 }),
        },
      },
      playbackRate: { type: 'number', minimum: 0.25, maximum: 4 },
      notifications: { type: 'boolean' },
      // Optional, like subtitleExport: files written before it existed stay valid.
      collapsedPanels: {
        type: 'object',
        additionalProperties: false,
        properties: { uploads: { type: 'boolean' }, speechOffer: { type: 'boolean' } },
      },
      // Optional, so files written before it existed stay valid.
      subtitleExport: {
        type: 'object',
        additionalProperties: false,
        required: ['maxCharsPerLine', 'maxLinesPerCue', 'maxCueDuration', 'minGap', 'speakerStyle', 'translation'],
        properties: {
          maxCharsPerLine: nullable({
            type: 'integer',
            minimum: SUBTITLE_LIMITS.maxCharsPerLine.min,
            maximum: SUBTITLE_LIMITS.maxCharsPerLine.max,
          }),
          maxLinesPerCue: {
            type: 'integer',
            minimum: SUBTITLE_LIMITS.maxLinesPerCue.min,
            maximum: SUBTITLE_LIMITS.maxLinesPerCue.max,
          },
          maxCueDuration: {
            type: 'number',
            minimum: SUBTITLE_LIMITS.maxCueDuration.min,
            maximum: SUBTITLE_LIMITS.maxCueDuration.max,
          },
          minGap: { type: 'number', minimum: SUBTITLE_LIMITS.minGap.min, maximum: SUBTITLE_LIMITS.minGap.max },
          speakerStyle: { enum: ['prefix', 'voice'] },
          translation: nullable({ type: 'string', pattern: '^[a-z]{2}$' }),
        },
      },
    },
  },
  profiles: {
    type: 'array',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'name', 'kind', 'baseUrl', 'encryptedApiKey'],
      properties: {
        id: { type: 'string', minLength: 1 },
        name: { type: 'string', minLength: 1, maxLength: 100 },
        kind: { const: 'remote' },
        baseUrl: { type: 'string', pattern: '^https?://' },
        encryptedApiKey: { type: 'string', minLength: 1 },
        confirmed: { type: 'boolean' },
      },
    },
  },
  // A top-level key of its own: files written before it existed get it from the defaults (conf merges
  // them per top-level key), so they stay valid and are not cleared.
  speech: {
    type: 'object',
    additionalProperties: false,
    required: ['offerDismissed'],
    properties: { offerDismissed: { type: 'boolean' } },
  },
} as const;
