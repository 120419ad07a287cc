import type { RouteModule } from '../../api-app.js';
import { createSpeaker } from './create-speaker.js';
import { deleteSpeaker } from './delete-speaker.js';
import { getSpeaker } from './get-speaker.js';
import { listSpeakers } from './list-speakers.js';
import { updateSpeaker } from './update-speaker.js';

/** Extension: the team voice library (decision 0065). */
export const speakerRoutes: RouteModule[] = [listSpeakers, createSpeaker, getSpeaker, updateSpeaker, deleteSpeaker];
