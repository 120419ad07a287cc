// The renderer's view of an analysis says when it is older than the transcript: the server's `outdated`
// flag, or edits on this computer the server has not seen yet.
import { describe, expect, it } from 'vitest';
import { analysisView, type CachedAnalysis } from '../../../../src-main/cache/analysis-repository.js';
import type { ApiSummaryResult } from '../../../../src-shared/api-types.js';

function cached(status: CachedAnalysis['status'], outdated: boolean | undefined): CachedAnalysis {
  const result = {
    transcription_id: 't1',
    status,
    engine: 'extractive',
    error: null,
    error_code: null,
    requested_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:01Z',
    revision: 1,
    current_revision: outdated ? 2 : 1,
    outdated,
    summarized_text: 'Hello.',
    overview: 'Hello.',
    key_points: [],
    action_items: [],
    decisions: [],
    dates: [],
  } as unknown as ApiSummaryResult;
  return { transcriptionId: 't1', kind: 'summary', language: null, status, result, updatedAt: '2026-01-01T00:00:01Z' };
}

describe('analysisView', () => {
  it('carries the server’s outdated flag', () => {
    expect(analysisView(cached('COMPLETED', true)).outdated).toBe(true);
    expect(analysisView(cached('COMPLETED', false)).outdated).toBe(false);
  });

  it('treats a result from a server without the flag as current', () => {
    expect(analysisView(cached('COMPLETED', undefined)).outdated).toBe(false);
  });

  it('is outdated when the transcript has edits the server has not seen', () => {
    expect(analysisView(cached('COMPLETED', false), true).outdated).toBe(true);
  });

  it('never marks a result still being made or failed', () => {
    expect(analysisView(cached('IN_PROGRESS', true), true).outdated).toBe(false);
    expect(analysisView(cached('FAILED', true), true).outdated).toBe(false);
  });
});
