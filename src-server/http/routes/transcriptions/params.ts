import { Type } from 'typebox';

export const TranscriptionParams = Type.Object({ transcription_id: Type.String() });
