// The dictionaries a menu offers, in one place for every menu that picks one (upload options, re-runs,
// Apply dictionary…). Temporary dictionaries (made from an upload's ad-hoc words) are left out unless
// one is the current choice. Two dictionaries may share a name (the API allows it): the menu tells them
// apart by the date each was created (docs/decisions/0022-duplicate-dictionary-names.md).
import type { DictionarySummary } from '../../../src-shared/ipc-contract';
import { useLocale } from '../../i18n/use-t';

/**
 * Each dictionary's label: its name, with its creation date and time to the second when another one has
 * the same name (two made within a minute read the same to the minute); numbered when even that is shared.
 */
export function dictionaryLabels(list: readonly DictionarySummary[], locale: string): Map<string, string> {
  const byName = new Map<string, number>();
  for (const d of list)
    byName.set(d.name.trim().toLocaleLowerCase(), (byName.get(d.name.trim().toLocaleLowerCase()) ?? 0) + 1);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  const labels = list.map((d) => ({
    id: d.id,
    label:
      (byName.get(d.name.trim().toLocaleLowerCase()) ?? 0) > 1
        ? `${d.name} (${date.format(new Date(d.createdAt))})`
        : d.name,
  }));
  const seen = new Map<string, number>();
  return new Map(
    labels.map(({ id, label }) => {
      const n = (seen.get(label) ?? 0) + 1;
      seen.set(label, n);
      return [id, n > 1 ? `${label} #${n}` : label];
    }),
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
