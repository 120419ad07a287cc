// What an upload may store: the team's quota (its own, else KIKITORI_TEAM_QUOTA_BYTES) and the disk's free space
// beyond the reserve (KIKITORI_MIN_FREE_DISK_BYTES). Decision 0026. Open tus uploads hold their declared size of
// the quota from creation until they end, and a team has at most KIKITORI_MAX_OPEN_UPLOADS_PER_TEAM (decision 0043).
import type { AppContext } from '../app-context.js';
import type { TranscriptionRecord } from '../domain/records.js';
import { teamQuotaBytes } from '../domain/team-quota.js';
import { formatBytes } from '../storage/free-space.js';
import { errors } from './errors.js';

const QUOTA_HINT = "Delete transcriptions you no longer need, or ask the server's administrator for a larger quota.";

/** "60 kB already stored", and what open uploads hold when they hold anything. */
const usageText = (used: number, reserved: number, stored: string) =>
  `${formatBytes(used)} ${stored}${reserved > 0 ? `, ${formatBytes(reserved)} held by uploads in progress` : ''}`;

/** For the upload ticket: a team already at its quota (stored audio and open uploads) is told now, before it sends a file. */
export async function checkTeamQuota(ctx: AppContext, teamId: string): Promise<void> {
  const quota = await teamQuotaBytes(ctx.storageUsage, teamId, ctx.config.uploads.teamQuotaBytes);
  if (quota === undefined) return;
  const used = await ctx.storageUsage.audioBytes(teamId);
  const reserved = await ctx.storageUsage.reservedBytes(teamId);
  if (used + reserved >= quota) {
    throw errors.quotaExceeded(
      `Your team has used its storage quota of ${formatBytes(quota)} (${usageText(used, reserved, 'stored')}). ${QUOTA_HINT}`,
    );
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

/** Who stores the bytes: a team, and the ticket when there is one (the OpenAI route has none). */
export interface UploadOwner {
  teamId: string;
  transcriptionId?: string;
}

/**
 * Before a PUT streams: a declared Content-Length must fit in what the team's stored audio and the open
 * uploads of its other tickets leave of its quota, and on the disk. Without one the quota's remainder bounds
 * the stream. Two PUTs of one team at once may each pass the check; the quota is then exceeded by at most one file.
 */
export async function uploadAllowance(
  ctx: AppContext,
  owner: UploadOwner,
  declaredBytes: number | null,
): Promise<UploadAllowance> {
  const teamId = owner.teamId;
  const limit = ctx.config.uploads.maxBytes;
  let maxBytes = limit;
  let quotaBound = false;
  const quota = await teamQuotaBytes(ctx.storageUsage, teamId, ctx.config.uploads.teamQuotaBytes);
  if (quota !== undefined) {
    const used = await ctx.storageUsage.audioBytes(teamId);
    // This ticket's own tus uploads are left out: whichever of its uploads completes is the one file it stores.
    const reserved = await ctx.storageUsage.reservedBytes(teamId, owner.transcriptionId);
    const remaining = quota - used - reserved;
    if (remaining <= 0 || (declaredBytes !== null && declaredBytes > remaining)) {
      throw quotaExceededBy(quota, used, declaredBytes, reserved);
    }
    if (remaining < limit) [maxBytes, quotaBound] = [remaining, true];
  }
  await checkFreeDisk(ctx, declaredBytes);
  return { maxBytes, quotaBound, quotaBytes: quota, teamId };
}

/** A write of `declaredBytes` (null: unknown) must leave the disk's reserve free. */
async function checkFreeDisk(ctx: AppContext, declaredBytes: number | null): Promise<void> {
  const free = await ctx.freeSpace(ctx.config.dataDir);
  const usable = free - ctx.config.disk.minFreeBytes;
  if (usable <= 0 || (declaredBytes !== null && declaredBytes > usable)) {
    ctx.logger.warn(
      { free, reserve: ctx.config.disk.minFreeBytes, declaredBytes },
      'upload refused: not enough free disk space',
    );
    throw errors.insufficientStorage(
      `The server does not have enough free disk space to store this file${declaredBytes === null ? '' : ` (${formatBytes(declaredBytes)})`}. Try again later, or ask the server's administrator to free some space.`,
    );
  }
}

/**
 * A new tus upload of `size` bytes: refused unless it fits on the disk, in what the team's stored audio and
 * other open uploads leave of its quota, and under the cap on open uploads; then its size is held until it ends.
 */
export async function reserveTusUpload(
  ctx: AppContext,
  record: TranscriptionRecord,
  uploadId: string,
  size: number,
): Promise<void> {
  await checkFreeDisk(ctx, size);
  const quota = await teamQuotaBytes(ctx.storageUsage, record.teamId, ctx.config.uploads.teamQuotaBytes);
  const limit = ctx.config.uploads.maxOpenPerTeam;
  const outcome = await ctx.storageUsage.reserveUpload(
    { uploadId, transcriptionId: record.transcriptionId, teamId: record.teamId, bytes: size },
    { quotaBytes: quota, maxOpen: limit },
  );
  if (outcome.kind === 'too-many') throw errors.tooManyOpenUploads(outcome.limit);
  if (outcome.kind === 'over-quota') throw quotaExceededBy(outcome.quota, outcome.used, size, outcome.reserved);
}

/**
 * Before a PATCH of an open tus upload: it still holds its reservation (else it has ended: 404), the team is
 * still within its quota with it (a quota lowered since is told now, not after the last byte), and the disk
 * takes what the PATCH declares.
 */
export async function tusAppendAllowance(
  ctx: AppContext,
  record: TranscriptionRecord,
  uploadId: string,
  declaredBytes: number | null,
): Promise<void> {
  const reservation = await openTusUpload(ctx, record, uploadId);
  await checkTusSize(ctx, record, reservation.bytes);
  await checkFreeDisk(ctx, declaredBytes);
}

/**
 * The reservation of an open tus upload of this ticket. Without one the upload has ended (or was made before
 * reservations, and goes with the next sweep): 404, on which tus clients create a new upload.
 */
export async function openTusUpload(ctx: AppContext, record: TranscriptionRecord, uploadId: string) {
  const reservation = await ctx.storageUsage.reservation(uploadId);
  if (!reservation || reservation.transcriptionId !== record.transcriptionId) throw errors.tusUploadNotFound();
  return reservation;
}

/**
 * The whole file of a tus upload (`size` bytes) must fit in what the team's stored audio and its other
 * tickets' open uploads leave of the quota: checked again when the last byte has arrived.
 */
export async function checkTusSize(ctx: AppContext, record: TranscriptionRecord, size: number): Promise<void> {
  const quota = await teamQuotaBytes(ctx.storageUsage, record.teamId, ctx.config.uploads.teamQuotaBytes);
  if (quota === undefined) return;
  const used = await ctx.storageUsage.audioBytes(record.teamId);
  const reserved = await ctx.storageUsage.reservedBytes(record.teamId, record.transcriptionId);
  if (used + reserved + size > quota) throw quotaExceededBy(quota, used, size, reserved);
}

export function quotaExceededBy(quota: number, used: number, adding: number | null, reserved = 0) {
  return errors.quotaExceeded(
    `${adding === null ? 'This file' : `This file (${formatBytes(adding)})`} would take your team past its storage quota of ${formatBytes(quota)} (${usageText(used, reserved, 'already stored')}). ${QUOTA_HINT}`,
  );
}

/** The write ran out of disk space midway (another writer took it): the partial object is already gone. */
export const isDiskFull = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOSPC';

/** The write ran out of disk space midway: nothing was stored. */
export const diskFullWhileStoring = () =>
  errors.insufficientStorage(
    "The server ran out of disk space while storing this file. Try again later, or ask the server's administrator to free some space.",
  );
