// Builds the engine registry from configuration, and reports which engines are usable here.
//
// Engines: pocketsphinx (embedded, English), whisper (whisper.cpp through smart-whisper, ~97
// languages) and remote (an OpenAI-compatible /audio/transcriptions service). KIKITORI_ENGINE_DEFAULT
// and KIKITORI_ENGINE_DIARIZATION_HIGH pick the engine of each transcription_model; `auto` (the default)
// picks per job: whisper with the best installed model, else pocketsphinx (src-server/models/auto-engine.ts).
//
// Construction is cheap and side-effect free: no engine loads a native library, reads a model or
// contacts a service before its first recognize() (or checkUsable()), so the server starts, and
// `kikitori-server engines` lists everything, on a machine where some engine cannot run.
import fs from 'node:fs';
import path from 'node:path';
import type { EnginesConfig } from '../config.js';
import type { TranscriptionModel } from '../domain/records.js';
import { ConfiguredEngineRegistry, type EngineRegistry, type EngineStatus } from './engine-registry.js';
import { EmbeddedSpeakerSeparation } from './speakers/embedded-speaker-separation.js';
import { OpenAiRemoteEngine } from './speech/openai-remote-engine.js';
import { DEFAULT_POCKETSPHINX_MODEL_DIR, PocketsphinxEngine } from './speech/pocketsphinx-engine.js';
import { loadPocketsphinx, POCKETSPHINX_MISSING_MESSAGE } from './speech/pocketsphinx-library.js';
import type { SpeechEngine, SpeechEngineCapabilities } from './speech/speech-engine.js';
import { WhisperEngine } from './speech/whisper-engine.js';
import { operatorMessage } from '../domain/engine-error.js';
import { TRANSCRIPTION_MODELS } from '../../src-shared/api/vocabulary.js';
import { autoEngineChooser, installedOfficialModels, type InstalledModels } from '../models/auto-engine.js';

export interface EngineSetupOptions {
  /** Where catalogue whisper models live (<dataDir>/models). */
  dataDir: string;
  /** Where engines report which implementation ran (e.g. Silero or the energy VAD fallback). */
  logger?: { info(message: string): void; warn(message: string): void };
  /** For engine `auto`: the best installed model now (default: the official catalogue in <dataDir>/models). */
  installedModels?: InstalledModels;
}

export function createEngineRegistry(config: EnginesConfig, options: EngineSetupOptions): EngineRegistry {
  const { logger } = options;
  const vadLog = logger ? { vadLog: (level: 'info' | 'warn', message: string) => logger[level](message) } : {};
  const pocketsphinx = new PocketsphinxEngine({
    libraryPath: config.pocketsphinx.library,
    modelDir: config.pocketsphinx.modelDir,
    ...vadLog,
    ...(logger ? { warn: (message: string) => logger.warn(message) } : {}),
  });
  const whisper = new WhisperEngine({ ...config.whisper, dataDir: options.dataDir, ...vadLog });
  const engines: SpeechEngine[] = [pocketsphinx, whisper, new OpenAiRemoteEngine(config.remote)];
  const installed = options.installedModels ?? installedOfficialModels(options.dataDir);
  return new ConfiguredEngineRegistry(
    engines,
    { default: config.default, 'diarization-high': config.diarizationHigh },
    config.speakers === 'embedded' ? new EmbeddedSpeakerSeparation() : null,
    {
      auto: autoEngineChooser({
        whisper,
        pocketsphinx,
        whisperConfig: config.whisper,
        dataDir: options.dataDir,
        installed,
        ...(logger ? { logger } : {}),
      }),
    },
  );
}

export interface EngineReport extends EngineStatus {
  name: string;
  capabilities: SpeechEngineCapabilities;
  /** The transcription models (default, diarization-high) served by this engine. */
  servesModels: TranscriptionModel[];
}

/** Each engine, what it can do, what it serves, and whether it can run on this machine (and why not). */
export async function describeEngines(registry: EngineRegistry, config: EnginesConfig): Promise<EngineReport[]> {
  const reports: EngineReport[] = [];
  for (const engine of registry.speechEngines.values()) {
    let status: EngineStatus;
    try {
      status = await engineStatus(engine, config);
    } catch (error) {
      status = { usable: false, reason: operatorMessage(error), detail: null };
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
      servesModels: TRANSCRIPTION_MODELS.filter((m) => registry.speechFor(m) === engine),
      ...status,
    });
  }
  return reports;
}

/** Whether one engine can run here now, and why not. */
export async function engineStatus(engine: SpeechEngine, config: EnginesConfig): Promise<EngineStatus> {
  const diagnosable = engine as SpeechEngine & { checkUsable?: () => Promise<EngineStatus> };
  if (typeof diagnosable.checkUsable === 'function') return diagnosable.checkUsable();
  if (engine instanceof PocketsphinxEngine) {
    loadPocketsphinx(engine.libraryPath); // throws an 'unavailable' EngineError naming the fix
    const dir = config.pocketsphinx.modelDir ?? DEFAULT_POCKETSPHINX_MODEL_DIR;
    for (const file of [
      path.join(dir, 'en-us', 'mdef'),
      path.join(dir, 'en-us.lm.bin'),
      path.join(dir, 'cmudict-en-us.dict'),
    ]) {
      if (!fs.existsSync(file)) {
        return {
          usable: false,
          reason: `${POCKETSPHINX_MISSING_MESSAGE} (pocketsphinx model file ${file} is missing: on Debian, apt-get install pocketsphinx-en-us)`,
          detail: null,
        };
      }
    }
    return { usable: true, reason: null, detail: `model ${dir}` };
  }
  return { usable: true, reason: null, detail: 'no self-check' };
}
