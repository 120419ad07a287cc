// Microphone recordings on this computer (decision 0027). The renderer records with MediaRecorder and
// sends each chunk as it arrives; every chunk is appended to the recording's file at once, so a crash
// or a closed window keeps what was recorded up to the last chunk (about a second). A finished
// recording is queued like a dropped file. Its file stays until the user discards it, or until the
// transcription has kept its own copy of the audio (the upload manager's keepAudio): a failed or
// cancelled upload never loses it, and it can be tried again.
//
// Layout: <dir>/<id>/<file name>. One folder per recording keeps the file's own name (which becomes
// the transcription's name) free of ids, and lets a recording be found and removed by id alone.
import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { LiveText, Recording, UploadJob, UploadOptions } from '../../src-shared/ipc-contract.js';
import type { ConnectionProvider } from '../api-client/api-client.js';
import { AppFailure } from '../app-failure.js';
import { uploadJobOf, type UploadRepository } from '../cache/upload-repository.js';
import { pathInside } from '../cache/safe-path.js';
import type { UploadManager } from '../uploads/upload-manager.js';
import { LiveTranscriber } from './live-transcriber.js';

export interface RecordingServiceOptions {
  /** Where recordings are kept (the profile's cache directory's recordings/). */
  dir: string;
  uploads: UploadManager;
  repository: UploadRepository;
  now?: () => Date;
  /** Live text while recording (decision 0073): the profile's server, and where the text goes. */
  live?: {
    connection: ConnectionProvider;
    onText: (text: LiveText) => void;
    retry?: { baseDelayMs: number; maxDelayMs: number };
  };
}

/** What live text is asked for with a new recording; `language` as the upload form holds it. */
export interface LiveTextRequest {
  language: string | string[] | null;
  dictionaryId: string | null;
}

/** The file extension for what MediaRecorder says it produces. */
const EXTENSIONS: Record<string, string> = { 'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/mp4': 'm4a' };

const ACTIVE_UPLOAD: ReadonlyArray<UploadJob['state']> = ['queued', 'uploading', 'starting'];

export class RecordingService {
  /** Appends to one recording run one after another, so offsets are checked against a settled size. */
  private readonly appending = new Map<string, Promise<unknown>>();
  /** The live session of each recording being made with live text. */
  private readonly lives = new Map<string, LiveTranscriber>();
  private readonly now: () => Date;

