// Export to txt/srt/vtt/json/docx through main's save dialog. SRT and WebVTT take subtitle options:
// how cues are cut (src-shared/subtitle-cues.ts), how speakers are named, and a translation underneath.
import { useEffect, useId, useRef, useState } from 'react';
import {
  EXPORT_FORMATS,
  type ExportFormat,
  type FastSubtitle,
  type SubtitleExportOptions,
} from '../../../src-shared/ipc-contract';
import { languageName } from '../../../src-shared/languages';
import { DEFAULT_CUE_OPTIONS, languagePreset, SUBTITLE_LIMITS } from '../../../src-shared/subtitle-cues';
import { joinSentences } from '../../i18n/messages';
import { useT } from '../../i18n/use-t';
import { formatClock } from '../../lib/format';
import { useEscape } from '../../lib/use-escape';
import { useOutsideClick } from '../../lib/use-outside-click';
import { usePopoverPlacement } from '../../lib/use-popover-placement';
import { usePlayerStore } from '../../stores/player-store';
import { analysisKey, selectSlot, useAnalysisStore } from '../../stores/analysis-store';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';
import { useTranscriptStore } from '../../stores/transcript-store';
import { useErrorText } from '../../i18n/error-text';

/** What the subtitle fields hold: text as typed, checked when exporting. */
interface SubtitleFields {
  maxCharsPerLine: string;
  maxLinesPerCue: string;
  maxCueDuration: string;
  /** Milliseconds. */
  minGap: string;
  speakerStyle: SubtitleExportOptions['speakerStyle'];
  includeTranslation: boolean;
}

type NumberField = 'maxCharsPerLine' | 'maxLinesPerCue' | 'maxCueDuration' | 'minGap';

/** The last export's options (remembered in the settings), else the defaults, for this transcript's language. */
const initialFields = (language: string, last: SubtitleExportOptions | undefined): SubtitleFields => ({
  maxCharsPerLine: String(last?.maxCharsPerLine ?? languagePreset(language).maxCharsPerLine),
  maxLinesPerCue: String(last?.maxLinesPerCue ?? DEFAULT_CUE_OPTIONS.maxLinesPerCue),
  maxCueDuration: String(last?.maxCueDuration ?? DEFAULT_CUE_OPTIONS.maxCueDuration),
  minGap: String(Math.round((last?.minGap ?? DEFAULT_CUE_OPTIONS.minGap) * 1000)),
  speakerStyle: last?.speakerStyle ?? 'voice',
  includeTranslation: Boolean(last?.translation),
});

/** Each number field's bounds, in the unit the field shows. */
const BOUNDS: Record<NumberField, { min: number; max: number; step: number; integer: boolean }> = {
  maxCharsPerLine: { ...SUBTITLE_LIMITS.maxCharsPerLine, step: 1, integer: true },
  maxLinesPerCue: { ...SUBTITLE_LIMITS.maxLinesPerCue, step: 1, integer: true },
  maxCueDuration: { ...SUBTITLE_LIMITS.maxCueDuration, step: 0.5, integer: false },
  minGap: { min: SUBTITLE_LIMITS.minGap.min * 1000, max: SUBTITLE_LIMITS.minGap.max * 1000, step: 10, integer: true },
};

function fieldValue(fields: SubtitleFields, field: NumberField): number | null {
  const text = fields[field].trim();
  const value = Number(text);
  const { min, max, integer } = BOUNDS[field];
  if (!text || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value)))
    return null;
  return value;
}

