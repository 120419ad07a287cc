// A voice learned from a few seconds is named less reliably in new recordings (decision 0075): the app says
// so where the voice's speech is shown, with what to do about it.
import type { VoiceSummary } from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import { useT } from '../../i18n/use-t';

export const hasLittleSpeech = (voice: VoiceSummary) => voice.speechSeconds < LIMITS.voiceSteadySpeechSeconds;

export function LittleSpeechNote({ voice }: { voice: VoiceSummary }) {
  const t = useT();
  if (!hasLittleSpeech(voice)) return null;
  return (
    <span className="hint little-speech">
      {t('voices.tooLittleSpeech', {
        seconds: Math.round(voice.speechSeconds),
        steady: LIMITS.voiceSteadySpeechSeconds,
      })}
    </span>
  );
}
