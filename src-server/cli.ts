// kikitori-server command line: serve, keys, migrate, engines, models.
// The one place that reads the process environment: each command hands its flags and the environment
// to loadConfig() and passes the typed sections on.
import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import {
  ConfigError,
  loadConfig,
  redactConfig,
  settingForFlag,
  type ConfigFlags,
  type ServerConfig,
} from './config.js';
import { DatabaseTooNewError, migrate, openDatabase } from './db/database.js';
import { KyselyStorageUsageRepository } from './db/storage-usage-repository.js';
import { teamQuotaBytes } from './domain/team-quota.js';
import { formatBytes } from './storage/free-space.js';
import { KyselyKeyRepository, normalizeRoles, UnknownRoleError, type KeyRepository } from './db/key-repository.js';
import { API_KEY_ROLES } from '../src-shared/api/vocabulary.js';
import { howToGetModel } from './engines/speech/whisper-catalogue.js';
import { formatModelSize, loadCatalogue } from './models/catalogue.js';
import { SPEAKER_MODEL_FORMAT, speakerModelManager } from './models/speaker-models.js';
import { ModelManager } from './models/manager.js';
import { isModelError, ModelError } from './models/model-error.js';

// Everything the server creates in the data dir (database, audio, transcripts, work files, models, what
// ffmpeg writes) is for this user only: 0700 directories, 0600 files, whichever code or tool creates it.
process.umask(0o077);

const program = new Command('kikitori-server')
  .description('Self-hostable Transcription and Dictionary API server')
  .showHelpAfterError();

// Commands pass only their configuration flags: other options (keys create --role) are not settings.
const configOf = (flags: ConfigFlags): ServerConfig => loadConfig(flags, process.env);

/** A flag declared by the configuration schema, described from it. */
const configOption = (flag: string, value: string) => {
  const setting = settingForFlag(flag);
  return new Option(`${flag} <${value}>`, `${setting.description} (${setting.env})`);
};
const dataDirOption = () => configOption('--data-dir', 'dir');
const databaseUrlOption = () => configOption('--database-url', 'url');

interface DatabaseFlags {
  dataDir?: string;
  databaseUrl?: string;
}

/** The key repository on the configured database (PostgreSQL with --database-url, else SQLite in the data dir). */
async function withKeys<T>(flags: DatabaseFlags, use: (keys: KeyRepository) => Promise<T>): Promise<T> {
  const database = await openDatabase(configOf({ dataDir: flags.dataDir, databaseUrl: flags.databaseUrl }));
  try {
    return await use(new KyselyKeyRepository(database.kysely));
  } finally {
    await database.close();
  }
}

program
  .command('serve')
  .description('start the server; api and all print their URL when ready, worker prints "worker ready"')
  .addOption(configOption('--host', 'host'))
  .addOption(configOption('--port', 'port'))
  .addOption(dataDirOption())
  .addOption(configOption('--role', 'role'))
  .addOption(databaseUrlOption())
  .action(async (options: { host?: string; port?: string; dataDir?: string; role?: string; databaseUrl?: string }) => {
    const config = configOf({
      host: options.host,
      port: options.port,
      dataDir: options.dataDir,
      role: options.role,
      databaseUrl: options.databaseUrl,
    });
    // Loaded here, not at the top: the server, its engines and their libraries are most of the CLI's start
    // time, and `keys`, `migrate` and `models` do not need them.
    const { requireSharedSigningSecret, serveAll, serveApi, serveWorker } = await import('./process/roles.js');
    const { createProcessLogger } = await import('./process/logger.js');
    requireSharedSigningSecret(config);
    const logger = createProcessLogger(config.log.level);
    logger.debug({ config: redactConfig(config) }, 'configuration');
    if (config.server.role === 'api') return serveApi(config, logger);
    if (config.server.role === 'worker') return serveWorker(config, logger);
    // `all`: its worker process is this command again, with the same flags and environment.
    return serveAll(config, logger, {
      script: process.argv[1]!,
      args: [...withoutRoleFlag(process.argv.slice(2)), '--role', 'worker'],
    });
  });

/** The arguments without `--role X` / `--role=X`. */
function withoutRoleFlag(args: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--role') i++;
    else if (!args[i]!.startsWith('--role=')) kept.push(args[i]!);
  }
  return kept;
}

const keys = program.command('keys').description('manage API keys');

