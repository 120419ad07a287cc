// Languages by name: a searchable list in the UI language (English and Japanese names and the code
// all match), the code under each name, several allowed. Chosen languages show as chips with a remove
// button. "Detect automatically" is offered only when the serving engine can detect; languages the
// engine does not know are marked as needing a speech model and cannot be chosen. A combobox with a
// listbox (WAI-ARIA): arrows move, Enter chooses, Escape closes, Backspace on an empty search removes
// the last chip.
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ServingEngine } from '../../../src-shared/ipc-contract';
import {
  languageList,
  languageName,
  languageOptions,
  LANGUAGE_CODES,
  searchLanguages,
  type LanguageOption,
} from '../../../src-shared/languages';
import { useT } from '../../i18n/use-t';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';

export interface LanguagePickerProps {
  /** The id of the search input, for the form's <label htmlFor>. */
  id: string;
  value: readonly string[];
  onChange: (codes: string[]) => void;
  /** What recognizes speech now; null when the server does not say, undefined while loading. */
  serving: ServingEngine | null | undefined;
  /** At most this many languages (the API takes 10). */
  max?: number;
  describedBy?: string;
  invalid?: boolean;
  testId?: string;
}

const DETECT = 'detect';

type Row = { kind: 'detect' } | { kind: 'language'; option: LanguageOption; known: boolean };

export function LanguagePicker({
  id,
  value,
  onChange,
  serving,
  max = 10,
  describedBy,
  invalid,
  testId = 'language-input',
}: LanguagePickerProps) {
  const t = useT();
  const locale = useSettingsStore(selectUiLanguage);
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);

  const known = useMemo(() => (serving ? new Set(serving.languages) : null), [serving]);
  const detects = serving?.detectsLanguage === true;
  const options = useMemo(() => {
    const all = languageOptions(locale, [...LANGUAGE_CODES, ...(serving?.languages ?? [])]);
    if (!known) return all;
    // What the engine knows first, then what needs another speech model.
    return [...all.filter((o) => known.has(o.code)), ...all.filter((o) => !known.has(o.code))];
  }, [locale, serving, known]);

  const rows: Row[] = useMemo(() => {
    const found = searchLanguages(options, query).map((option): Row => ({
      kind: 'language',
      option,
      known: !known || known.has(option.code),
    }));
    const sorted = known
      ? [
          ...found.filter((r) => r.kind === 'language' && r.known),
          ...found.filter((r) => r.kind === 'language' && !r.known),
        ]
      : found;
    return detects && !query.trim() ? [{ kind: 'detect' }, ...sorted] : sorted;
  }, [options, query, known, detects]);

  const chosen = new Set(value);
  const full = value.length >= max;
  const activeIndex = Math.min(active, rows.length - 1);
  const optionId = (row: Row) => `${listId}-${row.kind === 'detect' ? DETECT : row.option.code}`;
  const selectable = (row: Row) => row.kind === 'detect' || (row.known && (chosen.has(row.option.code) || !full));

  const choose = (row: Row) => {
    if (!selectable(row)) return;
    if (row.kind === 'detect') {
      onChange([]);
    } else {
      const code = row.option.code;
      onChange(chosen.has(code) ? value.filter((c) => c !== code) : [...value, code]);
    }
    setQuery('');
    setActive(0);
    inputRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!open) return setOpen(true);
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((activeIndex + step + rows.length) % Math.max(rows.length, 1));
        return;
      }
      case 'Home':
      case 'End':
        if (!open) return;
        event.preventDefault();
        setActive(event.key === 'Home' ? 0 : rows.length - 1);
        return;
      case 'Enter': {
        if (!open) return;
        event.preventDefault();
        const row = rows[activeIndex];
        if (row) choose(row);
        return;
      }
      case 'Escape':
        if (open) {
          event.preventDefault();
          setOpen(false);
        } else if (query) {
          event.preventDefault();
          setQuery('');
        }
        return;
      case 'Backspace':
        if (!query && value.length > 0) onChange(value.slice(0, -1));
        return;
    }
  };

  const activeRow = open ? rows[activeIndex] : undefined;
  return (
    <div className="language-picker" data-testid="language-picker">
      <ul className="language-chips" aria-label={t('language.chosen')}>
        {value.length === 0 ? (
          <li className="language-chip language-chip-empty">
            {detects ? t('language.detect') : t('language.noneChosen')}
          </li>
        ) : (
          value.map((code) => {
            const name = languageName(code, locale);
            const unknown = known !== null && !known.has(code);
            return (
              <li
                key={code}
                className="language-chip"
                data-code={code}
                data-unknown={unknown || undefined}
                title={unknown ? t('language.needsModel') : undefined}
              >
                <span>{name}</span>
                <span className="language-code">{code}</span>
                <button
                  type="button"
                  className="language-chip-remove"
                  aria-label={t('language.remove', { name })}
                  onClick={() => onChange(value.filter((c) => c !== code))}
                >
                  ×
                </button>
              </li>
            );
          })
        )}
      </ul>
      <input
        ref={inputRef}
        id={id}
        data-testid={testId}
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeRow ? optionId(activeRow) : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        placeholder={t('language.search')}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-multiselectable="true"
        aria-label={t('language.list')}
        className="language-list"
        hidden={!open}
      >
        {open && rows.length === 0 && (
          <li className="language-empty" role="presentation">
            {t('language.noMatch', { query: query.trim() })}
          </li>
        )}
        {open &&
          rows.map((row, index) => {
            const selected = row.kind === 'detect' ? value.length === 0 : chosen.has(row.option.code);
            const disabled = !selectable(row);
            return (
              <li
                key={optionId(row)}
                id={optionId(row)}
                role="option"
                aria-selected={selected}
                aria-disabled={disabled || undefined}
                data-active={index === activeIndex || undefined}
                data-code={row.kind === 'detect' ? undefined : row.option.code}
                className="language-option"
                // Keep the focus in the search box: a click chooses without blurring it.
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => choose(row)}
              >
                <span className="language-check" aria-hidden="true">
                  {selected ? '✓' : ''}
                </span>
                {row.kind === 'detect' ? (
                  <span className="language-option-name">{t('language.detect')}</span>
                ) : (
                  <span className="language-option-text">
                    <span className="language-option-name">{row.option.name}</span>
                    <small className="language-code">
                      {row.option.code}
                      {row.option.name !== row.option.english && locale !== 'en' ? ` · ${row.option.english}` : ''}
                      {!row.known ? ` · ${t('language.needsModel')}` : ''}
                    </small>
                  </span>
                )}
              </li>
            );
          })}
      </ul>
    </div>
  );
}

/**
 * What the form says under the picker: how an empty choice is treated, or which language the engine uses.
 * In Settings (`where`), the speech models are in the section above, not somewhere else to go.
 */
export function languageHint(
  t: ReturnType<typeof useT>,
  serving: ServingEngine | null | undefined,
  locale: string,
  where: 'form' | 'settings' = 'form',
): string {
  if (!serving) return t('language.hint.unknown');
  if (serving.detectsLanguage) return t('language.hint.detects');
  const languages = languageList(serving.languages, locale);
  return t(where === 'settings' ? 'language.hint.cannotDetect.above' : 'language.hint.cannotDetect', { languages });
}
