import type { CheckResult } from './support.js';
export async function loadPhase(_seed: number): Promise<CheckResult[]> { throw new Error('todo'); }