export function ExportMenu() {
  const t = useT();
  const errorText = useErrorText();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<ExportFormat>('txt');
  const [speakers, setSpeakers] = useState(true);
  const [timestamps, setTimestamps] = useState(true);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [fast, setFast] = useState<FastSubtitle[]>([]);
  const exportAs = useTranscriptStore((state) => state.exportAs);
  const transcriptId = useTranscriptStore((state) => state.id);
  const language = useTranscriptStore((state) => state.detail?.document?.language ?? 'en');
  const uiLanguage = useSettingsStore(selectUiLanguage);
  const translationSlot = useAnalysisStore(selectSlot(analysisKey(transcriptId ?? '', 'translation')));
  const [fields, setFields] = useState<SubtitleFields>(() =>
    initialFields(language, useSettingsStore.getState().settings?.subtitleExport),
  );
  const [invalid, setInvalid] = useState<NumberField | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const anchor = useRef<HTMLDivElement>(null);
  const placement = usePopoverPlacement(open, opener, panel);
  // Exporting hands focus to the save dialog, so Escape is heard on the window, not only in the panel.
  useEscape(open, () => setOpen(false), opener);
  useOutsideClick(open, () => setOpen(false), anchor);
  const subtitles = format === 'srt' || format === 'vtt';
  const translation = translationSlot.view?.status === 'COMPLETED' ? translationSlot.view.translation : null;

  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>('select')?.focus();
  }, [open]);
  // The translation, if any, is offered as a second block under each cue.
  useEffect(() => {
    if (open && subtitles && transcriptId && translationSlot.view === undefined && !translationSlot.loading) {
      void useAnalysisStore.getState().load(transcriptId, 'translation');
    }
  }, [open, subtitles, transcriptId, translationSlot.view, translationSlot.loading]);

  const set = (patch: Partial<SubtitleFields>) => setFields((before) => ({ ...before, ...patch }));

  const subtitleOptions = (): SubtitleExportOptions | NumberField => {
    const values = {} as Record<NumberField, number>;
    for (const field of Object.keys(BOUNDS) as NumberField[]) {
      const value = fieldValue(fields, field);
      if (value === null) return field;
      values[field] = value;
    }
    return {
      // The language's own width stays "automatic", so a Japanese transcript is not cut at an English width.
      maxCharsPerLine:
        values.maxCharsPerLine === languagePreset(language).maxCharsPerLine ? null : values.maxCharsPerLine,
      maxLinesPerCue: values.maxLinesPerCue,
      maxCueDuration: values.maxCueDuration,
      minGap: values.minGap / 1000,
      speakerStyle: fields.speakerStyle,
      translation: fields.includeTranslation && translation ? translation.language : null,
    };
  };

  const run = async () => {
    let options: SubtitleExportOptions | undefined;
    if (subtitles) {
      const checked = subtitleOptions();
      if (typeof checked === 'string') {
        setInvalid(checked);
        setMessage(null);
        return;
      }
      options = checked;
    }
    setInvalid(null);
    setFast([]);
    setBusy(true);
    const { path, error, report } = await exportAs({
      format,
      speakers,
      timestamps,
      ...(options ? { subtitles: options } : {}),
    });
    setBusy(false);
    if (error) setMessage({ text: errorText(error), error: true });
    else if (path) {
      if (options) void useSettingsStore.getState().update({ subtitleExport: options });
      const saved = t('export.saved', { path });
      const tooFast =
        report && report.tooFast > 0
          ? t('export.subtitles.tooFast', { count: report.tooFast, total: report.cues, cps: report.maxCps })
          : '';
      setMessage({ text: joinSentences(uiLanguage, saved, tooFast), error: false });
      setFast(report?.fast ?? []);
    } else setMessage({ text: t('export.cancelled'), error: false });
  };

  const numberField = (field: NumberField, label: string) => {
    const { min, max, step } = BOUNDS[field];
    const inputId = `${id}-${field}`;
    return (
      <div className="inline-fields">
        <label htmlFor={inputId}>{label}</label>
        <input
          id={inputId}
          type="number"
          inputMode="decimal"
          min={min}
          max={max}
          step={step}
          size={5}
          value={fields[field]}
          aria-invalid={invalid === field ? true : undefined}
          aria-describedby={invalid === field ? `${inputId}-error` : undefined}
          onChange={(event) => set({ [field]: event.target.value })}
        />
        {invalid === field && (
          <p className="field-error" id={`${inputId}-error`}>
            {t('export.subtitles.range', { min, max })}
          </p>
        )}
      </div>
    );
  };

  return (
    <div className="popover-anchor" ref={anchor}>
      <button
        ref={opener}
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        {t('export.button')}
      </button>
      {open && (
        <div
          ref={panel}
          id={`${id}-panel`}
          className={`popover export-popover ${placement.className}`}
          style={placement.style}
          role="dialog"
          aria-label={t('export.heading')}
        >
          <h2 className="section-title">{t('export.heading')}</h2>
          <label htmlFor={`${id}-format`}>{t('export.format')}</label>
          <select
            id={`${id}-format`}
            value={format}
            onChange={(event) => setFormat(event.target.value as ExportFormat)}
          >
            {EXPORT_FORMATS.map((value) => (
              <option key={value} value={value}>
                {value.toUpperCase()}
              </option>
            ))}
          </select>
          <label className="check">
            <input type="checkbox" checked={speakers} onChange={(event) => setSpeakers(event.target.checked)} />{' '}
            {t('export.speakers')}
          </label>
          {!subtitles && (
            <label className="check">
              <input type="checkbox" checked={timestamps} onChange={(event) => setTimestamps(event.target.checked)} />{' '}
              {t('export.timestamps')}
            </label>
          )}
          {subtitles && (
            <fieldset className="export-subtitles">
              <legend>{t('export.subtitles.heading')}</legend>
              {numberField('maxCharsPerLine', t('export.subtitles.maxCharsPerLine'))}
              {numberField('maxLinesPerCue', t('export.subtitles.maxLinesPerCue'))}
              {numberField('maxCueDuration', t('export.subtitles.maxCueDuration'))}
              {numberField('minGap', t('export.subtitles.minGap'))}
              {speakers && format === 'vtt' && (
                <div className="stack">
                  <label htmlFor={`${id}-speaker-style`}>{t('export.subtitles.speakerStyle')}</label>
                  <select
                    id={`${id}-speaker-style`}
                    value={fields.speakerStyle}
                    onChange={(event) => set({ speakerStyle: event.target.value as SubtitleFields['speakerStyle'] })}
                  >
                    <option value="voice">{t('export.subtitles.speakerStyle.voice')}</option>
                    <option value="prefix">{t('export.subtitles.speakerStyle.prefix')}</option>
                  </select>
                </div>
              )}
              {speakers && format === 'srt' && <p className="hint">{t('export.subtitles.srtSpeakers')}</p>}
              {translation && (
                <label className="check">
                  <input
                    type="checkbox"
                    checked={fields.includeTranslation}
                    onChange={(event) => set({ includeTranslation: event.target.checked })}
                  />{' '}
                  {t('export.subtitles.translation', { language: languageName(translation.language, uiLanguage) })}
                </label>
              )}
            </fieldset>
          )}
          <div className="row-actions">
            <button type="button" className="button primary" onClick={() => void run()} disabled={busy}>
              {t('export.run')}
            </button>
            <button type="button" className="button-quiet" onClick={() => setOpen(false)}>
              {t('common.close')}
            </button>
          </div>
          {message && (
            <p className={message.error ? 'field-error' : 'hint'} role="status">
              {message.text}
            </p>
          )}
          {fast.length > 0 && <FastSubtitles fast={fast} />}
        </div>
      )}
    </div>
  );
}

/** The subtitles that read too fast, in order: each goes to its moment in the player and the transcript. */
function FastSubtitles({ fast }: { fast: FastSubtitle[] }) {
  const t = useT();
  const id = useId();
  return (
    <section className="fast-subtitles" aria-labelledby={id}>
      <h3 id={id} className="fast-subtitles-title">
        {t('export.subtitles.fastList')}
      </h3>
      <ol>
        {fast.map((cue) => {
          const time = formatClock(cue.start);
          return (
            <li key={cue.index}>
              <button
                type="button"
                className="fast-subtitle"
                data-testid="fast-subtitle"
                aria-label={t('export.subtitles.fastJump', { index: cue.index, time })}
                onClick={() => usePlayerStore.getState().seek(cue.start)}
              >
                <span className="fast-subtitle-where">
                  {cue.index} · {time}
                </span>
                <span className="fast-subtitle-text">{cue.text.replace(/\n/g, ' ')}</span>
                <span className="fast-subtitle-cps">{t('export.subtitles.cps', { cps: cue.cps })}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
