// Engine `auto`: whisper with the best installed model that loads, pocketsphinx when there is none (or
// whisper.cpp is not built here). A damaged model (a file whisper.cpp cannot load) is skipped, never run:
// one bad file must not fail every job. Chosen each time a job asks, so a model downloaded a moment ago
// serves the next job without a restart, and the job records the engine that actually ran.
import fs from 'node:fs';
import type { EnginesConfig } from '../config.js';
import type { SpeechEngine } from '../engines/speech/speech-engine.js';
import { whisperModelProblem } from '../engines/speech/ggml-file.js';
import { loadWhisperBinding, WhisperEngine } from '../engines/speech/whisper-engine.js';
import { OFFICIAL_MODELS } from './catalogue.js';
import { ModelManager } from './manager.js';

export interface InstalledModels {
  /** The model file `auto` should run now, or null when none is installed and loadable. */
  bestInstalled(): { name: string; file: string } | null;
}

/** The official catalogue in <dataDir>/models, for callers without a ModelManager (the `engines` command). */
export function installedOfficialModels(dataDir: string): InstalledModels {
  return new ModelManager({ dataDir, baseUrl: 'http://unused.invalid', catalogue: OFFICIAL_MODELS });
}

function whisperBuilt(): boolean {
  try {
    loadWhisperBinding();
    return true;
  } catch {
    return false;
  }
}

export function autoEngineChooser(deps: {
  /** The configured `whisper` engine: used as is when KIKITORI_WHISPER_MODEL names a model. */
  whisper: WhisperEngine;
  pocketsphinx: SpeechEngine;
  whisperConfig: EnginesConfig['whisper'];
  dataDir: string;
  installed: InstalledModels;
  /** Told once per damaged configured model file that `auto` falls back from. */
  logger?: { warn(message: string): void };
}): () => SpeechEngine {
  const reported = new Set<string>();
  // One whisper engine per model file, so the loaded model stays warm between jobs; a newer best
  // model replaces it (the old one frees its memory after its idle time).
  let current: { file: string; engine: WhisperEngine } | null = null;
  return () => {
    if (!whisperBuilt()) return deps.pocketsphinx;
    if (deps.whisperConfig.model) {
      try {
        const { file } = deps.whisper.resolveModel();
        if (!fs.existsSync(file)) return deps.pocketsphinx;
        const problem = whisperModelProblem(file);
        if (problem === null) return deps.whisper;
        if (!reported.has(`${file}\n${problem}`)) {
          reported.add(`${file}\n${problem}`);
          deps.logger?.warn(`engine auto: KIKITORI_WHISPER_MODEL is damaged, using pocketsphinx instead: ${problem}`);
        }
        return deps.pocketsphinx;
      } catch {
        return deps.pocketsphinx;
      }
    }
    const best = deps.installed.bestInstalled();
    if (!best) return deps.pocketsphinx;
    if (current?.file !== best.file) {
      current = {
        file: best.file,
        engine: new WhisperEngine({ ...deps.whisperConfig, model: best.file, dataDir: deps.dataDir }),
      };
    }
    return current.engine;
  };
}
