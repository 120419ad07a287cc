// The headers every /files/* answer carries, so that nothing served there runs as a page on the server's
// origin. Issue 22, decision 0043.
import type { RouteModule } from '../../api-app.js';

/**
 * Every answer of the signed file routes, errors included: no type sniffing, and a sandbox that gives whatever
 * a browser might still render an opaque origin without scripts.
 */
export const fileResponseHeaders: RouteModule = (app) =>
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.header('x-content-type-options', 'nosniff').header('content-security-policy', 'sandbox');
    return payload;
  });
