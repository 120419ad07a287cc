// Speech-model management: the one implementation behind `kikitori-server models …` and the
// /api/v1/models routes. Lists the catalogue with what is installed, downloads in the foreground (CLI)
// or in the background (HTTP: one download per model at a time, with a status), deletes, verifies, and
// says which installed model is best (engine `auto`). A model whose file whisper.cpp cannot load is
// "damaged": listed as such, reported by verify, and never chosen.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { CatalogueModel, ModelDownload } from '../../src-shared/api/models.js';
import { WHISPER_LANGUAGES } from '../engines/speech/whisper-engine.js';
import { statfsFreeSpace, type FreeSpaceReader } from '../storage/free-space.js';
import { findModel, rankModels, type ModelEntry } from './catalogue.js';
import {
  assertRoom,
  downloadModelFile,
  partPath,
  WHISPER_FORMAT,
  type DownloadCallbacks,
  type ModelFormat,
} from './downloader.js';
import { installModelFile, wrongSize } from './installer.js';
import { isModelError, ModelError } from './model-error.js';

export interface ModelManagerOptions {
  /** Models live in <dataDir>/models. */
  dataDir: string;
  /** `${baseUrl}/${file}` for entries without their own `url` (KIKITORI_MODEL_BASE_URL). */
  baseUrl: string;
  catalogue: readonly ModelEntry[];
  /** Told about background downloads that fail, and damaged models `auto` skips, with the operator's detail. */
  logger?: { info(obj: object, message: string): void; warn(obj: object, message: string): void };
  /** Free disk space (default statfs; tests stand in for a full disk here). */
  freeSpace?: FreeSpaceReader;
  /** Disk space a download must leave free (KIKITORI_MIN_FREE_DISK_BYTES); default 0. */
  reserveBytes?: number;
  /** The kind of model the catalogue holds (default whisper's speech models; speaker-models.ts has another). */
  format?: ModelFormat;
}

export interface VerifyResult {
  name: string;
  path: string;
  present: boolean;
  ok: boolean;
  /** What is wrong, or null when the file matches the catalogue. */
  problem: string | null;
}

export function modelsDir(dataDir: string): string {
  return path.join(dataDir, 'models');
}

interface RunningDownload {
  status: ModelDownload;
  controller: AbortController;
  done: Promise<void>;
}

const now = () => new Date().toISOString();

export class ModelManager {
  readonly dir: string;
  private readonly downloads = new Map<string, RunningDownload>();
  /** The install of each model now running: a second one waits for it, so two never write the same file. */
  private readonly installs = new Map<string, Promise<void>>();
  /** Damaged files already logged (path and problem), so that each is logged once, not on every job. */
  private readonly reported = new Set<string>();

  constructor(private readonly options: ModelManagerOptions) {
    this.dir = modelsDir(options.dataDir);
    this.format = options.format ?? WHISPER_FORMAT;
  }

  readonly format: ModelFormat;

  get catalogue(): readonly ModelEntry[] {
    return this.options.catalogue;
  }

  find(name: string): ModelEntry | undefined {
    return findModel(this.options.catalogue, name);
  }

  /** The entry, or a 'not-found' ModelError listing the names there are. */
  get(name: string): ModelEntry {
    const entry = this.find(name);
    if (!entry) {
      throw new ModelError(
        'not-found',
        `There is no speech model called "${name}". Available: ${this.options.catalogue.map((m) => m.name).join(', ')}.`,
      );
    }
    return entry;
  }

  pathOf(entry: ModelEntry): string {
    return path.join(this.dir, entry.file);
  }

  urlOf(entry: ModelEntry): string {
    return entry.url ?? `${this.options.baseUrl.replace(/\/+$/, '')}/${entry.file}`;
  }

  /** Why an installed model cannot be loaded (see whisperModelProblem), or null: loadable, or not installed. */
  damageOf(entry: ModelEntry): string | null {
    return this.isInstalled(entry) ? this.format.problemOf(this.pathOf(entry)) : null;
  }

