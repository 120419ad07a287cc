// docs/api/errors.md is the API users' table of error codes: it must name every code the server can send,
// with its number and HTTP status, and no code the server does not have (issue 23).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';

const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/api/errors.md'), 'utf8');
/** The rows of the table: `| 4033 | 403 | QUOTA_EXCEEDED | when… |`, five digits once a status has used its ten. */
const rows = [...doc.matchAll(/^\| (\d{4,5}) \| (\d{3}) \| ([A-Z_]+) \|/gm)].map(([, code, status, name]) => ({
  code: Number(code),
  status: Number(status),
  name: name!,
}));

describe('docs/api/errors.md', () => {
  it('documents every error code once, by its name and number, and nothing else', () => {
    const documented = rows.map(({ name, code }) => [name, code]);
    expect(documented.sort()).toEqual(Object.entries(ErrorCode).sort());
    expect(new Set(rows.map((row) => row.code)).size).toBe(rows.length);
  });

  it('gives each code the HTTP status its number is grouped under, its first three digits (1000 is 500)', () => {
    for (const row of rows)
      expect(row.status, row.name).toBe(row.code === 1000 ? 500 : Number(String(row.code).slice(0, 3)));
  });

  it('lists the codes in numerical order, as error-codes.ts does', () => {
    const numbers = rows.map((row) => row.code);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(Object.values(ErrorCode)).toEqual([...Object.values(ErrorCode)].sort((a, b) => a - b));
  });
});
