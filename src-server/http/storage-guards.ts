// What an upload may store: the team's quota (its own, else KIKITORI_TEAM_QUOTA_BYTES) and the disk's free space
// beyond the reserve (KIKITORI_MIN_FREE_DISK_BYTES). Decision 0026.
import type { AppContext } from '../app-context.js';
import { teamQuotaBytes } from '../domain/team-quota.js';
import { formatBytes } from '../storage/free-space.js';
import { errors } from './errors.js';

const QUOTA_HINT = "Delete transcriptions you no longer need, or ask the server's administrator for a larger quota.";

/** For the upload ticket: a team already at its quota is told now, before it sends a file. */
export async function checkTeamQuota(ctx: AppContext, teamId: string): Promise<void> {
  const quota = await teamQuotaBytes(ctx.storageUsage, teamId, ctx.config.uploads.teamQuotaBytes);
  if (quota === undefined) return;
  const used = await ctx.storageUsage.audioBytes(teamId);
  if (used >= quota) {
    throw errors.quotaExceeded(`Your team has used its storage quota of ${formatBytes(quota)} (${formatBytes(used)} stored). ${QUOTA_HINT}`);
  }
}

export interface UploadAllowance {
  /** The most the PUT may stream: the upload limit, or what is left of the quota when that is less. */
  maxBytes: number;
  /** True when maxBytes is the quota's remainder, so streaming past it is a quota error, not a 413. */
  quotaBound: boolean;
  /** The team's quota, when it has one. */
  quotaBytes: number | undefined;
  teamId: string;
}

/**
 * Before a PUT streams: a declared Content-Length must fit in the team's quota and on the disk.
 * Without one the quota's remainder bounds the stream. Two PUTs of one team at once may each pass the
 * check; the quota is then exceeded by at most one file.
 */
export async function uploadAllowance(ctx: AppContext, teamId: string, declaredBytes: number | null): Promise<UploadAllowance> {
  const limit = ctx.config.uploads.maxBytes;
  let maxBytes = limit;
  let quotaBound = false;
  const quota = await teamQuotaBytes(ctx.storageUsage, teamId, ctx.config.uploads.teamQuotaBytes);
  if (quota !== undefined) {
    const used = await ctx.storageUsage.audioBytes(teamId);
    const remaining = quota - used;
    if (remaining <= 0 || (declaredBytes !== null && declaredBytes > remaining)) {
      throw quotaExceededBy(quota, used, declaredBytes);
    }
    if (remaining < limit) [maxBytes, quotaBound] = [remaining, true];
  }
  const free = await ctx.freeSpace(ctx.config.dataDir);
  const usable = free - ctx.config.disk.minFreeBytes;
  if (usable <= 0 || (declaredBytes !== null && declaredBytes > usable)) {
    ctx.logger.warn({ free, reserve: ctx.config.disk.minFreeBytes, declaredBytes }, 'upload refused: not enough free disk space');
    throw errors.insufficientStorage(
      `The server does not have enough free disk space to store this file${declaredBytes === null ? '' : ` (${formatBytes(declaredBytes)})`}. Try again later, or ask the server's administrator to free some space.`,
    );
  }
  return { maxBytes, quotaBound, quotaBytes: quota, teamId };
}

export function quotaExceededBy(quota: number, used: number, adding: number | null) {
  return errors.quotaExceeded(
    `${adding === null ? 'This file' : `This file (${formatBytes(adding)})`} would take your team past its storage quota of ${formatBytes(quota)} (${formatBytes(used)} already stored). ${QUOTA_HINT}`,
  );
}

/** The write ran out of disk space midway (another writer took it): the partial object is already gone. */
export const isDiskFull = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOSPC';
