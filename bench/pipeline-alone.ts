// The engine ceiling of bench:cluster's worker comparison: the worker's own transcription pipeline
// (server-runtime's transcriptionPipeline, with the default configuration's engines) run on local files
// one after another, with no queue, database, storage or HTTP. bench:cluster starts one of these, then two
// at once, beside the worker rounds: two of them on this machine scale only as far as its cores and
// memory let two transcriptions run side by side. Workers can scale a little further: a lone worker also
// waits between jobs (storage, status writes, the queue), and a second worker fills those waits.
// Usage: node dist/bench/pipeline-alone.js JOBS FILE... ; prints one JSON line {jobs, seconds}.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src-server/config.js';
import { StageTimings } from '../src-server/domain/stage-timings.js';
import { createEngineRegistry } from '../src-server/engines/engine-setup.js';
import { transcriptionPipeline } from '../src-server/server-runtime.js';
import { statfsFreeSpace } from '../src-server/storage/free-space.js';

const [jobsArg, ...files] = process.argv.slice(2);
const jobs = Number(jobsArg);
if (!Number.isInteger(jobs) || jobs < 1 || files.length === 0) throw new Error('usage: pipeline-alone.js JOBS FILE...');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-pipeline-alone-'));
try {
  const config = loadConfig({ dataDir }, {});
  const logger = pino({ level: 'warn' });
  const engines = createEngineRegistry(config.engines, { dataDir, logger });
  const pipeline = transcriptionPipeline(config, engines, statfsFreeSpace);
  const recognizer = engines.speechFor('default');
  const started = performance.now();
  for (let i = 0; i < jobs; i++) {
    const audioPath = files[i % files.length]!;
    const pcmPath = path.join(dataDir, `alone-${i}.pcm`);
    await pipeline.run(
      {
        id: `alone-${i}`,
        audioPath,
        sizeBytes: fs.statSync(audioPath).size,
        pcmPath,
        recognizer,
        recognizerSeparatesSpeakers: recognizer.capabilities.speakerSeparation,
        language: 'en',
        vocabulary: [],
        speakers: null,
        rules: [],
        transcriptionModel: 'default',
      },
      { signal: new AbortController().signal, timings: new StageTimings(), report: () => undefined },
    );
    fs.rmSync(pcmPath, { force: true });
  }
  console.log(JSON.stringify({ jobs, seconds: (performance.now() - started) / 1000 }));
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
