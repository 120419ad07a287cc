// "Apply dictionary…": a dictionary's forced replacements applied to this finished transcript on the
// server, without transcribing again. The rewritten words are then marked in the transcript.
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../i18n/use-t';
import { useEscape } from '../../lib/use-escape';
import { useOutsideClick } from '../../lib/use-outside-click';
import { usePopoverPlacement } from '../../lib/use-popover-placement';
import { useDictionariesStore } from '../../stores/dictionaries-store';
import { useTranscriptStore } from '../../stores/transcript-store';
import { DictionaryOptions } from '../dictionaries/dictionary-options';
import { useErrorText } from '../../i18n/error-text';

const OWN = '';

/** How many words the dictionaries applied so far have rewritten in the open transcript, as the document records. */
const replacedSoFar = () =>
  (useTranscriptStore.getState().detail?.document?.replacements ?? []).reduce((sum, r) => sum + r.count, 0);

export function ApplyDictionaryMenu() {
  const t = useT();
  const errorText = useErrorText();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState(OWN);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean; field: boolean } | null>(null);
  const dictionaries = useDictionariesStore((state) => state.list);
  const applyDictionary = useTranscriptStore((state) => state.applyDictionary);
  const opener = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const anchor = useRef<HTMLDivElement>(null);
  useEscape(open, () => setOpen(false), opener);
  useOutsideClick(open, () => setOpen(false), anchor);
  const placement = usePopoverPlacement(open, opener, panel);
  useEffect(() => {
    if (open) void useDictionariesStore.getState().load();
  }, [open]);

  const apply = async () => {
    setBusy(true);
    setMessage(null);
    const before = replacedSoFar();
    const error = await applyDictionary(choice === OWN ? null : choice);
    setBusy(false);
    if (error)
      setMessage({
        text: errorText(error),
        error: true,
        field: error.field === 'dictionaryId' || error.field === 'dictionary_id',
      });
    else {
      // Edits still waiting to be sent keep this computer's copy as it was: the count is only known without them.
      const none = !useTranscriptStore.getState().detail?.unsyncedEdits && replacedSoFar() === before;
      const text = t(none ? 'transcript.applyDictionary.none' : 'transcript.applyDictionary.done');
      setMessage({ text, error: false, field: false });
    }
  };

  return (
    <div ref={anchor} className="popover-anchor">
      <button
        ref={opener}
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        {t('transcript.applyDictionary.button')}
      </button>
      {open && (
        <div
          ref={panel}
          id={`${id}-panel`}
          className={`popover ${placement.className}`}
          style={placement.style}
          role="dialog"
          aria-label={t('transcript.applyDictionary.heading')}
        >
          <h2 className="section-title">{t('transcript.applyDictionary.heading')}</h2>
          <p className="hint">{t('transcript.applyDictionary.hint')}</p>
          <label htmlFor={`${id}-dictionary`}>{t('transcript.applyDictionary.dictionary')}</label>
          <select
            id={`${id}-dictionary`}
            value={choice}
            aria-invalid={message?.field ? true : undefined}
            aria-describedby={message ? `${id}-message` : undefined}
            onChange={(event) => setChoice(event.target.value)}
          >
            <option value={OWN}>{t('transcript.applyDictionary.own')}</option>
            <DictionaryOptions dictionaries={dictionaries} />
          </select>
          {message && (
            <p
              id={`${id}-message`}
              className={message.error ? 'field-error' : 'hint'}
              role={message.error ? 'alert' : 'status'}
            >
              {message.text}
            </p>
          )}
          <div className="row-actions">
            <button type="button" className="button primary" disabled={busy} onClick={() => void apply()}>
              {t('transcript.applyDictionary.apply')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
