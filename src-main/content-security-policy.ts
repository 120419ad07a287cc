// The renderer's Content Security Policy, sent as a header on every response and kept in step with
// the meta tag in src-renderer/index.html (test/unit/renderer/csp.test.ts checks they match).
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // wavesurfer.js styles its shadow DOM with an inline <style>; scripts stay strict (no inline, no eval).
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  // The bundled Japanese font (src-renderer/fonts.css) is a file of the app: never data: or remote.
  "font-src 'self'",
  "media-src 'self' kikitori-media: http://127.0.0.1:*",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
