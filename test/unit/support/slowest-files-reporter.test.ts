import { describe, expect, it } from 'vitest';
import type { TestModule, Vitest } from 'vitest/node';
import SlowestFilesReporter from '../../support/slowest-files-reporter.js';

/** The parts of a TestModule the reporter reads. */
function testModule(file: string, project: string, collectMs: number, runMs: number): TestModule {
  return {
    moduleId: `/repo/${file}`,
    project: { name: project },
    diagnostic: () => ({ collectDuration: collectMs, duration: runMs }),
  } as unknown as TestModule;
}

function run(modules: TestModule[]): string[] {
  const lines: string[] = [];
  const reporter = new SlowestFilesReporter();
  reporter.onInit({
    config: { root: '/repo' },
    logger: { log: (line: string) => lines.push(line) },
  } as unknown as Vitest);
  reporter.onTestRunEnd(modules);
  return lines;
}

describe('slowest files reporter', () => {
  it('prints the 15 slowest files, slowest first, with project and seconds of import plus tests', () => {
    const modules = Array.from({ length: 20 }, (_, i) =>
      testModule(`test/unit/f${i}.test.ts`, i % 2 ? 'postgres-s3' : 'sqlite-files', 100 * i, 1000 * i),
    );
    const lines = run(modules);
    expect(lines[0]).toContain('Slowest 15 test files');
    const rows = lines.slice(1);
    expect(rows).toHaveLength(15);
    expect(rows[0]).toMatch(/^\s+20\.9\s+postgres-s3\s+test\/unit\/f19\.test\.ts$/);
    expect(rows[1]).toMatch(/^\s+19\.8\s+sqlite-files\s+test\/unit\/f18\.test\.ts$/);
    expect(rows[14]).toContain('test/unit/f5.test.ts');
  });

  it('prints nothing when no file ran', () => {
    expect(run([])).toEqual([]);
  });
});
