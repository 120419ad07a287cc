// The dictionaries a menu offers, in one place for every menu that picks one (upload options, re-runs,
// Apply dictionary…). Temporary dictionaries (made from an upload's ad-hoc words) are left out unless
// one is the current choice. Two dictionaries may share a name (the API allows it): the menu tells them
// apart by the date each was created (docs/decisions/0022-duplicate-dictionary-names.md).
import type { DictionarySummary } from '../../../src-shared/ipc-contract';
import { useLocale } from '../../i18n/use-t';

/** Each dictionary's label: its name, with its creation date when another one has the same name. */
export function dictionaryLabels(list: readonly DictionarySummary[], locale: string): Map<string, string> {
  const byName = new Map<string, number>();
  for (const d of list)
    byName.set(d.name.trim().toLocaleLowerCase(), (byName.get(d.name.trim().toLocaleLowerCase()) ?? 0) + 1);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return new Map(
    list.map((d) => [
      d.id,
      (byName.get(d.name.trim().toLocaleLowerCase()) ?? 0) > 1
        ? `${d.name} (${date.format(new Date(d.createdAt))})`
        : d.name,
    ]),
  );
}

export function DictionaryOptions({
  dictionaries,
  current,
}: {
  dictionaries: readonly DictionarySummary[];
  current?: string | null;
}) {
  const locale = useLocale();
  const shown = dictionaries.filter((dictionary) => !dictionary.isTemporary || dictionary.id === current);
  const labels = dictionaryLabels(shown, locale);
  return (
    <>
      {shown.map((dictionary) => (
        <option key={dictionary.id} value={dictionary.id}>
          {labels.get(dictionary.id)}
        </option>
      ))}
    </>
  );
}