  /** On disk at its exact size (`verify` checks the hash; damageOf whether it loads). */
  isInstalled(entry: ModelEntry): boolean {
    try {
      return fs.statSync(this.pathOf(entry)).size === entry.bytes;
    } catch {
      return false;
    }
  }

  languagesOf(entry: ModelEntry): readonly string[] {
    return entry.languages ?? (entry.multilingual ? WHISPER_LANGUAGES : ['en']);
  }

  /** The catalogue as the API shows it. */
  list(): CatalogueModel[] {
    return this.options.catalogue.map((m) => ({
      name: m.name,
      file: m.file,
      bytes: m.bytes,
      sha256: m.sha256,
      family: m.family,
      multilingual: m.multilingual,
      languages: [...this.languagesOf(m)],
      quantized: m.quantized,
      precision: m.precision,
      speed: m.speed,
      accuracy: m.accuracy,
      memory_bytes: m.memoryBytes,
      installed: this.isInstalled(m),
      damaged: this.damageOf(m) !== null,
      download: this.getDownload(m.name),
    }));
  }

  /** The most accurate installed model that loads (see rankModels), or null; a damaged one is skipped (and logged once). */
  bestInstalled(): { name: string; file: string } | null {
    for (const m of rankModels(this.options.catalogue)) {
      if (!this.isInstalled(m)) continue;
      const problem = this.damageOf(m);
      if (problem === null) return { name: m.name, file: this.pathOf(m) };
      const seen = `${this.pathOf(m)}\n${problem}`;
      if (!this.reported.has(seen)) {
        this.reported.add(seen);
        this.options.logger?.warn(
          { model: m.name, detail: problem },
          'speech model is damaged: engine auto skips it (delete it and download it again)',
        );
      }
    }
    return null;
  }

  /** Bytes that running background downloads (other than `except`) will still write. */
  private pendingBytes(except: string): number {
    let pending = 0;
    for (const [name, d] of this.downloads) {
      if (name !== except && (d.status.status === 'DOWNLOADING' || d.status.status === 'VERIFYING'))
        pending += Math.max(0, d.status.total_bytes - d.status.received_bytes);
    }
    return pending;
  }

  /** Free bytes where models go, and how many of this model are still to come (a partial file counts). */
  private async measure(entry: ModelEntry): Promise<{ free: number; needed: number }> {
    await fsp.mkdir(this.dir, { recursive: true });
    let have = 0;
    try {
      have = (await fsp.stat(partPath(this.pathOf(entry)))).size;
    } catch {
      // nothing to resume
    }
    const free = await (this.options.freeSpace ?? statfsFreeSpace)(this.dir);
    return { free, needed: have > entry.bytes ? entry.bytes : entry.bytes - have };
  }

  /** 'insufficient-storage' unless the rest of this model fits beside the reserve and what running downloads will still write. */
  private assertRoom(entry: ModelEntry, measured: { free: number; needed: number }): void {
    assertRoom(
      this.dir,
      {
        free: measured.free,
        reserveBytes: this.options.reserveBytes ?? 0,
        pendingBytes: this.pendingBytes(entry.name),
      },
      measured.needed,
      entry.name,
    );
  }

  /** Downloads in the foreground (the CLI), resuming a previous partial file; `background`: startDownload's run. */
  async download(
    name: string,
    callbacks: DownloadCallbacks = {},
    background = false,
  ): Promise<{ path: string; bytes: number }> {
    const entry = this.get(name);
    const installed = this.isInstalled(entry);
    if (installed) {
      // Already here at its size: check it rather than fetch it again; a damaged copy is replaced below.
      callbacks.onProgress?.(entry.bytes, entry.bytes);
      callbacks.onVerifying?.();
      if ((await this.verify(entry.name)).ok) return { path: this.pathOf(entry), bytes: entry.bytes };
    }
    // A background download's space was checked when it started, unless it replaces an installed file.
    if (!background || installed) this.assertRoom(entry, await this.measure(entry));
    const file = await downloadModelFile(
      {
        name: entry.name,
        url: this.urlOf(entry),
        path: this.pathOf(entry),
        bytes: entry.bytes,
        sha256: entry.sha256,
        format: this.format,
      },
      callbacks,
    );
    return { path: file, bytes: entry.bytes };
  }