/** False (with a message and exit code 1) when a --role is not one of API_KEY_ROLES. */
function rolesValid(roles: string[]): boolean {
  try {
    normalizeRoles(roles);
    return true;
  } catch (error) {
    if (!(error instanceof UnknownRoleError)) throw error;
    process.stderr.write(
      `${error.message} DELETE lets a key delete its team's transcriptions; OPERATOR lets it download, cancel and delete the server's speech models; ADMIN is a team role that grants nothing server-wide.\n`,
    );
    process.exitCode = 1;
    return false;
  }
}

keys
  .command('create')
  .description('create an API key (and the team and user if new); prints the key alone on the last line')
  .addOption(dataDirOption())
  .addOption(databaseUrlOption())
  .requiredOption('--team <team>', 'team id')
  .requiredOption('--user <user>', 'user id')
  .option('--user-name <name>', 'display name of the user')
  .option(
    '--role <role>',
    `role to grant: ${API_KEY_ROLES.join(' or ')} (repeatable)`,
    (value: string, all: string[]) => [...all, value],
    [] as string[],
  )
  .action(async (options: DatabaseFlags & { team: string; user: string; userName?: string; role: string[] }) => {
    if (!rolesValid(options.role)) return;
    const { key, info } = await withKeys(options, (repo) =>
      repo.create({ teamId: options.team, userId: options.user, userName: options.userName, roles: options.role }),
    );
    process.stdout.write(
      `Created key ${info.keyId} for user "${info.userId}" in team "${info.teamId}" (roles: ${info.roles.join(', ') || 'none'}).\n`,
    );
    process.stdout.write('Store it now: it is shown only once.\n');
    process.stdout.write(`${key}\n`);
  });

