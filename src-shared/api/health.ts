import { Type } from 'typebox';
import { errorResponses } from './common.js';

const ComponentHealth = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('failing')]),
  detail: Type.Optional(Type.String({ description: 'Ok: e.g. the queue backlog. Failing: why, in a few words.' })),
});

const Components = Type.Record(Type.String(), ComponentHealth, {
  description: 'database, storage, queue, and for the `all` role the worker process that runs the jobs.',
});

export const getHealth = {
  method: 'GET',
  path: '/healthz',
  schema: {
    summary: 'Health of this server and what it depends on (no API key, never rate-limited)',
    description:
      '200 when every component is ok; 503 with the error body (UNHEALTHY) and the same components otherwise.',
    tags: ['health'],
    security: [],
    response: {
      200: Type.Object({ status: Type.Literal('ok'), role: Type.String(), components: Components }),
      503: Type.Object({
        error_id: Type.String(),
        error_code: Type.Number(),
        error_message: Type.String(),
        status: Type.Literal('failing'),
        role: Type.String(),
        components: Components,
      }),
    },
  },
} as const;

export const getReadiness = {
  method: 'GET',
  path: '/readyz',
  schema: {
    summary: 'Whether a load balancer should send requests here (no API key, never rate-limited)',
    description: '200 once started; 503 (NOT_READY) while shutting down or when the database cannot be reached.',
    tags: ['health'],
    security: [],
    response: { 200: Type.Object({ status: Type.Literal('ready') }), ...errorResponses(503) },
  },
} as const;
