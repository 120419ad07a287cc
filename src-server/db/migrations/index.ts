import { migration0001 } from './0001-initial.js';
import { migration0002 } from './0002-analyses.js';

export interface Migration {
  version: number;
  name: string;
  up: string;
}

/** Every migration, in order. Versions are contiguous from 1. */
export const migrations: readonly Migration[] = [migration0001, migration0002];
