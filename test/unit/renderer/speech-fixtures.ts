// Speech-model answers for renderer tests, shaped as main answers them.
import type { SpeechEngineInUse, SpeechModel, SpeechModels } from '../../../src-shared/ipc-contract';

const MB = 1024 * 1024;

export function speechModel(name: string, patch: Partial<SpeechModel> = {}): SpeechModel {
  const english = name.endsWith('.en');
  return {
    name,
    file: `ggml-${name}.bin`,
    bytes: name.startsWith('tiny') ? 75 * MB : 141 * MB,
    family: name.replace(/(\.en)?(-q\d_\d)?$/, ''),
    multilingual: !english,
    languages: english ? ['en'] : ['en', 'ja'],
    quantized: false,
    precision: 'full',
    speed: name.startsWith('tiny') ? 'fastest' : 'fast',
    accuracy: name.startsWith('tiny') ? 'basic' : 'good',
    installed: false,
    damaged: false,
    download: null,
    ...patch,
  };
}

export const BUILTIN: SpeechEngineInUse = {
  engine: 'pocketsphinx',
  model: 'en-us',
  detectsLanguage: false,
  languages: ['en'],
  usable: true,
  reason: null,
};
export const WHISPER_BASE: SpeechEngineInUse = {
  engine: 'whisper',
  model: 'base',
  detectsLanguage: true,
  languages: ['en', 'ja'],
  usable: true,
  reason: null,
};

export function speechModels(patch: Partial<SpeechModels> = {}): SpeechModels {
  return {
    models: [speechModel('tiny'), speechModel('base'), speechModel('base.en')],
    serving: { default: BUILTIN, 'diarization-high': BUILTIN },
    canManage: true,
    local: true,
    recommended: 'base',
    offer: true,
    ...patch,
  };
}
