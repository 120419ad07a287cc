// Hostile input on the voice library's channels (decision 0075): the renderer is treated as compromised.
import { describe, expect, it } from 'vitest';
import { AppFailure } from '../../../../src-main/app-failure.js';
import { validateRequest } from '../../../../src-main/ipc/request-validator.js';

function refusal(channel: Parameters<typeof validateRequest>[0], request: unknown): AppFailure {
  try {
    validateRequest(channel, request as never);
  } catch (error) {
    if (error instanceof AppFailure) return error;
    throw error;
  }
  throw new Error(`${channel} accepted ${JSON.stringify(request).slice(0, 200)}`);
}

const ID = '5b0d6c3e-8a53-4a8f-9a53-0f1f3f2c9d11';
const VOICE = 'spk_01HZX';

describe('voice library requests', () => {
  it('"This is…" takes a transcription, a speaker label and an existing voice or a new name (trimmed)', () => {
    expect(validateRequest('voices:identify', { id: ID, speaker: 'SPEAKER_1', voice: { id: VOICE } })).toEqual({
      id: ID,
      speaker: 'SPEAKER_1',
      voice: { id: VOICE },
    });
    expect(validateRequest('voices:identify', { id: ID, speaker: 'SPEAKER_1', voice: { name: '  Alice ' } })).toEqual({
      id: ID,
      speaker: 'SPEAKER_1',
      voice: { name: 'Alice' },
    });
    const hostile: unknown[] = [
      { id: ID, speaker: 'SPEAKER_1', voice: { name: 'x'.repeat(101) } },
      { id: ID, speaker: 'SPEAKER_1', voice: { name: '   ' } },
      { id: ID, speaker: 'SPEAKER_1', voice: { name: 42 } },
      { id: ID, speaker: 'SPEAKER_1', voice: { id: VOICE, name: 'Alice' } },
      { id: ID, speaker: 'SPEAKER_1', voice: { id: '../speakers/other' } },
      { id: ID, speaker: 'SPEAKER_1', voice: { id: '' } },
      { id: ID, speaker: 'SPEAKER_1', voice: {} },
      { id: ID, speaker: 'SPEAKER_1', voice: 'Alice' },
      { id: ID, speaker: 'SPEAKER_1' },
      { id: ID, speaker: 'x'.repeat(201), voice: { id: VOICE } },
      { id: ID, speaker: '', voice: { id: VOICE } },
      { id: '../../etc/passwd', speaker: 'SPEAKER_1', voice: { id: VOICE } },
      { id: ID, speaker: 'SPEAKER_1', voice: { id: VOICE }, samples: [{ start: 0, end: 600 }] },
      { id: ID, speaker: 'SPEAKER_1', voice: { id: VOICE }, baseUrl: 'http://attacker.example' },
      null,
      'SPEAKER_1',
      [ID, 'SPEAKER_1'],
    ];
    for (const request of hostile) expect(refusal('voices:identify', request).code).toBe('validation');
  });

  it('rename and delete take a voice id; a rename a name of at most 100 characters', () => {
    expect(validateRequest('voices:rename', { id: VOICE, name: ' Alice Smith ' })).toEqual({
      id: VOICE,
      name: 'Alice Smith',
    });
    expect(validateRequest('voices:delete', { id: VOICE })).toEqual({ id: VOICE });
    const renames: [unknown, string][] = [
      [{ id: VOICE, name: 'x'.repeat(101) }, 'name'],
      [{ id: VOICE, name: '' }, 'name'],
      [{ id: VOICE, name: ['Alice'] }, 'name'],
      [{ id: 'a b', name: 'Alice' }, 'id'],
      [{ id: 'x'.repeat(201), name: 'Alice' }, 'id'],
      [{ id: VOICE, name: 'Alice', team_id: 'other' }, 'team_id'],
    ];
    for (const [request, field] of renames) {
      const error = refusal('voices:rename', request);
      expect(error.code).toBe('validation');
      expect(error.field).toBe(field);
    }
    for (const request of [{}, { id: '..\\other' }, { id: VOICE, force: true }, null, VOICE]) {
      expect(refusal('voices:delete', request).code).toBe('validation');
    }
  });

  it('the parts of a voice take a voice id; forgetting one a voice id and a sample id, nothing else', () => {
    expect(validateRequest('voices:samples', { id: VOICE })).toEqual({ id: VOICE });
    expect(validateRequest('voices:remove-sample', { id: VOICE, sampleId: 'smp_9' })).toEqual({
      id: VOICE,
      sampleId: 'smp_9',
    });
    const hostile: [Parameters<typeof validateRequest>[0], unknown][] = [
      ['voices:samples', {}],
      ['voices:samples', { id: '../speakers/other' }],
      ['voices:samples', { id: VOICE, team_id: 'globex' }],
      ['voices:samples', VOICE],
      ['voices:remove-sample', { id: VOICE }],
      ['voices:remove-sample', { id: VOICE, sampleId: '' }],
      ['voices:remove-sample', { id: VOICE, sampleId: 'a/../b' }],
      ['voices:remove-sample', { id: VOICE, sampleId: 'x'.repeat(201) }],
      ['voices:remove-sample', { id: VOICE, sampleId: ['smp_1', 'smp_2'] }],
      ['voices:remove-sample', { id: VOICE, sampleId: 'smp_1', add_samples: [{ start: 0, end: 600 }] }],
      ['voices:remove-sample', null],
    ];
    for (const [channel, request] of hostile) expect(refusal(channel, request).code).toBe('validation');
  });

  it('the list takes nothing', () => {
    expect(() => validateRequest('voices:list', undefined)).not.toThrow();
    expect(refusal('voices:list', { teamId: 'other' }).code).toBe('validation');
  });
});
