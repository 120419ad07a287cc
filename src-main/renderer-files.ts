// The renderer's own files (dist/renderer) as web Responses: served to the window over the privileged
// kikitori-app:// scheme (app-protocol.ts), and by the end-to-end test host over HTTP, so both answer the
// same way (decision 0090). Only files inside the renderer's folder are ever served.
import fs from 'node:fs';
import path from 'node:path';
import mime from 'mime-types';
import { CONTENT_SECURITY_POLICY } from './content-security-policy.js';

/** Vite's output names under assets/ carry a hash of their content: a name never changes what it holds. */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

/**
 * `pathname` (a URL's, still percent-encoded) of `rendererDir`: the file with its type, the CSP on the
 * page, and a year's caching for hashed assets (what lets Chromium keep their compiled code). Anything
 * else, a folder, or a path that would leave the folder is a 404.
 */
export async function rendererFileResponse(rendererDir: string, pathname: string): Promise<Response> {
  let relative: string;
  try {
    relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  } catch {
    return notFound();
  }
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${relative}`);
  if (relative.includes('\0') || !file.startsWith(root + path.sep)) return notFound();
  let body: Buffer;
  try {
    body = await fs.promises.readFile(file);
  } catch {
    return notFound();
  }
  const headers = new Headers({ 'content-type': mime.contentType(path.extname(file)) || 'application/octet-stream' });
  headers.set('cache-control', HASHED_ASSET.test(relative) ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (file.endsWith('.html')) headers.set('content-security-policy', CONTENT_SECURITY_POLICY);
  headers.set('x-content-type-options', 'nosniff');
  return new Response(new Uint8Array(body), { status: 200, headers });
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
