// Speech models on the active server (Settings → Speech recognition): the catalogue as the app shows
// it, downloads started and followed, deletion, and the first-run offer. A running download is polled
// here, in main, and its progress pushed to the renderer as 'models:changed', so the progress bar
// keeps moving while the user looks elsewhere and the renderer never polls.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelDownload, ModelsResponse } from '../../src-shared/api/models.js';
import {
  TRANSCRIPTION_MODELS,
  type SpeechEngineInUse,
  type SpeechModel,
  type SpeechModelDownload,
  type SpeechModels,
  type ServerProfile,
} from '../../src-shared/ipc-contract.js';
import type { ApiClient } from '../api-client/api-client.js';
import { ApiError } from '../api-client/api-errors.js';
import type { EventSink } from '../event-sink.js';
import { recommendModel, type MachineResources } from './recommended-model.js';
import { appError } from '../app-failure.js';

/** Where "the offer was dismissed" is remembered (the settings store). */
export interface OfferMemory {
  dismissed(): boolean;
  dismiss(): void;
}

export interface ModelsServiceOptions {
  client: ApiClient;
  profile: ServerProfile;
  emit: EventSink;
  machine: MachineResources;
  offer: OfferMemory;
  /** Ends polling when the profile's session stops. */
  signal: AbortSignal;
  pollMs?: number;
}

const RUNNING: ReadonlySet<string> = new Set(['DOWNLOADING', 'VERIFYING']);

export class ModelsService {
  private readonly watching = new Set<string>();
  private readonly pollMs: number;

  constructor(private readonly options: ModelsServiceOptions) {
    this.pollMs = options.pollMs ?? 500;
  }

  /** The catalogue and what serves transcriptions; downloads already running (started before, or by the CLI) are followed. */
  async list(): Promise<SpeechModels> {
    const response = await this.options.client.listModels({ signal: this.options.signal });
    for (const model of response.models)
      if (model.download && RUNNING.has(model.download.status)) this.follow(model.name);
    return this.view(response);
  }

  async download(name: string): Promise<SpeechModels> {
    await this.options.client.startModelDownload(name, { signal: this.options.signal });
    this.follow(name);
    return this.list();
  }

  /** The poller sees the CANCELLED status and reports it. */
  async cancel(name: string): Promise<SpeechModels> {
    await this.options.client.cancelModelDownload(name, { signal: this.options.signal });
    return this.list();
  }

  async remove(name: string): Promise<SpeechModels> {
    await this.options.client.deleteModel(name, { signal: this.options.signal });
    return this.list();
  }

  /**
   * Sends the model's file, chosen by the user, to the server, which checks it as a download and installs it.
   * Progress goes out as INSTALLING, at most once a percent; COMPLETED when installed. A refusal (not this
   * model, no room, no OPERATOR role) is the answer's error, and no final event is sent.
   */
  async installFromFile(name: string, file: string): Promise<SpeechModels> {
    const { client, emit, signal } = this.options;
    let shown = -1;
    await client.installModelFile(name, file, {
      signal,
      onProgress: (received, total) => {
        const percent = total ? Math.floor((received / total) * 100) : 0;
        if (percent === shown) return;
        shown = percent;
        emit('models:changed', {
          model: name,
          status: 'INSTALLING',
          receivedBytes: received,
          totalBytes: total ?? 0,
          error: null,
          errorCode: null,
        });
      },
    });
    emit('models:changed', {
      model: name,
      status: 'COMPLETED',
      receivedBytes: 0,
      totalBytes: 0,
      error: null,
      errorCode: null,
    });
    return this.list();
  }

  async dismissOffer(): Promise<SpeechModels> {
    this.options.offer.dismiss();
    return this.list();
  }

  /** Polls one download until it ends, pushing each status; one poller per model. */
  private follow(name: string): void {
    if (this.watching.has(name)) return;
    this.watching.add(name);
    void this.poll(name).finally(() => this.watching.delete(name));
  }

  private async poll(name: string): Promise<void> {
    const { client, emit, signal } = this.options;
    let offlineRounds = 0;
    while (!signal.aborted) {
      let status: ModelDownload;
      try {
        status = await client.getModelDownload(name, { signal });
        offlineRounds = 0;
      } catch (error) {
        if (signal.aborted) return;
        // A server briefly out of reach is waited for (the client already retried); anything else
        // ends the download as far as the app can tell, and says why.
        if (error instanceof ApiError && error.error.code === 'offline' && ++offlineRounds < 20) {
          if (!(await this.pause())) return;
          continue;
        }
        emit('models:changed', {
          model: name,
          status: 'FAILED',
          receivedBytes: 0,
          totalBytes: 0,
          error: null,
          errorCode: null,
          unfollowed:
            error instanceof ApiError ? error.error : appError({ code: 'internal', reason: 'download-not-followed' }),
        });
        return;
      }
      emit('models:changed', downloadOf(status));
      if (!RUNNING.has(status.status)) return;
      if (!(await this.pause())) return;
    }
  }

  private async pause(): Promise<boolean> {
    try {
      await sleep(this.pollMs, undefined, { signal: this.options.signal });
      return true;
    } catch {
      return false;
    }
  }

  private view(response: ModelsResponse): SpeechModels {
    const { profile, machine, offer } = this.options;
    const local = isOnThisComputer(profile);
    const models = response.models.map(modelOf);
    const recommended = local
      ? recommendModel(
          machine,
          response.models.map((m) => ({
            name: m.name,
            multilingual: m.multilingual,
            quantized: m.quantized,
            accuracy: m.accuracy,
            memoryBytes: m.memory_bytes,
          })),
        )
      : null;
    const serving = Object.fromEntries(
      TRANSCRIPTION_MODELS.map((m) => [m, servingOf(response.serving[m])]),
    ) as SpeechModels['serving'];
    // A server that transcribes with whisper or a remote service already gives what the offer promises.
    const offerable =
      serving.default.engine !== 'whisper' && serving.default.engine !== 'remote' && !models.some((m) => m.installed);
    return {
      models,
      serving,
      canManage: response.can_manage,
      local,
      recommended,
      offer: recommended !== null && response.can_manage && offerable && !offer.dismissed(),
    };
  }
}

/** The embedded server, or a server on a loopback address: its memory is this computer's. */
export function isOnThisComputer(profile: ServerProfile): boolean {
  if (profile.kind === 'embedded') return true;
  try {
    const host = new URL(profile.baseUrl).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

function downloadOf(d: ModelDownload): SpeechModelDownload {
  return {
    model: d.model,
    status: d.status,
    receivedBytes: d.received_bytes,
    totalBytes: d.total_bytes,
    error: d.error,
    errorCode: d.error_code ?? null,
  };
}

function modelOf(m: ModelsResponse['models'][number]): SpeechModel {
  return {
    name: m.name,
    file: m.file,
    bytes: m.bytes,
    // A server from before issue 27 sends neither: each file is its own model, a compressed one the lesser.
    family: m.family ?? m.name,
    multilingual: m.multilingual,
    languages: m.languages,
    quantized: m.quantized,
    precision: m.precision ?? (m.quantized ? 'reduced' : 'full'),
    speed: m.speed,
    accuracy: m.accuracy,
    installed: m.installed,
    damaged: m.damaged,
    download: m.download ? downloadOf(m.download) : null,
  };
}

function servingOf(s: ModelsResponse['serving']['default']): SpeechEngineInUse {
  return {
    engine: s.engine,
    model: s.model,
    detectsLanguage: s.detects_language,
    languages: s.languages,
    usable: s.usable,
    reason: s.reason,
  };
}
