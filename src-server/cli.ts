// kikitori-server command line: serve, keys, engines.
import { Command, Option } from 'commander';
import pino from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { SqliteKeyRepository } from './db/key-repository.js';
import { createRuntime } from './server-runtime.js';
import { createEngineRegistry } from './engines/engine-setup.js';

const program = new Command('kikitori-server').description('Self-hostable Transcription and Dictionary API server').showHelpAfterError();

const dataDirOption = () => new Option('--data-dir <dir>', 'where everything is stored (KIKITORI_DATA_DIR)');

program
  .command('serve')
  .description('start the HTTP server; prints its URL when ready')
  .option('--host <host>', 'interface to listen on (KIKITORI_HOST)')
  .option('--port <port>', 'port to listen on; 0 picks a free one (KIKITORI_PORT)')
  .addOption(dataDirOption())
  .action(async (options: { host?: string; port?: string; dataDir?: string }) => {
    const config = loadConfig(options);
    const logger = pino({ level: config.logLevel });
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
    const db = openDatabase(loadConfig({ dataDir: options.dataDir }).dataDir);
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
    const db = openDatabase(loadConfig({ dataDir: options.dataDir }).dataDir);
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
    const db = openDatabase(loadConfig({ dataDir: options.dataDir }).dataDir);
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
  .description('list the configured speech engines and whether they are usable on this machine')
  .action(async () => {
    const registry = createEngineRegistry(process.env);
    for (const engine of registry.speechEngines.values()) {
      const c = engine.capabilities;
      process.stdout.write(
        `${engine.name}: languages=${c.languages.join(',')} word-timestamps=${c.wordTimestamps} custom-vocabulary=${c.customVocabulary} speakers=${c.speakerSeparation}\n`,
      );
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
