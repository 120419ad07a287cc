// Prints the slowest test files after a run, next to the default reporter, so a slow file is seen the day
// it lands (issue 23: the suite must stay within its time budget). Duration: import plus tests and hooks.
import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

const SHOWN = 15;

export default class SlowestFilesReporter implements Reporter {
  private root = process.cwd();
  private log: (line: string) => void = (line) => console.log(line);

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.log = (line) => vitest.logger.log(line);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = testModules
      .map((m) => {
        const d = m.diagnostic();
        return {
          file: path.relative(this.root, m.moduleId),
          project: m.project.name,
          ms: d.collectDuration + d.duration,
        };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (rows.length === 0) return;
    const width = Math.max(...rows.map((r) => r.project.length));
    this.log(`\nSlowest ${rows.length} test files (import + tests, seconds):`);
    for (const r of rows) this.log(`  ${(r.ms / 1000).toFixed(1).padStart(7)}  ${r.project.padEnd(width)}  ${r.file}`);
  }
}
