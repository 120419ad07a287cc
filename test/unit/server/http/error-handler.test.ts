import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { installErrorHandling, validationField } from '../../../../src-server/http/error-handler.js';
import { errors } from '../../../../src-server/application/errors.js';
import { installRequestLogging, requestLogging } from '../../../../src-server/http/request-log.js';

const issue = (instancePath: string, keyword: string, params: Record<string, unknown> = {}) => ({
  instancePath,
  keyword,
  params,
});

describe('validationField', () => {
  it('turns the instance path into a dot-separated field', () => {
    expect(validationField([issue('/words/0/reading', 'maxLength', { limit: 400 })])).toBe('words.0.reading');
  });

  it('adds the property a required or additionalProperties issue names', () => {
    expect(validationField([issue('', 'required', { missingProperty: 'filename' })])).toBe('filename');
    expect(validationField([issue('/words/2', 'required', { missingProperty: 'word' })])).toBe('words.2.word');
    expect(validationField([issue('', 'additionalProperties', { additionalProperty: 'colour' })])).toBe('colour');
  });

  it('takes the deepest path among the branches of a union', () => {
    const issues = [
      issue('/language', 'type', { type: 'string' }),
      issue('/language/1', 'pattern'),
      issue('/language', 'anyOf'),
    ];
    expect(validationField(issues)).toBe('language.1');
  });

  it('decodes JSON Pointer escapes', () => {
    expect(validationField([issue('/a~1b/c~0d', 'type')])).toBe('a/b.c~d');
  });

  it('names no field when the whole body is wrong', () => {
    expect(validationField([issue('', 'type', { type: 'object' })])).toBeUndefined();
    expect(validationField([])).toBeUndefined();
  });
});

describe('the error body by route prefix', () => {
  it("answers OpenAI's body under /v1/ and the spec's elsewhere, for bugs, coded errors and unknown routes", async () => {
    const logging = requestLogging(pino({ level: 'silent' }));
    const app = Fastify({ loggerInstance: logging.fastify });
    installRequestLogging(app, logging);
    installErrorHandling(app);
    for (const prefix of ['/v1', '/api/v1']) {
      app.get(`${prefix}/bug`, () => {
        throw new Error('a bug');
      });
      app.get(`${prefix}/bad`, () => {
        throw errors.validation('model "x" is not available.', 'model');
      });
    }
    const get = async (url: string) => {
      const response = await app.inject({ method: 'GET', url });
      return { status: response.statusCode, body: response.json<Record<string, any>>() };
    };

    const bug = await get('/v1/bug');
    expect(bug).toEqual({
      status: 500,
      body: {
        error: {
          message: expect.stringMatching(/Internal server error.*error_id/),
          type: 'server_error',
          param: null,
          code: 'internal_error',
          error_id: expect.any(String),
        },
      },
    });
    expect(await get('/v1/bad?x=1')).toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_request_error', param: 'model', code: 'validation_failed' } },
    });
    expect(await get('/v1/nothing')).toMatchObject({
      status: 404,
      body: { error: { code: 'route_not_found', param: null } },
    });
    expect(await get('/v1')).toMatchObject({ status: 404, body: { error: { code: 'route_not_found' } } });

    expect((await get('/api/v1/bug')).body).toEqual({
      error_id: expect.any(String),
      error_code: 1000,
      error_message: expect.any(String),
    });
    expect((await get('/api/v1/bad')).body).toMatchObject({ error_code: 4000, field: 'model' });
    expect((await get('/v1x/nothing')).body).toMatchObject({ error_code: 4040 });
    await app.close();
  });
});
