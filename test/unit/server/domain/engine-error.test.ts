import { describe, expect, it } from 'vitest';
import { EngineError, isEngineError, operatorMessage } from '../../../../src-server/domain/engine-error.js';

describe('EngineError', () => {
  it('retries only what is transient', () => {
    expect(new EngineError('transient', 'busy').retryable).toBe(true);
    for (const kind of ['unavailable', 'unsupported', 'bad-input'] as const)
      expect(new EngineError(kind, 'no').retryable).toBe(false);
  });

  it('tells kinds apart without looking at the message', () => {
    const error = new EngineError('unavailable', 'The speech engine cannot run on this server.');
    expect(isEngineError(error)).toBe(true);
    expect(isEngineError(error, 'unavailable')).toBe(true);
    expect(isEngineError(error, 'transient')).toBe(false);
    expect(isEngineError(new Error('unavailable'))).toBe(false);
  });

  it('gives operators the message and the detail, users only the message', () => {
    const error = new EngineError('unavailable', 'No remote speech service is configured on this server.', {
      detail: 'set KIKITORI_REMOTE_ASR_BASE_URL',
    });
    expect(error.message).not.toContain('KIKITORI_');
    expect(operatorMessage(error)).toBe(
      'No remote speech service is configured on this server. (set KIKITORI_REMOTE_ASR_BASE_URL)',
    );
    expect(operatorMessage(new EngineError('bad-input', 'Empty.'))).toBe('Empty.');
    expect(operatorMessage(new Error('plain'))).toBe('plain');
    expect(operatorMessage('text')).toBe('text');
  });
});
