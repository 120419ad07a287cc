// The pipeline's speaker stage (domain/transcription-pipeline.ts): a speaker-separation engine, then
// assignSpeakers() to label the recognized segments with its turns. `refine` may rework the turns in between
// (diarization-high with a speaker model merges speakers it calls one voice, embedding-speaker-merge.ts).
import type { SpeakerStage } from '../../domain/transcription-pipeline.js';
import { assignSpeakers } from './assign-speakers.js';
import type { TurnRefinement } from './embedding-speaker-merge.js';
import type { SpeakerSeparationEngine } from './speaker-separation.js';

export function speakerStage(engine: SpeakerSeparationEngine, refine?: TurnRefinement): SpeakerStage {
  return {
    name: engine.name,
    async label(pcmPath, segments, regions, options) {
      const turns = await engine.separate(pcmPath, regions, options);
      return assignSpeakers(segments, refine ? await refine(pcmPath, turns, options) : turns);
    },
  };
}