  /**
   * Starts a background download, or returns the one already running for this model. Unknown names
   * and a disk without room fail here, before anything starts.
   */
  async startDownload(name: string): Promise<ModelDownload> {
    const entry = this.get(name);
    const running = this.downloads.get(entry.name);
    if (running && (running.status.status === 'DOWNLOADING' || running.status.status === 'VERIFYING'))
      return { ...running.status };
    const measured = this.isInstalled(entry) ? null : await this.measure(entry);
    // The same question again after the await: a second request may have started it meanwhile. From here
    // to the registration below nothing awaits, so the room is checked against every download registered
    // so far, and a start that comes after sees this one as pending: two cannot take the same free space.
    const again = this.downloads.get(entry.name);
    if (again && (again.status.status === 'DOWNLOADING' || again.status.status === 'VERIFYING'))
      return { ...again.status };
    if (measured) this.assertRoom(entry, measured);
    let have = 0;
    try {
      have = fs.statSync(partPath(this.pathOf(entry))).size;
    } catch {
      // nothing to resume
    }

    const started = now();
    const status: ModelDownload = {
      model: entry.name,
      status: 'DOWNLOADING',
      received_bytes: Math.min(have, entry.bytes),
      total_bytes: entry.bytes,
      error: null,
      error_code: null,
      started_at: started,
      updated_at: started,
    };
    const controller = new AbortController();
    const update = (patch: Partial<ModelDownload>) => Object.assign(status, patch, { updated_at: now() });
    const done = this.download(
      entry.name,
      {
        signal: controller.signal,
        onProgress: (received) => update({ received_bytes: received }),
        onVerifying: () => update({ status: 'VERIFYING' }),
      },
      true,
    ).then(
      () => {
        update({ status: 'COMPLETED', received_bytes: entry.bytes });
        this.options.logger?.info({ model: entry.name }, 'speech model downloaded and verified');
      },
      (error: unknown) => {
        if (isModelError(error) && error.kind === 'cancelled') {
          update({ status: 'CANCELLED' });
          return;
        }
        const message = isModelError(error)
          ? error.message
          : `The download of the speech model "${entry.name}" failed unexpectedly. Try again.`;
        update({ status: 'FAILED', error: message, error_code: isModelError(error) ? error.kind : 'internal' });
        this.options.logger?.warn(
          {
            model: entry.name,
            detail: isModelError(error) ? error.detail : String(error),
            err: isModelError(error) ? undefined : error,
          },
          'speech model download failed',
        );
      },
    );
    this.downloads.set(entry.name, { status, controller, done });
    return { ...status };
  }

  /**
   * Installs the model from its file, streamed in (`declaredBytes`: its size when known, checked before any
   * byte is read). A running download of the model is cancelled first: the operator has the file. Checked as
   * a download is; resolves with the model as listed.
   */
  async install(
    name: string,
    body: Readable,
    options: { declaredBytes?: number | null; onProgress?: (received: number, total: number) => void } = {},
  ): Promise<CatalogueModel> {
    const entry = this.get(name);
    const target = {
      name: entry.name,
      file: entry.file,
      path: this.pathOf(entry),
      bytes: entry.bytes,
      sha256: entry.sha256,
      format: this.format,
    };
    if (options.declaredBytes != null && options.declaredBytes !== entry.bytes)
      throw wrongSize(target, options.declaredBytes);
    const before = this.installs.get(entry.name) ?? Promise.resolve();
    const run = before.then(async () => {
      await this.cancelDownload(entry.name);
      const measured = await this.measure(entry);
      // The file is written whole beside any partial download, which stays for nothing but costs its space.
      this.assertRoom(entry, { free: measured.free, needed: entry.bytes });
      await installModelFile(target, body, { onProgress: options.onProgress });
    });
    const settled = run.catch(() => undefined);
    this.installs.set(entry.name, settled);
    try {
      await run;
    } finally {
      if (this.installs.get(entry.name) === settled) this.installs.delete(entry.name);
    }
    this.options.logger?.info({ model: entry.name }, 'speech model installed from a file and verified');
    return this.list().find((m) => m.name === entry.name)!;
  }

