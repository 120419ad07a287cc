import { migration0001 } from './0001-transcriptions.js';
import { migration0002 } from './0002-dictionaries.js';
import { migration0003 } from './0003-analyses.js';
import { migration0004 } from './0004-uploads.js';
import { migration0005 } from './0005-local-edits.js';
import { migration0006 } from './0006-search-index.js';
import { migration0007 } from './0007-upload-replaces.js';
import { migration0008 } from './0008-processing-stage.js';
import { migration0009 } from './0009-edited-documents.js';
import { migration0010 } from './0010-upload-resume-url.js';
import { migration0011 } from './0011-search-secure-delete.js';
import { migration0012 } from './0012-edits-as-operations.js';
import { migration0013 } from './0013-upload-started-at.js';
import { migration0014 } from './0014-transcription-warnings.js';
import { migration0015 } from './0015-failure-code.js';
import { migration0016 } from './0016-voices.js';

import type { Migration } from '../../../src-shared/sqlite-migrations.js';

export type CacheMigration = Migration;

/** Every migration, in order. Versions are contiguous from 1. */
export const cacheMigrations: readonly CacheMigration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
];
