// The media types and file names the file routes serve stored audio with (issue 22 item 2, decision 0043).
import { parse } from 'content-disposition';
import { describe, expect, it } from 'vitest';
import {
  acceptedMediaType,
  audioContentType,
  audioResponseHeaders,
} from '../../../../src-server/domain/served-audio.js';

describe('acceptedMediaType', () => {
  it('accepts audio and video types of a plain shape, lower-cased and without parameters', () => {
    expect(acceptedMediaType('audio/wav')).toBe('audio/wav');
    expect(acceptedMediaType('AUDIO/OGG; codecs=opus')).toBe('audio/ogg');
    expect(acceptedMediaType('video/vnd.dlna.mpeg-tts')).toBe('video/vnd.dlna.mpeg-tts');
    expect(acceptedMediaType(`audio/${'x'.repeat(64)}`)).toBe(`audio/${'x'.repeat(64)}`);
  });

  it('refuses anything else', () => {
    for (const value of [
      'audio/x,text/html',
      'audio/x\r\nSet-Cookie: a=b',
      'audio/x\ntext/html',
      'text/html',
      'image/svg+xml',
      'application/octet-stream',
      'audio/',
      'audio/x y',
      'audio/x"',
      `audio/${'x'.repeat(65)}`,
      'audio/wav/extra',
      ' ',
      '',
      null,
      undefined,
    ]) {
      expect(acceptedMediaType(value)).toBeNull();
    }
  });
});

describe('audioContentType', () => {
  it("prefers the name's extension, then an accepted client type, else octet-stream", () => {
    expect(audioContentType('meeting.mp3', 'text/html')).toBe('audio/mpeg');
    expect(audioContentType('page.html', 'audio/x,text/html')).toBe('application/octet-stream');
    expect(audioContentType('recording', 'audio/webm')).toBe('audio/webm');
    expect(audioContentType('recording', undefined)).toBe('application/octet-stream');
  });
});

describe('audioResponseHeaders', () => {
  it('serves a stored type of another shape as octet-stream', () => {
    expect(audioResponseHeaders({ name: 'a.wav', audioContentType: 'audio/x\r\nX: y' }).contentType).toBe(
      'application/octet-stream',
    );
    expect(audioResponseHeaders({ name: 'a.wav', audioContentType: null }).contentType).toBe(
      'application/octet-stream',
    );
    expect(audioResponseHeaders({ name: 'a.wav', audioContentType: 'audio/wav' }).contentType).toBe('audio/wav');
  });

  it('names the file in RFC 6266 form: ASCII fallback, UTF-8 filename*, no control characters or slashes', () => {
    const plain = audioResponseHeaders({ name: 'meeting.wav', audioContentType: null }).contentDisposition;
    expect(plain).toBe('attachment; filename=meeting.wav');
    const header = audioResponseHeaders({
      name: '会議 "第1回"\r\n../x\\y.wav',
      audioContentType: null,
    }).contentDisposition;
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''[A-Za-z0-9%._~!$&+^`|-]+$/);
    expect(header).not.toMatch(/[\r\n]/);
    expect(parse(header).parameters.filename).toBe('会議 "第1回"_.._x_y.wav');
    expect(audioResponseHeaders({ name: '\r\n', audioContentType: null }).contentDisposition).toBe(
      'attachment; filename=audio',
    );
  });
});
