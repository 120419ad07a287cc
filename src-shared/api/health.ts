import { Type } from 'typebox';

export const getHealth = {
  method: 'GET',
  path: '/healthz',
  schema: {
    summary: 'Liveness check (no API key)',
    tags: ['health'],
    security: [],
    response: { 200: Type.Object({ status: Type.Literal('ok') }) },
  },
} as const;
