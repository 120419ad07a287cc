import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { redactingLogger, redactUrl } from '../../../../src-server/http/log-redaction.js';

describe('redactUrl', () => {
  it('drops the whole query of signed-URL routes', () => {
    expect(redactUrl('/files/audio/abc?expires=1790000000&signature=Zm9vYmFy')).toBe('/files/audio/abc?[redacted]');
    expect(redactUrl('/files/upload/abc')).toBe('/files/upload/abc');
  });

  it('keeps other queries but hides signing parameters wherever they appear', () => {
    expect(redactUrl('/api/v1/transcriptions?page=2')).toBe('/api/v1/transcriptions?page=2');
    expect(redactUrl('/api/v1/x?a=1&SIGNATURE=abc&expires=9&b=2')).toBe(
      '/api/v1/x?a=1&SIGNATURE=[redacted]&expires=[redacted]&b=2',
    );
  });
});

describe('redactingLogger', () => {
  it('censors key headers wherever a line nests them, at every level', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = redactingLogger(pino({ level: 'trace' }, sink));
    const headers = { 'x-api-key': 'kk_secret1', authorization: 'Bearer kk_secret2', accept: 'application/json' };
    logger.trace({ headers }, 'a');
    logger.info({ req: { headers } }, 'b');
    logger.error({ err: { headers } }, 'c');
    const text = lines.join('');
    expect(lines).toHaveLength(3);
    expect(text).not.toMatch(/kk_secret/);
    expect(text).toContain('application/json');
  });
});
