// Builds the engine registry from configuration, and reports which engines are usable here.
//
// Engines: pocketsphinx (embedded, English), whisper (whisper.cpp through smart-whisper, ~97
// languages) and remote (an OpenAI-compatible /audio/transcriptions service). KIKITORI_ENGINE_DEFAULT
// and KIKITORI_ENGINE_DIARIZATION_HIGH pick the engine of each transcription_model.
//
// Construction is cheap and side-effect free: no engine loads a native library, reads a model or
// contacts a service before its first recognize() (or checkUsable()), so the server starts, and
// `kikitori-server engines` lists everything, on a machine where some engine cannot run.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config.js';
import type { TranscriptionModel } from '../domain/records.js';
import { ConfiguredEngineRegistry, type EngineRegistry, type EngineStatus } from './engine-registry.js';
import { EmbeddedSpeakerSeparation } from './speakers/embedded-speaker-separation.js';
import { OpenAiRemoteEngine } from './speech/openai-remote-engine.js';
import { DEFAULT_POCKETSPHINX_MODEL_DIR, PocketsphinxEngine } from './speech/pocketsphinx-engine.js';
import { loadPocketsphinx } from './speech/pocketsphinx-library.js';
import type { SpeechEngine, SpeechEngineCapabilities } from './speech/speech-engine.js';
import { WhisperEngine } from './speech/whisper-engine.js';

export const SPEECH_ENGINE_NAMES = ['pocketsphinx', 'whisper', 'remote'] as const;
export type SpeechEngineName = (typeof SPEECH_ENGINE_NAMES)[number];

type Env = Record<string, string | undefined>;

export interface EngineSetupOptions {
  /** Where engines report which implementation ran (e.g. Silero or the energy VAD fallback). */
  logger?: { info(message: string): void; warn(message: string): void };
  /** Where catalogue whisper models live (<dataDir>/models). Defaults to KIKITORI_DATA_DIR or ./kikitori-data. */
  dataDir?: string;
}

function positiveInteger(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new ConfigError(`${name} must be a whole number of 1 or more, got "${raw}"`);
  return Number(raw);
}

function engineName(variable: string, raw: string | undefined, fallback: SpeechEngineName): SpeechEngineName {
  const value = raw?.trim().toLowerCase() || fallback;
  if (!(SPEECH_ENGINE_NAMES as readonly string[]).includes(value)) {
    throw new ConfigError(`${variable} must be one of ${SPEECH_ENGINE_NAMES.join(', ')}; got "${raw}"`);
  }
  return value as SpeechEngineName;
}

export function createEngineRegistry(env: Env, options: EngineSetupOptions = {}): EngineRegistry {
  const dataDir = path.resolve(options.dataDir ?? env.KIKITORI_DATA_DIR ?? './kikitori-data');
  const defaultEngine = engineName('KIKITORI_ENGINE_DEFAULT', env.KIKITORI_ENGINE_DEFAULT, 'pocketsphinx');
  const engines: SpeechEngine[] = [
    new PocketsphinxEngine({
      modelDir: env.KIKITORI_POCKETSPHINX_MODEL_DIR,
      ...(options.logger ? { vadLog: (level: 'info' | 'warn', message: string) => options.logger![level](message) } : {}),
    }),
    new WhisperEngine({
      model: env.KIKITORI_WHISPER_MODEL,
      dataDir,
      threads: positiveInteger('KIKITORI_WHISPER_THREADS', env.KIKITORI_WHISPER_THREADS),
      beamSize: positiveInteger('KIKITORI_WHISPER_BEAM_SIZE', env.KIKITORI_WHISPER_BEAM_SIZE),
    }),
    new OpenAiRemoteEngine({
      baseUrl: env.KIKITORI_REMOTE_ASR_BASE_URL,
      apiKey: env.KIKITORI_REMOTE_ASR_API_KEY,
      model: env.KIKITORI_REMOTE_ASR_MODEL,
      languages: env.KIKITORI_REMOTE_ASR_LANGUAGES?.split(',').map((l) => l.trim().toLowerCase()).filter(Boolean),
      timeoutMs: positiveInteger('KIKITORI_REMOTE_ASR_TIMEOUT_MS', env.KIKITORI_REMOTE_ASR_TIMEOUT_MS),
    }),
  ];
  const speakerEngine = env.KIKITORI_SPEAKER_ENGINE?.trim().toLowerCase() || 'embedded';
  if (speakerEngine !== 'embedded' && speakerEngine !== 'none') {
    throw new ConfigError(`KIKITORI_SPEAKER_ENGINE must be "embedded" or "none"; got "${env.KIKITORI_SPEAKER_ENGINE}"`);
  }
  return new ConfiguredEngineRegistry(
    engines,
    {
      default: defaultEngine,
      'diarization-high': engineName('KIKITORI_ENGINE_DIARIZATION_HIGH', env.KIKITORI_ENGINE_DIARIZATION_HIGH, defaultEngine),
    },
    speakerEngine === 'embedded' ? new EmbeddedSpeakerSeparation() : null,
  );
}

export interface EngineReport extends EngineStatus {
  name: string;
  capabilities: SpeechEngineCapabilities;
  /** The transcription models (default, diarization-high) served by this engine. */
  servesModels: TranscriptionModel[];
}

/** Each engine, what it can do, what it serves, and whether it can run on this machine (and why not). */
export async function describeEngines(registry: EngineRegistry, env: Env = process.env): Promise<EngineReport[]> {
  const models: TranscriptionModel[] = ['default', 'diarization-high'];
  const reports: EngineReport[] = [];
  for (const engine of registry.speechEngines.values()) {
    let status: EngineStatus;
    try {
      status = await engineStatus(engine, env);
    } catch (error) {
      status = { usable: false, reason: (error as Error).message, detail: null };
    }
    let capabilities: SpeechEngineCapabilities;
    try {
      capabilities = engine.capabilities;
    } catch {
      capabilities = { languages: [], wordTimestamps: false, customVocabulary: false, speakerSeparation: false };
    }
    reports.push({
      name: engine.name,
      capabilities,
      servesModels: models.filter((m) => registry.speechFor(m) === engine),
      ...status,
    });
  }
  return reports;
}

async function engineStatus(engine: SpeechEngine, env: Env): Promise<EngineStatus> {
  const diagnosable = engine as SpeechEngine & { checkUsable?: () => Promise<EngineStatus> };
  if (typeof diagnosable.checkUsable === 'function') return diagnosable.checkUsable();
  if (engine instanceof PocketsphinxEngine) {
    loadPocketsphinx(); // throws PocketsphinxUnavailableError with the fix
    const dir = env.KIKITORI_POCKETSPHINX_MODEL_DIR ?? DEFAULT_POCKETSPHINX_MODEL_DIR;
    for (const file of [path.join(dir, 'en-us', 'mdef'), path.join(dir, 'en-us.lm.bin'), path.join(dir, 'cmudict-en-us.dict')]) {
      if (!fs.existsSync(file)) return { usable: false, reason: `model file ${file} is missing: install the Debian package pocketsphinx-en-us`, detail: null };
    }
    return { usable: true, reason: null, detail: `model ${dir}` };
  }
  return { usable: true, reason: null, detail: 'no self-check' };
}
