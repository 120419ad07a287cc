import { migration0001 } from './0001-initial.js';
import { migration0002 } from './0002-analyses.js';
import { migration0003 } from './0003-processing-stage.js';
import { migration0004 } from './0004-job-results.js';
import { migration0005 } from './0005-audio-sha256.js';

export type { Migration } from '../../../src-shared/sqlite-migrations.js';
import type { Migration } from '../../../src-shared/sqlite-migrations.js';

/** Every migration, in order. Versions are contiguous from 1. */
export const migrations: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004, migration0005];
