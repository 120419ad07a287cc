// The checksum a client may send with an upload: RFC 9530 `Content-Digest: sha-256=:<base64>:` or S3's
// `x-amz-checksum-sha256: <base64>`. Either names the SHA-256 of the whole file (decision 0032).
import type { IncomingHttpHeaders } from 'node:http';
import { errors } from '../application/errors.js';

const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

/** The expected SHA-256 in lowercase hex, or undefined when the client sent none. A malformed one is a 400. */
export function expectedSha256(headers: IncomingHttpHeaders): string | undefined {
  const found: string[] = [];
  const digest = headers['content-digest'];
  if (typeof digest === 'string' && digest.trim() !== '') {
    // A dictionary of algorithm=:base64:; algorithms other than sha-256 are ignored, as RFC 9530 allows.
    const sha = /(?:^|,)\s*sha-256\s*=\s*:([^:]*):/i.exec(digest);
    if (sha) found.push(checked(sha[1]!, 'Content-Digest'));
  }
  const amz = headers['x-amz-checksum-sha256'];
  if (typeof amz === 'string' && amz.trim() !== '') found.push(checked(amz.trim(), 'x-amz-checksum-sha256'));
  if (found.length === 2 && found[0] !== found[1]) {
    throw errors.validation(
      'Content-Digest and x-amz-checksum-sha256 name different checksums. Send one SHA-256 of the file.',
    );
  }
  return found[0];
}

function checked(base64: string, header: string): string {
  if (!BASE64_SHA256.test(base64)) {
    throw errors.validation(
      `The ${header} header is not a base64 SHA-256 (44 characters ending in "="). Send the SHA-256 of the whole file, or leave the header out.`,
    );
  }
  return Buffer.from(base64, 'base64').toString('hex');
}