keys
  .command('grant')
  .description('add roles to an existing API key, by its id or prefix')
  .addOption(dataDirOption())
  .addOption(databaseUrlOption())
  .argument('<key-id-or-prefix>')
  .requiredOption(
    '--role <role>',
    `role to add: ${API_KEY_ROLES.join(' or ')} (repeatable)`,
    (value: string, all: string[]) => [...all, value],
    [] as string[],
  )
  .action(async (id: string, options: DatabaseFlags & { role: string[] }) => {
    if (!rolesValid(options.role)) return;
    const granted = await withKeys(options, (repo) => repo.grant(id, options.role));
    if (!granted) {
      process.stderr.write(`No single active key matches "${id}". Run \`kikitori-server keys list\` to see key ids.\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(
      `Key ${granted.keyId} (${granted.keyPrefix}…) of user "${granted.userId}" now has roles: ${granted.roles.join(', ')}.\n`,
    );
  });

keys
  .command('list')
  .description('list API keys (never the keys themselves)')
  .addOption(dataDirOption())
  .addOption(databaseUrlOption())
  .option('--team <team>', 'only this team')
  .option('--json', 'print JSON')
  .action(async (options: DatabaseFlags & { team?: string; json?: boolean }) => {
    const list = await withKeys(options, (repo) => repo.list(options.team));
    if (options.json) {
      process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      return;
    }
    for (const k of list) {
      process.stdout.write(
        `${k.keyId}  ${k.keyPrefix}…  team=${k.teamId} user=${k.userId} roles=${k.roles.join(',') || '-'} ${k.revokedAt ? `REVOKED ${k.revokedAt}` : 'active'}\n`,
      );
    }
  });

keys
  .command('revoke')
  .description('revoke an API key by its id or prefix')
  .addOption(dataDirOption())
  .addOption(databaseUrlOption())
  .argument('<key-id-or-prefix>')
  .action(async (id: string, options: DatabaseFlags) => {
    const revoked = await withKeys(options, (repo) => repo.revoke(id));
    if (!revoked) {
      process.stderr.write(`No single key matches "${id}". Run \`kikitori-server keys list\` to see key ids.\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`Revoked key ${revoked.keyId} (${revoked.keyPrefix}…) of user "${revoked.userId}".\n`);
  });

const teams = program.command('teams').description('manage teams');

teams
  .command('quota')
  .description(
    "set a team's storage quota (its own, none, or the server's default KIKITORI_TEAM_QUOTA_BYTES); without a choice, show it",
  )
  .addOption(dataDirOption())
  .addOption(databaseUrlOption())
  .requiredOption('--team <team>', 'team id')
  .option('--bytes <n>', 'the team may keep this many bytes of stored audio')
  .option('--unlimited', 'the team has no quota')
  .option('--default', "the team has the server's default quota again")
  .action(async (options: DatabaseFlags & { team: string; bytes?: string; unlimited?: boolean; default?: boolean }) => {
    const chosen = [options.bytes !== undefined, options.unlimited === true, options.default === true].filter(
      Boolean,
    ).length;
    const bytes = options.bytes === undefined ? undefined : Number(options.bytes);
    if (
      chosen > 1 ||
      (bytes !== undefined && !(Number.isSafeInteger(bytes) && bytes >= 1 && /^\d+$/.test(options.bytes!)))
    ) {
      process.stderr.write('Give one of --bytes N (a whole number of bytes, at least 1), --unlimited or --default.\n');
      process.exitCode = 1;
      return;
    }
    const config = configOf({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
    const database = await openDatabase(config);
    try {
      const usage = new KyselyStorageUsageRepository(database.kysely);
      if (chosen === 1)
        await usage.setQuotaOverride(options.team, options.unlimited ? null : options.default ? undefined : bytes);
      const own = await usage.quotaOverride(options.team);
      const quota = await teamQuotaBytes(usage, options.team, config.uploads.teamQuotaBytes);
      const used = await usage.audioBytes(options.team);
      const what =
        quota === undefined ? 'no storage quota' : `a storage quota of ${formatBytes(quota)} (${quota} bytes)`;
      const source = own === undefined ? "the server's default" : 'its own';
      process.stdout.write(`Team "${options.team}" has ${what}: ${source}. It stores ${formatBytes(used)} of audio.\n`);
    } finally {
      await database.close();
    }
  });

program
  .command('migrate')
  .description(
    'apply pending database migrations, then exit (run it once before starting several processes on a new version)',
  )
  .addOption(dataDirOption())
  .addOption(databaseUrlOption())
  .action(async (options: DatabaseFlags) => {
    const database = await openDatabase(configOf({ dataDir: options.dataDir, databaseUrl: options.databaseUrl }), {
      migrate: false,
    });
    try {
      const applied = await migrate(database);
      process.stdout.write(
        applied.length === 0
          ? 'The database is up to date.\n'
          : `Applied ${applied.length} migration(s): ${applied.join(', ')}.\n`,
      );
    } finally {
      await database.close();
    }
  });

program
  .command('engines')
  .description(
    'list the speech engines, what each transcription model uses, and whether each is usable on this machine',
  )
  .addOption(dataDirOption())
  .option('--json', 'print JSON')
  .action(async (options: { dataDir?: string; json?: boolean }) => {
    const config = configOf({ dataDir: options.dataDir });
    // Loaded only for this command (see `serve`).
    const { createEngineRegistry, describeEngines } = await import('./engines/engine-setup.js');
    const { configureAudioTools, describeAudioTools } = await import('./engines/audio/ffmpeg-tools.js');
    const { espeakStatus } = await import('./engines/speech/pronunciation.js');
    configureAudioTools(config.audio);
    const installedModels = modelManager({ dataDir: options.dataDir });
    const registry = createEngineRegistry(config.engines, { dataDir: config.dataDir, installedModels });
    const reports = await describeEngines(registry, config.engines);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
      return;
    }
    // Before the engines: a damaged model explains why `auto` runs another model, or the built-in recognizer.
    for (const m of installedModels.catalogue) {
      const problem = installedModels.damageOf(m);
      if (problem !== null) {
        process.stdout.write(
          `speech model ${m.name}: DAMAGED, engine auto skips it\n  why: ${problem}\n  fix: kikitori-server models delete ${m.name}, then kikitori-server models download ${m.name}\n`,
        );
      }
    }
    for (const r of reports) {
      const c = r.capabilities;
      const serves = r.servesModels.length > 0 ? `  [transcription_model: ${r.servesModels.join(', ')}]` : '';
      process.stdout.write(`${r.name}: ${r.usable ? 'usable' : 'NOT USABLE'}${serves}\n`);
      process.stdout.write(`  ${r.usable ? (r.detail ?? '') : `why: ${r.reason}`}\n`);
      const languages =
        c.languages.length > 12
          ? `${c.languages.slice(0, 12).join(',')},… (${c.languages.length})`
          : c.languages.join(',');
      process.stdout.write(
        `  languages=${languages} word-timestamps=${c.wordTimestamps} custom-vocabulary=${c.customVocabulary} speakers=${c.speakerSeparation}\n`,
      );
    }
    process.stdout.write(
      registry.speakers
        ? `speaker separation: ${registry.speakers.name} (every transcription, enhanced for diarization-high, with engines that do not separate speakers)\n`
        : 'speaker separation: none (KIKITORI_SPEAKER_ENGINE=none): diarization-high and speaker counts are refused\n',
    );
    // Which prints the voice library makes now (decision 0097).
    const speakerModels = speakerModelManager({
      dataDir: config.dataDir,
      baseUrl: config.models.baseUrl,
      catalog: config.models.catalog,
    });
    const speakerModel = speakerModels.catalogue.find(
      (m) => speakerModels.isInstalled(m) && !speakerModels.damageOf(m),
    );
    process.stdout.write(
      speakerModel
        ? `voice prints: speaker model ${speakerModel.name} (${speakerModel.embedding?.dimensions ?? '?'}-dim embeddings)\n`
        : `voice prints: MFCC statistics (no speaker model installed; optional: kikitori-server models download ${speakerModels.catalogue[0]?.name ?? 'wespeaker-resnet34'})\n`,
    );
    // The programs the engines run: without ffmpeg nothing is transcribed; without espeak-ng the
    // built-in engine runs with fewer dictionary words.
    for (const tool of await describeAudioTools()) {
      process.stdout.write(
        tool.usable
          ? `${tool.tool}: ${tool.version ?? 'unknown version'} (${tool.source === 'path' ? `${tool.command} on PATH` : `${tool.source}: ${tool.command}`})\n`
          : `${tool.tool}: MISSING\n  why: ${tool.reason}\n`,
      );
    }
    const espeak = await espeakStatus();
    process.stdout.write(
      espeak.usable
        ? `espeak-ng: ${espeak.version ?? 'unknown version'} (dictionary word pronunciations)\n`
        : `espeak-ng: MISSING\n  why: ${espeak.reason}\n`,
    );
  });

const models = program
  .command('models')
  .description('speech models (whisper.cpp ggml files) stored under <data-dir>/models');

/**
 * The manager the server would use: same data dir, mirror and catalogue (KIKITORI_MODEL_CATALOG). `name`: the
 * speaker models' manager when it is one of theirs (decision 0097), the speech models' otherwise.
 */
const modelManager = (flags: ConfigFlags, name?: string) => {
  const config = configOf(flags);
  const options = { dataDir: config.dataDir, baseUrl: config.models.baseUrl, reserveBytes: config.disk.minFreeBytes };
  const speech = new ModelManager({ ...options, catalogue: loadCatalogue(config.models) });
  if (name === undefined || speech.find(name)) return speech;
  const speaker = speakerModelManager({ ...options, catalog: config.models.catalog });
  return speaker.find(name) ? speaker : speech;
};

/** A ModelError's message for the user, and its detail for whoever reads the terminal. */
function reportModelError(error: unknown): void {
  if (!isModelError(error)) throw error;
  process.stderr.write(`${error.message}\n${error.detail ? `  (${error.detail})\n` : ''}`);
  process.exitCode = 1;
}

models
  .command('list')
  .description('list the catalogue and which models are installed')
  .addOption(dataDirOption())
  .option('--json', 'print JSON: the same objects as GET /api/v1/models answers in `models`')
  .action((options: { dataDir?: string; json?: boolean }) => {
    const manager = modelManager({ dataDir: options.dataDir });
    const list = manager.list();
    if (options.json) {
      process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      return;
    }
    process.stdout.write(`Models directory: ${manager.dir}\n`);
    for (const m of list) {
      let state = m.damaged ? 'DAMAGED: delete it and download it again' : m.installed ? 'installed' : '-';
      if (!m.installed) {
        try {
          const size = fs.statSync(path.join(manager.dir, m.file)).size;
          state = `incomplete (${size} of ${m.bytes} bytes)`;
        } catch {
          // not downloaded
        }
      }
      const kind = `${m.multilingual ? 'multilingual' : 'English only'}${m.quantized ? ', quantized' : ''}`;
      process.stdout.write(
        `${m.name.padEnd(20)} ${formatModelSize(m.bytes).padStart(8)}  ${kind.padEnd(24)} ${`${m.speed}/${m.accuracy}`.padEnd(16)} ${m.file.padEnd(30)} ${state}\n`,
      );
    }
    const config = configOf({ dataDir: options.dataDir });
    const speaker = speakerModelManager({
      dataDir: config.dataDir,
      baseUrl: config.models.baseUrl,
      catalog: config.models.catalog,
    });
    process.stdout.write('Speaker models (voice prints and speaker recognition; optional):\n');
    for (const m of speaker.catalogue) {
      const state = speaker.isInstalled(m) ? (speaker.damageOf(m) ? 'DAMAGED' : 'installed') : '-';
      process.stdout.write(
        `${m.name.padEnd(20)} ${formatModelSize(m.bytes).padStart(8)}  ${`${m.embedding?.dimensions ?? '?'}-dim embedding`.padEnd(24)} ${''.padEnd(16)} ${m.file.padEnd(30)} ${state}\n`,
      );
    }
  });

models
  .command('download')
  .description(
    'download a model into <data-dir>/models (resumes a previous partial download; verified by size and SHA-256)',
  )
  .argument('<name>', 'model name, e.g. base, small, large-v3-turbo-q5_0 (see `models list`)')
  .addOption(dataDirOption())
  .action(async (name: string, options: { dataDir?: string }) => {
    const manager = modelManager({ dataDir: options.dataDir }, name);
    let lastPercent = -1;
    let first = true;
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    try {
      const { path: file, bytes } = await manager.download(name, {
        signal: controller.signal,
        onProgress: (received, total) => {
          if (first && received > 0) process.stderr.write(`Resuming ${name} at ${received} of ${total} bytes.\n`);
          first = false;
          const percent = Math.floor((received / total) * 100);
          const step = process.stderr.isTTY ? 1 : 10;
          if (percent >= lastPercent + step || (percent === 100 && lastPercent !== 100)) {
            lastPercent = percent;
            process.stderr.write(
              process.stderr.isTTY
                ? `\r${name}: ${percent}%`
                : `${name}: ${percent}% (${received} of ${total} bytes)\n`,
            );
          }
        },
        onVerifying: () =>
          process.stderr.write(`${process.stderr.isTTY && lastPercent >= 0 ? '\n' : ''}${name}: verifying…\n`),
      });
      process.stdout.write(
        manager.format === SPEAKER_MODEL_FORMAT
          ? `Downloaded and verified ${file} (${bytes} bytes). Voice prints and speaker recognition use it from the next enrolment or transcription on.\n`
          : `Downloaded and verified ${file} (${bytes} bytes). With KIKITORI_ENGINE_DEFAULT=auto (the default) the next transcription uses it.\n`,
      );
    } catch (error) {
      if (process.stderr.isTTY && lastPercent >= 0) process.stderr.write('\n');
      reportModelError(error);
    }
  });

models
  .command('install')
  .description(
    'install a model from its file (for a machine that cannot reach the model host); checked as a download is (size, SHA-256, loads)',
  )
  .argument('<name>', 'model name, e.g. small (see `models list`)')
  .argument('<file>', 'the model file the catalogue names, e.g. ggml-small.bin, copied from another machine')
  .addOption(dataDirOption())
  .action(async (name: string, file: string, options: { dataDir?: string }) => {
    const manager = modelManager({ dataDir: options.dataDir }, name);
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch (error) {
      process.stderr.write(
        `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`,
      );
      process.exitCode = 1;
      return;
    }
    try {
      const installed = await manager.install(name, fs.createReadStream(file), { declaredBytes: size });
      process.stdout.write(
        `Installed and verified the model ${installed.name} (${installed.bytes} bytes). With KIKITORI_ENGINE_DEFAULT=auto (the default) the next transcription uses it.\n`,
      );
    } catch (error) {
      reportModelError(error);
    }
  });

models
  .command('delete')
  .description('delete an installed model (and any partial download of it)')
  .argument('<name>', 'model name')
  .addOption(dataDirOption())
  .action(async (name: string, options: { dataDir?: string }) => {
    const manager = modelManager({ dataDir: options.dataDir }, name);
    try {
      await manager.delete(name);
      process.stdout.write(`Deleted the model ${name}.\n`);
    } catch (error) {
      reportModelError(error);
    }
  });

models
  .command('verify')
  .description(
    'check installed models (size, SHA-256, and that whisper.cpp can load them); all present ones when no name is given',
  )
  .argument('[name]', 'model name')
  .addOption(dataDirOption())
  .action(async (name: string | undefined, options: { dataDir?: string }) => {
    const config = configOf({ dataDir: options.dataDir });
    const manager = modelManager({ dataDir: options.dataDir }, name);
    if (name !== undefined && !manager.find(name)) {
      reportModelError(
        new ModelError(
          'not-found',
          `There is no speech model called "${name}". Available: ${manager.catalogue.map((m) => m.name).join(', ')}.`,
        ),
      );
      return;
    }
    const names = name !== undefined ? [name] : manager.present().map((m) => m.name);
    if (names.length === 0) {
      process.stdout.write(`No model is downloaded in ${manager.dir}. ${howToGetModel(config.dataDir)}\n`);
      return;
    }
    for (const n of names) {
      const result = await manager.verify(n);
      process.stdout.write(`${result.name}: ${result.ok ? 'OK' : `FAILED: ${result.problem}`} (${result.path})\n`);
      if (!result.ok) process.exitCode = 1;
    }
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
  } else if (error instanceof DatabaseTooNewError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
