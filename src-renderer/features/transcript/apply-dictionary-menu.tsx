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

/** The transcription's own dictionary: the server applies the one it was transcribed with. */
const OWN = 'own';

/** How many words the dictionaries applied so far have rewritten in the open transcript, as the document records. */
const replacedSoFar = () =>
  (useTranscriptStore.getState().detail?.document?.replacements ?? []).reduce((sum, r) => sum + r.count, 0);

export function ApplyDictionaryMenu() {
  const t = useT();
  const errorText = useErrorText();
  const id = useId();
  const [open, setOpen] = useState(false);
  // Null until the user picks: then the transcription's own dictionary when it has one, else the first listed.
  const [picked, setPicked] = useState<string | null>(null);
  // The list is fetched on each opening; until it answers, a menu of only "its own" would look like all there is.
  const [listed, setListed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean; field: boolean } | null>(null);
  const dictionaries = useDictionariesStore((state) => state.list);
  const ownId = useTranscriptStore((state) => state.detail?.summary.dictionaryId ?? null);
  const hasOwn = ownId !== null;
  // The dictionary it was transcribed with, when it is one of the listed ones: named, and not listed twice.
  const ownListed = dictionaries.find((dictionary) => dictionary.id === ownId && !dictionary.isTemporary);
  const firstListed = dictionaries.find((dictionary) => !dictionary.isTemporary)?.id;
  const choice = picked ?? (hasOwn ? OWN : (firstListed ?? ''));
  const loading = !listed && dictionaries.length === 0;
  const applyDictionary = useTranscriptStore((state) => state.applyDictionary);
  const opener = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const anchor = useRef<HTMLDivElement>(null);
  useEscape(open, () => setOpen(false), opener);
  useOutsideClick(open, () => setOpen(false), anchor);
  const placement = usePopoverPlacement(open, opener, panel);
  useEffect(() => {
    if (!open) return;
    let current = true;
    setListed(false);
    void useDictionariesStore
      .getState()
      .load()
      .finally(() => current && setListed(true));
    return () => {
      current = false;
    };
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
            value={loading ? '' : choice}
            aria-busy={loading || undefined}
            aria-invalid={message?.field ? true : undefined}
            aria-describedby={message ? `${id}-message` : undefined}
            onChange={(event) => setPicked(event.target.value)}
          >
            {loading && (
              <option value="" disabled>
                {t('transcript.applyDictionary.loading')}
              </option>
            )}
            {hasOwn && !loading && (
              <option value={OWN}>
                {ownListed
                  ? t('transcript.applyDictionary.ownNamed', { name: ownListed.name })
                  : t('transcript.applyDictionary.own')}
              </option>
            )}
            <DictionaryOptions
              dictionaries={ownListed ? dictionaries.filter((dictionary) => dictionary !== ownListed) : dictionaries}
            />
          </select>
          {!loading && choice === '' && <p className="hint">{t('transcript.applyDictionary.noDictionaries')}</p>}
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
            <button
              type="button"
              className="button primary"
              disabled={busy || loading || choice === ''}
              onClick={() => void apply()}
            >
              {t('transcript.applyDictionary.apply')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
