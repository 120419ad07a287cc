import Fastify from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/error-codes.js';
import { EngineError } from '../../../../src-server/domain/engine-error.js';
import { engineErrorToAppError } from '../../../../src-server/application/engine-errors.js';
import { installErrorHandling } from '../../../../src-server/http/error-handler.js';
import { installRequestLogging, requestLogging } from '../../../../src-server/http/request-log.js';

describe('engineErrorToAppError', () => {
  it('answers 503 ENGINE_UNAVAILABLE for an engine that cannot run here', () => {
    const error = engineErrorToAppError(
      new EngineError('unavailable', 'The built-in speech engine cannot run on this server.', {
        detail: 'libpocketsphinx.so.3: not found',
      }),
    );
    expect(error).toMatchObject({
      statusCode: 503,
      code: 'ENGINE_UNAVAILABLE',
      message: 'The built-in speech engine cannot run on this server.',
    });
    expect(error.errorCode).toBe(ErrorCode.ENGINE_UNAVAILABLE);
    expect(error.detail).toBe('libpocketsphinx.so.3: not found');
    expect(error.logFields()).toEqual({ engine_error: 'unavailable', detail: 'libpocketsphinx.so.3: not found' });
  });

  it('answers 503 ENGINE_UNAVAILABLE for a passing failure too: the client may try again later', () => {
    expect(engineErrorToAppError(new EngineError('transient', 'busy'))).toMatchObject({
      statusCode: 503,
      code: 'ENGINE_UNAVAILABLE',
    });
  });

  it('answers 400 UNSUPPORTED_LANGUAGE for a language, UNSUPPORTED_OPTION for anything else, with the field', () => {
    expect(
      engineErrorToAppError(new EngineError('unsupported', 'Japanese needs another model.', { field: 'language' })),
    ).toMatchObject({
      statusCode: 400,
      code: 'UNSUPPORTED_LANGUAGE',
      field: 'language',
    });
    expect(engineErrorToAppError(new EngineError('unsupported', 'No streaming.', { field: 'stream' }))).toMatchObject({
      statusCode: 400,
      code: 'UNSUPPORTED_OPTION',
      field: 'stream',
    });
    expect(engineErrorToAppError(new EngineError('unsupported', 'No such pair.'))).toMatchObject({
      statusCode: 400,
      code: 'UNSUPPORTED_OPTION',
      field: undefined,
    });
  });

  it('answers 400 for bad input, and 415 when the uploaded file is not usable media', () => {
    expect(engineErrorToAppError(new EngineError('bad-input', 'The audio could not be decoded.'))).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
    });
    expect(engineErrorToAppError(new EngineError('bad-input', 'Too long.', { field: 'prompt' }))).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      field: 'prompt',
    });
    expect(
      engineErrorToAppError(
        new EngineError('bad-input', 'The file is not a readable audio or video file.', { field: 'file' }),
      ),
    ).toMatchObject({
      statusCode: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      field: 'file',
    });
  });
});

describe('the error handler with an EngineError', () => {
  const apps: ReturnType<typeof Fastify>[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  it('sends the user message and the field, never the detail', async () => {
    const logging = requestLogging(pino({ level: 'silent' }));
    const app = Fastify({ loggerInstance: logging.fastify });
    apps.push(app);
    installRequestLogging(app, logging);
    installErrorHandling(app);
    app.get('/fails', async () => {
      throw new EngineError('unsupported', 'Japanese needs a speech model that knows Japanese.', {
        field: 'language',
        detail: 'pocketsphinx at /usr/lib/x86_64-linux-gnu recognises en only',
      });
    });
    const response = await app.inject({ method: 'GET', url: '/fails' });
    expect(response.statusCode).toBe(400);
    const body = response.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      error_code: ErrorCode.UNSUPPORTED_LANGUAGE,
      error_message: 'Japanese needs a speech model that knows Japanese.',
      field: 'language',
    });
    expect(typeof body.error_id).toBe('string');
    expect(response.body).not.toContain('pocketsphinx');
  });
});
