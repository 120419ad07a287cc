// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DictionarySummary } from '../../../../src-shared/ipc-contract';
import { DictionaryOptions, dictionaryLabels } from '../../../../src-renderer/features/dictionaries/dictionary-options';

const dictionary = (id: string, name: string, createdAt: string, isTemporary = false): DictionarySummary => ({
  id,
  name,
  isTemporary,
  createdAt,
  updatedAt: createdAt,
});
const list = [
  dictionary('a', 'Products', '2026-03-01T09:30:00Z'),
  dictionary('b', 'products ', '2026-05-12T14:00:00Z'),
  dictionary('c', 'People', '2026-05-12T14:00:00Z'),
  dictionary('t', 'Products', '2026-06-01T08:00:00Z', true),
];
afterEach(cleanup);

describe('dictionary choices', () => {
  it('tell dictionaries with the same name apart by their creation date, and leave unique names alone', () => {
    const labels = dictionaryLabels(list.slice(0, 3), 'en-US');
    expect(labels.get('a')).toMatch(/^Products \(Mar 1, 2026, \d+:30:00\s?[AP]M\)$/);
    expect(labels.get('b')).toMatch(/^products  \(May 12, 2026, /);
    expect(labels.get('a')).not.toBe(labels.get('b'));
    expect(labels.get('c')).toBe('People');
  });

  it('tell apart two made within the same minute by the second, and number two made in the same second', () => {
    const labels = dictionaryLabels(
      [
        dictionary('x', 'Names', '2026-05-12T14:00:05Z'),
        dictionary('y', 'Names', '2026-05-12T14:00:41Z'),
        dictionary('z', 'Names', '2026-05-12T14:00:41.500Z'),
      ],
      'en-US',
    );
    expect(labels.get('x')).toMatch(/:00:05\s?[AP]M\)$/);
    expect(labels.get('y')).toMatch(/:00:41\s?[AP]M\)$/);
    expect(labels.get('z')).toMatch(/:00:41\s?[AP]M\) #2$/);
  });

  it('offer no temporary dictionary unless it is the current choice, and no name twice', () => {
    const { container, rerender } = render(
      <select>
        <DictionaryOptions dictionaries={list} />
      </select>,
    );
    const texts = () => [...container.querySelectorAll('option')].map((o) => o.textContent);
    expect([...container.querySelectorAll('option')].map((o) => o.value)).toEqual(['a', 'b', 'c']);
    expect(new Set(texts()).size).toBe(3);
    rerender(
      <select>
        <DictionaryOptions dictionaries={list} current="t" />
      </select>,
    );
    expect([...container.querySelectorAll('option')].map((o) => o.value)).toEqual(['a', 'b', 'c', 't']);
    expect(new Set(texts()).size).toBe(4);
  });
});