  /** The latest background download of this model since start, or null. */
  getDownload(name: string): ModelDownload | null {
    const entry = this.find(name);
    const running = entry ? this.downloads.get(entry.name) : undefined;
    return running ? { ...running.status } : null;
  }

  /** Cancels a running background download and waits until its partial file is gone; false when none runs. */
  async cancelDownload(name: string): Promise<boolean> {
    const entry = this.get(name);
    const running = this.downloads.get(entry.name);
    if (!running || (running.status.status !== 'DOWNLOADING' && running.status.status !== 'VERIFYING')) return false;
    running.controller.abort();
    await running.done;
    // Verification had finished when the cancel came: the file is in place and stays.
    return true;
  }

  /** Removes an installed model (and any partial download of it); a running download of it is cancelled first. */
  async delete(name: string): Promise<void> {
    const entry = this.get(name);
    await this.cancelDownload(entry.name);
    const file = this.pathOf(entry);
    const present = fs.existsSync(file);
    await fsp.rm(partPath(file), { force: true });
    if (!present) {
      throw new ModelError(
        'not-installed',
        `The speech model "${entry.name}" is not installed, so there is nothing to delete.`,
      );
    }
    await fsp.rm(file, { force: true });
  }

  /** Checks an installed model: present, exact size, SHA-256 (and SHA-1 where the catalogue has it), and that whisper.cpp can load it. */
  async verify(name: string): Promise<VerifyResult> {
    const entry = this.get(name);
    const file = this.pathOf(entry);
    const result = (present: boolean, problem: string | null): VerifyResult => ({
      name: entry.name,
      path: file,
      present,
      ok: problem === null,
      problem,
    });
    let size: number;
    try {
      size = (await fsp.stat(file)).size;
    } catch {
      return result(false, `not downloaded (${file} is missing)`);
    }
    if (size !== entry.bytes)
      return result(
        true,
        `size is ${size} bytes, expected ${entry.bytes}: the file is incomplete or not ${entry.file}`,
      );
    const sha1 = createHash('sha1');
    const sha256 = createHash('sha256');
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 * 1024 * 1024 })) {
      sha1.update(chunk as Buffer);
      sha256.update(chunk as Buffer);
    }
    const [d1, d256] = [sha1.digest('hex'), sha256.digest('hex')];
    if (d256 !== entry.sha256) return result(true, `SHA-256 is ${d256}, expected ${entry.sha256}: the file is damaged`);
    if (entry.sha1 && d1 !== entry.sha1)
      return result(true, `SHA-1 is ${d1}, expected ${entry.sha1}: the file is damaged`);
    const problem = this.format.problemOf(file);
    if (problem !== null)
      return result(true, `damaged, engine auto skips it: ${problem}. Delete it and download it again`);
    return result(true, null);
  }

  /** Catalogue models whose file exists (any size: `verify` judges them). */
  present(): ModelEntry[] {
    return this.options.catalogue.filter((m) => fs.existsSync(this.pathOf(m)));
  }

  /** Stops background downloads for shutdown; their partial files stay, and the next download resumes them. */
  async close(): Promise<void> {
    const running = [...this.downloads.values()];
    for (const d of running)
      d.controller.abort(
        new ModelError(
          'interrupted',
          'The server stopped during the download. Download the model again to continue where it stopped.',
        ),
      );
    await Promise.all(running.map((d) => d.done));
  }
}
