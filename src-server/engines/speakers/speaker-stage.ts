// The pipeline's speaker stage (domain/transcription-pipeline.ts): a speaker-separation engine, then
// assignSpeakers() to label the recognized segments with its turns.
import type { SpeakerStage } from '../../domain/transcription-pipeline.js';
import { assignSpeakers } from './assign-speakers.js';
import type { SpeakerSeparationEngine } from './speaker-separation.js';

export function speakerStage(engine: SpeakerSeparationEngine): SpeakerStage {
  return {
    name: engine.name,
    async label(pcmPath, segments, regions, options) {
      const turns = await engine.separate(pcmPath, regions, options);
      return assignSpeakers(segments, turns);
    },
  };
}
