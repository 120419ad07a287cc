// The number of speakers as a person says it: "Detect automatically", "Exactly N" or "Between A and B".
// One choice of mode shows only the inputs that mode needs, so nothing wraps into a puzzle, and the
// request carries num_speakers or min/max, never a mix. Shared by the upload options and the re-run
// dialog; the bounds come from LIMITS, the same ones main and the server check.
import { useState } from 'react';
import type { IpcError } from '../../../src-shared/ipc-contract';
import { assertNever } from '../../../src-shared/assert-never';
import { LIMITS } from '../../../src-shared/limits';
import type { SpeakerCountField as Field, SpeakerCounts } from '../../../src-shared/speaker-count';
import { useT } from '../../i18n/use-t';
import { FieldMessage } from '../../lib/field-message';

export type SpeakerMode = 'auto' | 'exact' | 'range';

/** The mode the counts express; null when none is set (automatic, or a mode chosen but not filled in yet). */
export function speakerModeOf(counts: SpeakerCounts): SpeakerMode | null {
  if (counts.numSpeakers !== null) return 'exact';
  if (counts.minSpeakers !== null || counts.maxSpeakers !== null) return 'range';
  return null;
}

/** What switching to `mode` changes: the counts of the other modes are dropped. */
export function countsForMode(mode: SpeakerMode, counts: SpeakerCounts): SpeakerCounts {
  switch (mode) {
    case 'auto':
      return { numSpeakers: null, minSpeakers: null, maxSpeakers: null };
    case 'exact':
      return {
        numSpeakers: counts.numSpeakers ?? counts.minSpeakers ?? counts.maxSpeakers,
        minSpeakers: null,
        maxSpeakers: null,
      };
    case 'range':
      return {
        numSpeakers: null,
        minSpeakers: counts.minSpeakers ?? counts.numSpeakers,
        maxSpeakers: counts.maxSpeakers ?? counts.numSpeakers,
      };
    default:
      return assertNever(mode, 'speaker mode');
  }
}

/** A typed count: a positive whole number, else null (an empty box). Out-of-range values are kept so the check can name them. */
export function toCount(value: string): number | null {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

const TEST_IDS: Record<Field, string> = {
  numSpeakers: 'num-speakers-input',
  minSpeakers: 'min-speakers-input',
  maxSpeakers: 'max-speakers-input',
};

export function SpeakerCountInput({
  id,
  counts,
  onChange,
  errorOf,
  testIdPrefix = '',
  className,
}: {
  /** The mode select's id (the form's "Speakers" label points at it); the inputs derive theirs from it. */
  id: string;
  counts: SpeakerCounts;
  onChange: (patch: SpeakerCounts) => void;
  /** The problem with one count, already worded for the user, or null. */
  errorOf: (field: Field) => IpcError | null;
  testIdPrefix?: string;
  className?: string;
}) {
  const t = useT();
  // The mode stays put while its boxes are empty (the counts alone would say 'auto').
  const [chosen, setChosen] = useState<SpeakerMode>(() => speakerModeOf(counts) ?? 'auto');
  const mode = speakerModeOf(counts) ?? chosen;
  const fields: Field[] = mode === 'exact' ? ['numSpeakers'] : mode === 'range' ? ['minSpeakers', 'maxSpeakers'] : [];
  const errorId = (field: Field) => `${id}-${field}-error`;

  const input = (field: Field) => {
    const error = errorOf(field);
    return (
      <input
        id={`${id}-${field}`}
        data-testid={`${testIdPrefix}${TEST_IDS[field]}`}
        type="number"
        inputMode="numeric"
        min={LIMITS.speakers.min}
        max={LIMITS.speakers.max}
        step={1}
        value={counts[field] ?? ''}
        aria-label={t(`library.options.speakers.${field}`)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId(field) : undefined}
        onChange={(event) => {
          setChosen(mode);
          onChange({ ...counts, [field]: toCount(event.target.value) });
        }}
      />
    );
  };

  return (
    <div className={className ? `speaker-count ${className}` : 'speaker-count'} data-mode={mode}>
      <div className="speaker-count-row">
        <select
          id={id}
          data-testid={`${testIdPrefix}speaker-mode`}
          value={mode}
          onChange={(event) => {
            const next = event.target.value as SpeakerMode;
            setChosen(next);
            onChange(countsForMode(next, counts));
          }}
        >
          {(['auto', 'exact', 'range'] as const).map((value) => (
            <option key={value} value={value}>
              {t(`library.options.speakers.mode.${value}`)}
            </option>
          ))}
        </select>
        {mode === 'exact' && (
          <span className="speaker-count-values">
            {input('numSpeakers')}
            <span className="speaker-count-unit">{t('library.options.speakers.unit')}</span>
          </span>
        )}
        {mode === 'range' && (
          <span className="speaker-count-values">
            {input('minSpeakers')}
            <span className="speaker-count-join">{t('library.options.speakers.and')}</span>
            {input('maxSpeakers')}
            <span className="speaker-count-unit">{t('library.options.speakers.unit')}</span>
          </span>
        )}
      </div>
      {fields.map((field) => (
        <FieldMessage key={field} id={errorId(field)} error={errorOf(field)} />
      ))}
    </div>
  );
}