  constructor(private readonly options: RecordingServiceOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Creates the (empty) file of a new recording, named "<word> <local date and time>". */
  async start(mimeType: string, word = 'Recording', live?: LiveTextRequest): Promise<Recording> {
    const extension = EXTENSIONS[mimeType.split(';')[0]!.trim().toLowerCase()];
    if (!extension)
      throw new AppFailure({
        code: 'unsupported',
        field: 'mimeType',
        reason: 'recording-format',
      });
    const id = randomUUID();
    const created = this.now();
    const fileName = `${word} ${localStamp(created)}.${extension}`;
    const folder = this.folderOf(id);
    await fsp.mkdir(folder, { recursive: true });
    await fsp.writeFile(path.join(folder, fileName), new Uint8Array(0), { flag: 'wx' });
    if (live && this.options.live) {
      const { connection, onText, retry } = this.options.live;
      // One language is what a live session decodes; with several allowed, the first is the likeliest.
      const language = Array.isArray(live.language) ? (live.language[0] ?? null) : live.language;
      this.lives.set(
        id,
        new LiveTranscriber({ recordingId: id, connection, language, dictionaryId: live.dictionaryId, onText, retry }),
      );
    }
    return { id, fileName, size: 0, createdAt: created.toISOString(), upload: null };
  }

  /**
   * Appends a chunk that starts at `offset`. The same chunk sent twice (a retried call) is kept once;
   * a gap or an overlap is refused, so a recording is never silently spliced.
   */
  append(id: string, offset: number, data: Buffer): Promise<{ size: number }> {
    const previous = this.appending.get(id) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(async () => {
        const file = await this.fileOf(id);
        const { size } = await fsp.stat(file);
        if (offset + data.length === size && offset < size) return { size };
        if (offset !== size) {
          throw new AppFailure({
            code: 'conflict',
            reason: 'recording-incomplete',
          });
        }
        await fsp.appendFile(file, data);
        return { size: size + data.length };
      });
    this.appending.set(id, next);
    const settle = () => {
      if (this.appending.get(id) === next) this.appending.delete(id);
    };
    next.then(settle, settle);
    return next;
  }

  /** Live audio of a recording being made; ignored when it has no live text (never started, or stopped). */
  liveAudio(id: string, pcm: Buffer): void {
    this.lives.get(id)?.push(pcm);
  }

  /** Ends the live text of a recording, if any (Stop, Discard, or the profile's session ending). */
  endLive(id?: string): void {
    for (const [key, live] of this.lives) {
      if (id !== undefined && key !== id) continue;
      live.close();
      this.lives.delete(key);
    }
  }

  /** Queues the recording for upload, exactly as a dropped file. An empty recording is removed instead. */
  async finish(id: string, options: UploadOptions): Promise<UploadJob> {
    this.endLive(id);
    await this.appending.get(id)?.catch(() => {});
    const file = await this.fileOf(id);
    if ((await fsp.stat(file)).size === 0) {
      await this.remove(id);
      throw new AppFailure({
        code: 'validation',
        reason: 'recording-empty',
      });
    }
    const [job] = await this.options.uploads.add([file], options);
    return job!;
  }

  /** Every recording kept on this computer, newest first, with its latest upload. */
  async list(): Promise<Recording[]> {
    let ids: string[];
    try {
      ids = await fsp.readdir(this.options.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const recordings: Recording[] = [];
    for (const id of ids) {
      const file = await this.fileOf(id).catch(() => null);
      if (!file) continue;
      const stat = await fsp.stat(file);
      const upload = this.options.repository.byFilePath(file).at(-1);
      // Some file systems keep no creation time (0): the last write is then the best guess.
      const created = stat.birthtimeMs > 0 ? stat.birthtime : stat.mtime;
      recordings.push({
        id,
        fileName: path.basename(file),
        size: stat.size,
        createdAt: created.toISOString(),
        upload: upload ? uploadJobOf(upload) : null,
      });
    }
    return recordings.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** Deletes the recording; an upload of it that has not finished is cancelled and forgotten. */
  async discard(id: string): Promise<void> {
    this.endLive(id);
    const file = await this.fileOf(id).catch(() => null);
    if (file) {
      for (const upload of this.options.repository.byFilePath(file)) {
        if (ACTIVE_UPLOAD.includes(upload.state)) await this.options.uploads.cancel(upload.id);
        if (upload.state !== 'done') this.options.repository.delete(upload.id);
      }
    }
    await this.remove(id);
  }

  /** After an upload kept its audio in the cache: a recording is no longer needed. Other files are left alone. */
  async release(filePath: string): Promise<void> {
    const relative = path.relative(this.options.dir, filePath);
    const [id, name, ...rest] = relative.split(path.sep);
    if (!id || !name || rest.length > 0 || relative.startsWith('..') || path.isAbsolute(relative)) return;
    await this.remove(id);
  }

  private async remove(id: string): Promise<void> {
    await fsp.rm(this.folderOf(id), { recursive: true, force: true });
  }

  private folderOf(id: string): string {
    return pathInside(this.options.dir, id);
  }

  private async fileOf(id: string): Promise<string> {
    const folder = this.folderOf(id);
    let names: string[];
    try {
      names = (await fsp.readdir(folder, { withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name);
    } catch {
      names = [];
    }
    if (names.length !== 1) throw new AppFailure({ code: 'not-found', reason: 'recording-not-found' });
    return path.join(folder, names[0]!);
  }
}

/** "2026-11-24 14.05.09" in the computer's time zone: what people read in a file name. */
function localStamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}.${two(date.getMinutes())}.${two(date.getSeconds())}`;
}
