// kikitori-server command line: serve, keys, engines, models.
// The one place that reads the process environment: each command hands its flags and the environment
// to loadConfig() and passes the typed sections on.
import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import pino from 'pino';
import { ConfigError, loadConfig, redactConfig, settingForFlag, type ConfigFlags, type ServerConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { SqliteKeyRepository } from './db/key-repository.js';
import { isEngineError } from './domain/engine-error.js';
import { createRuntime } from './server-runtime.js';
import { createEngineRegistry, describeEngines } from './engines/engine-setup.js';
import { configureAudioTools, describeAudioTools } from './engines/audio/ffmpeg-tools.js';
import { espeakStatus } from './engines/speech/pronunciation.js';
import {
  downloadWhisperModel,
  findWhisperModel,
  formatModelSize,
  howToGetModel,
  presentWhisperModels,
  unknownModelMessage,
  verifyWhisperModel,
  WHISPER_MODELS,
  whisperModelsDir,
} from './engines/speech/whisper-catalogue.js';

// Everything the server creates in the data dir (database, audio, transcripts, work files, models, what
// ffmpeg writes) is for this user only: 0700 directories, 0600 files, whichever code or tool creates it.
process.umask(0o077);

const program = new Command('kikitori-server').description('Self-hostable Transcription and Dictionary API server').showHelpAfterError();

// Commands pass only their configuration flags: other options (keys create --role) are not settings.
const configOf = (flags: ConfigFlags): ServerConfig => loadConfig(flags, process.env);

/** A flag declared by the configuration schema, described from it. */
const configOption = (flag: string, value: string) => {
  const setting = settingForFlag(flag);
  return new Option(`${flag} <${value}>`, `${setting.description} (${setting.env})`);
};
const dataDirOption = () => configOption('--data-dir', 'dir');

program
  .command('serve')
  .description('start the HTTP server; prints its URL when ready')
  .addOption(configOption('--host', 'host'))
  .addOption(configOption('--port', 'port'))
  .addOption(dataDirOption())
  .action(async (options: { host?: string; port?: string; dataDir?: string }) => {
    const config = configOf({ host: options.host, port: options.port, dataDir: options.dataDir });
    const logger = pino({ level: config.log.level });
    logger.debug({ config: redactConfig(config) }, 'configuration');
    const runtime = await createRuntime(config, { logger });
    const url = await runtime.listen();
    // The URL alone on stdout: scripts and the desktop app wait for this line.
    process.stdout.write(`kikitori-server listening on ${url}\n`);
    let closing = false;
    const shutdown = (signal: string) => {
      if (closing) return;
      closing = true;
      logger.info({ signal }, 'shutting down; running jobs will resume at the next start');
      runtime.close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'error during shutdown');
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', () => shutdown('SIGINT'));
    process.on('SIGTERM', () => shutdown('SIGTERM'));
  });

const keys = program.command('keys').description('manage API keys');

keys
  .command('create')
  .description('create an API key (and the team and user if new); prints the key alone on the last line')
  .addOption(dataDirOption())
  .requiredOption('--team <team>', 'team id')
  .requiredOption('--user <user>', 'user id')
  .option('--user-name <name>', 'display name of the user')
  .option('--role <role>', 'role to grant, e.g. DELETE (repeatable)', (value: string, all: string[]) => [...all, value], [] as string[])
  .action(async (options: { dataDir?: string; team: string; user: string; userName?: string; role: string[] }) => {
    const db = openDatabase(configOf({ dataDir: options.dataDir }).dataDir);
    const { key, info } = await new SqliteKeyRepository(db).create({
      teamId: options.team,
      userId: options.user,
      userName: options.userName,
      roles: options.role,
    });
    db.close();
    process.stdout.write(`Created key ${info.keyId} for user "${info.userId}" in team "${info.teamId}" (roles: ${info.roles.join(', ') || 'none'}).\n`);
    process.stdout.write('Store it now: it is shown only once.\n');
    process.stdout.write(`${key}\n`);
  });

keys
  .command('list')
  .description('list API keys (never the keys themselves)')
  .addOption(dataDirOption())
  .option('--team <team>', 'only this team')
  .option('--json', 'print JSON')
  .action(async (options: { dataDir?: string; team?: string; json?: boolean }) => {
    const db = openDatabase(configOf({ dataDir: options.dataDir }).dataDir);
    const list = await new SqliteKeyRepository(db).list(options.team);
    db.close();
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
  .argument('<key-id-or-prefix>')
  .action(async (id: string, options: { dataDir?: string }) => {
    const db = openDatabase(configOf({ dataDir: options.dataDir }).dataDir);
    const revoked = await new SqliteKeyRepository(db).revoke(id);
    db.close();
    if (!revoked) {
      process.stderr.write(`No single key matches "${id}". Run \`kikitori-server keys list\` to see key ids.\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`Revoked key ${revoked.keyId} (${revoked.keyPrefix}…) of user "${revoked.userId}".\n`);
  });

program
  .command('engines')
  .description('list the speech engines, what each transcription model uses, and whether each is usable on this machine')
  .addOption(dataDirOption())
  .option('--json', 'print JSON')
  .action(async (options: { dataDir?: string; json?: boolean }) => {
    const config = configOf({ dataDir: options.dataDir });
    configureAudioTools(config.audio);
    const registry = createEngineRegistry(config.engines, { dataDir: config.dataDir });
    const reports = await describeEngines(registry, config.engines);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
      return;
    }
    for (const r of reports) {
      const c = r.capabilities;
      const serves = r.servesModels.length > 0 ? `  [transcription_model: ${r.servesModels.join(', ')}]` : '';
      process.stdout.write(`${r.name}: ${r.usable ? 'usable' : 'NOT USABLE'}${serves}\n`);
      process.stdout.write(`  ${r.usable ? r.detail ?? '' : `why: ${r.reason}`}\n`);
      const languages = c.languages.length > 12 ? `${c.languages.slice(0, 12).join(',')},… (${c.languages.length})` : c.languages.join(',');
      process.stdout.write(
        `  languages=${languages} word-timestamps=${c.wordTimestamps} custom-vocabulary=${c.customVocabulary} speakers=${c.speakerSeparation}\n`,
      );
    }
    process.stdout.write(
      registry.speakers
        ? `speaker separation: ${registry.speakers.name} (for diarization-high and speaker counts, with engines that do not separate speakers)\n`
        : 'speaker separation: none (KIKITORI_SPEAKER_ENGINE=none): diarization-high and speaker counts are refused\n',
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
    process.stdout.write(espeak.usable ? `espeak-ng: ${espeak.version ?? 'unknown version'} (dictionary word pronunciations)\n` : `espeak-ng: MISSING\n  why: ${espeak.reason}\n`);
  });

const models = program.command('models').description('whisper.cpp models (official ggml files) stored under <data-dir>/models');

models
  .command('list')
  .description('list the official whisper models and which are downloaded')
  .addOption(dataDirOption())
  .action((options: { dataDir?: string }) => {
    const dir = whisperModelsDir(configOf({ dataDir: options.dataDir }).dataDir);
    process.stdout.write(`Models directory: ${dir}\n`);
    for (const m of WHISPER_MODELS) {
      let state = '-';
      try {
        const size = fs.statSync(path.join(dir, m.file)).size;
        state = size === m.bytes ? 'downloaded' : `incomplete (${size} of ${m.bytes} bytes)`;
      } catch {
        // not downloaded
      }
      process.stdout.write(`${m.name.padEnd(15)} ${formatModelSize(m.bytes).padStart(8)}  ${(m.multilingual ? 'multilingual' : 'English only').padEnd(12)}  ${m.file.padEnd(24)} ${state}\n`);
    }
  });

models
  .command('download')
  .description('download an official model into <data-dir>/models (verified by size and SHA-256)')
  .argument('<name>', 'model name, e.g. base, small, large-v3 (see `models list`)')
  .addOption(dataDirOption())
  .action(async (name: string, options: { dataDir?: string }) => {
    const config = configOf({ dataDir: options.dataDir });
    let lastPercent = -1;
    try {
      const { path: file, bytes } = await downloadWhisperModel(name, {
        dataDir: config.dataDir,
        baseUrl: config.models.baseUrl,
        onProgress: (received, total) => {
          const percent = Math.floor((received / total) * 100);
          if (percent >= lastPercent + 5 && process.stderr.isTTY) {
            lastPercent = percent;
            process.stderr.write(`\r${name}: ${percent}%`);
          }
        },
      });
      if (lastPercent >= 0) process.stderr.write('\n');
      process.stdout.write(`Downloaded and verified ${file} (${bytes} bytes). Use it with KIKITORI_ENGINE_DEFAULT=whisper.\n`);
    } catch (error) {
      if (lastPercent >= 0) process.stderr.write('\n');
      if (!isEngineError(error)) throw error;
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    }
  });

models
  .command('verify')
  .description('check downloaded models (size, SHA-1, SHA-256); all downloaded ones when no name is given')
  .argument('[name]', 'model name')
  .addOption(dataDirOption())
  .action(async (name: string | undefined, options: { dataDir?: string }) => {
    const dataDir = configOf({ dataDir: options.dataDir }).dataDir;
    if (name !== undefined && !findWhisperModel(name)) {
      process.stderr.write(`${unknownModelMessage(name)}\n`);
      process.exitCode = 1;
      return;
    }
    const names = name !== undefined ? [name] : presentWhisperModels(dataDir).map((m) => m.name);
    if (names.length === 0) {
      process.stdout.write(`No whisper model is downloaded in ${whisperModelsDir(dataDir)}. ${howToGetModel(dataDir)}\n`);
      return;
    }
    for (const n of names) {
      const result = await verifyWhisperModel(n, dataDir);
      process.stdout.write(`${result.name}: ${result.ok ? 'OK' : `FAILED: ${result.problem}`} (${result.path})\n`);
      if (!result.ok) process.exitCode = 1;
    }
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
  } else {
    process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  }
  process.exit(1);
});
