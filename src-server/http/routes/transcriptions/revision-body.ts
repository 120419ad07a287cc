// How a revision is rendered in the revision routes' answers (src-shared/api/revisions.ts).
import type { RevisionInfo, WrittenRevision } from '../../../application/revisions.js';

export const revisionInfoBody = (info: RevisionInfo) => ({
  revision: info.revision,
  created_at: info.createdAt,
  author: { user_id: info.author.userId, name: info.author.name },
  source: info.source,
  summary: info.summary,
});

export const writtenRevisionBody = (written: WrittenRevision) => ({
  transcription_id: written.transcriptionId,
  ...revisionInfoBody(written.info),
  rebased: written.rebased,
  changed: written.changed,
});
