// One vocabulary for speech models (issue 27, item 5): the catalogue says which model each file is a
// build of and what a compressed file keeps of its accuracy, so no client words a compressed file as
// accurate as the full one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogueFile, nameParts, OFFICIAL_MODELS } from '../../../../src-server/models/catalogue.js';

const byName = (name: string) => OFFICIAL_MODELS.find((m) => m.name === name)!;

describe('the catalogue names each file by its model', () => {
  it('groups the English-only and compressed files under their model', () => {
    expect(byName('small')).toMatchObject({ family: 'small', multilingual: true, precision: 'full' });
    expect(byName('small.en')).toMatchObject({ family: 'small', multilingual: false, precision: 'full' });
    expect(byName('small.en-q5_1')).toMatchObject({ family: 'small', multilingual: false, quantized: true });
    expect(byName('large-v3-turbo-q8_0')).toMatchObject({ family: 'large-v3-turbo', multilingual: true });
    expect(byName('large-v3-q5_0').family).toBe('large-v3');
    expect([...new Set(OFFICIAL_MODELS.map((m) => m.family))]).toEqual([
      'tiny',
      'base',
      'small',
      'medium',
      'large-v3-turbo',
      'large-v3',
    ]);
    // Every model has its full multilingual file: the head of its group.
    for (const family of new Set(OFFICIAL_MODELS.map((m) => m.family)))
      expect(
        OFFICIAL_MODELS.filter((m) => m.family === family && m.multilingual && m.precision === 'full'),
      ).toHaveLength(1);
  });

  it('never calls a compressed file full precision: 8 bits nearly as accurate, 5 bits less', () => {
    for (const m of OFFICIAL_MODELS) {
      if (!m.quantized) expect(m.precision).toBe('full');
      else expect(m.precision).toBe(m.name.endsWith('q8_0') ? 'near-full' : 'reduced');
    }
    expect(byName('base-q8_0').precision).toBe('near-full');
    expect(byName('base-q5_1').precision).toBe('reduced');
    expect(byName('medium.en-q5_0').precision).toBe('reduced');
  });

  it('reads the parts of any whisper.cpp name', () => {
    expect(nameParts('tiny.en-q5_1')).toEqual({ family: 'tiny', english: true, compression: 'q5_1' });
    expect(nameParts('large-v3-turbo')).toEqual({ family: 'large-v3-turbo', english: false, compression: undefined });
    expect(nameParts('my-model')).toEqual({ family: 'my-model', english: false, compression: undefined });
  });

  it('derives the model and precision of a replacement catalogue, or takes them as given', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-')), 'catalogue.json');
    const sha256 = 'a'.repeat(64);
    fs.writeFileSync(
      file,
      JSON.stringify({
        models: [
          { name: 'test-base', file: 'a.bin', bytes: 10, sha256, multilingual: true },
          { name: 'test-base-q5_1', file: 'b.bin', bytes: 5, sha256, multilingual: true },
          {
            name: 'mirror',
            file: 'c.bin',
            bytes: 5,
            sha256,
            multilingual: false,
            family: 'small',
            precision: 'near-full',
            quantized: true,
          },
        ],
      }),
    );
    expect(loadCatalogueFile(file).map((m) => [m.name, m.family, m.quantized, m.precision])).toEqual([
      ['test-base', 'test-base', false, 'full'],
      ['test-base-q5_1', 'test-base', true, 'reduced'],
      ['mirror', 'small', true, 'near-full'],
    ]);
  });
});
