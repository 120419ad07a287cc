import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppFailure } from '../../../../src-main/app-failure.js';
import { isInside, pathInside, safeFileName } from '../../../../src-main/cache/safe-path.js';

const root = path.resolve('/tmp/kikitori-cache/audio');

describe('pathInside', () => {
  it('joins plain ids and names under the root', () => {
    expect(pathInside(root, '3f2a9c4e-1b7d-4c1e-9a8b-0d6e5f4a3b2c.wav')).toBe(
      path.join(root, '3f2a9c4e-1b7d-4c1e-9a8b-0d6e5f4a3b2c.wav'),
    );
    expect(pathInside(root, 'profile-1', 'peaks', 'x.json')).toBe(path.join(root, 'profile-1', 'peaks', 'x.json'));
    expect(pathInside(root, '...json')).toBe(path.join(root, '...json'));
  });

  it.each([
    ['../../evil', 'a parent path'],
    ['..', 'the parent'],
    ['.', 'the root itself'],
    ['', 'an empty id'],
    ['a/b', 'a slash'],
    ['a\\..\\..\\evil', 'a backslash (Windows separator)'],
    ['/etc/passwd', 'an absolute path'],
    ['C:evil', 'a drive letter'],
    ['evil\u0000.wav', 'NUL'],
    ['line\nbreak', 'a control character'],
    ['x'.repeat(256), 'a name too long for a file system'],
  ])('refuses %j (%s) with an AppFailure', (id) => {
    let thrown: unknown;
    try {
      pathInside(root, id);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppFailure);
    expect((thrown as AppFailure).code).toBe('server');
    expect((thrown as AppFailure).error.reason).toBe('app.unsafe-file-name');
  });

  it('checks every segment', () => {
    expect(() => pathInside(root, 'ok', '..', 'evil')).toThrow(AppFailure);
    expect(() => pathInside(root, 'ok', 'a/../../b')).toThrow(AppFailure);
  });
});

describe('isInside', () => {
  it('is true only strictly below the root', () => {
    expect(isInside(root, path.join(root, 'a.wav'))).toBe(true);
    expect(isInside(root, path.join(root, 'sub', 'a.wav'))).toBe(true);
    expect(isInside(root, path.join(root, '..x'))).toBe(true);
    expect(isInside(root, root)).toBe(false);
    expect(isInside(root, path.join(root, '..', 'evil.wav'))).toBe(false);
    expect(isInside(root, `${root}-sibling/a.wav`)).toBe(false);
    expect(isInside(root, '/etc/passwd')).toBe(false);
  });
});

describe('safeFileName', () => {
  it('keeps the last part of a name, without characters files cannot have', () => {
    expect(safeFileName('meeting.wav', 'transcript')).toBe('meeting.wav');
    expect(safeFileName('../../.bashrc', 'transcript')).toBe('bashrc');
    expect(safeFileName('C:\\Users\\x\\evil:stream.wav', 'transcript')).toBe('evil_stream.wav');
    expect(safeFileName('a\u0000b?.wav', 'transcript')).toBe('a_b_.wav');
    expect(safeFileName('../', 'transcript')).toBe('transcript');
  });
});
