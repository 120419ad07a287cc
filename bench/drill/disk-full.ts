import type { CheckResult } from './support.js';
export async function diskPhase(_seed: number): Promise<CheckResult[]> { throw new Error('todo'); }
