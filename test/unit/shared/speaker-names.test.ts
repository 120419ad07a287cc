import { describe, expect, it } from 'vitest';
import {
  nextSpeakerLabel,
  speakerDisplayName,
  speakerOrder,
  withSpeakerNames,
} from '../../../src-shared/speaker-names.js';

const names = (labels: string[]) => {
  const order = speakerOrder(labels.map((speaker) => ({ speaker })));
  return Object.fromEntries(order.map((label) => [label, speakerDisplayName(label, {}, order, 'Speaker')]));
};

describe('speaker display names', () => {
  it('gives a new speaker split off mid-transcript the next free number and leaves the others their names', () => {
    const before = ['SPEAKER_1', 'SPEAKER_2', 'SPEAKER_1'];
    const added = nextSpeakerLabel(before);
    expect(added).toBe('SPEAKER_3');
    // The split puts the new speaker before SPEAKER_2's first segment.
    const after = ['SPEAKER_1', added, 'SPEAKER_2', 'SPEAKER_1'];
    expect(names(before)).toEqual({ SPEAKER_1: 'Speaker 1', SPEAKER_2: 'Speaker 2' });
    expect(names(after)).toEqual({ SPEAKER_1: 'Speaker 1', SPEAKER_2: 'Speaker 2', SPEAKER_3: 'Speaker 3' });
  });

  it('numbers other labels by first appearance in the numbers no SPEAKER_n holds, and a new one above them all', () => {
    expect(names(['guest', 'SPEAKER_2', 'host'])).toEqual({
      guest: 'Speaker 1',
      SPEAKER_2: 'Speaker 2',
      host: 'Speaker 3',
    });
    const labels = ['A', 'B'];
    const added = nextSpeakerLabel(labels);
    expect(added).toBe('SPEAKER_3');
    expect(names([added, ...labels])).toEqual({ SPEAKER_3: 'Speaker 3', A: 'Speaker 1', B: 'Speaker 2' });
  });

  it('exports show the same names as the app', () => {
    const document = { segments: [{ speaker: 'SPEAKER_1' }, { speaker: 'SPEAKER_3' }, { speaker: 'SPEAKER_2' }] };
    expect(withSpeakerNames(document, { SPEAKER_2: 'Dana' }, '話者').segments.map((s) => s.speaker)).toEqual([
      '話者 1',
      '話者 3',
      'Dana',
    ]);
  });
});
