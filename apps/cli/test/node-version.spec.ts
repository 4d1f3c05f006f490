import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { progressLine } from '@dossier/client';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the check is plain CommonJS, run before any loader
const { nodeVersionProblem } = require('../bin/node-version.cjs') as { nodeVersionProblem: (v: string) => string | null };

describe('the Node version check (issue 28)', () => {
  it('refuses a Node older than 24 with what to do', () => {
    expect(nodeVersionProblem('20.19.2')).toBe('dossier: Dossier needs Node ≥ 24 (this is Node 20.19.2); run `source tools/env.sh`');
    expect(nodeVersionProblem('v23.11.0')).toMatch(/needs Node ≥ 24/);
  });

  it('lets Node 24 and later through', () => {
    expect(nodeVersionProblem('24.0.0')).toBeNull();
    expect(nodeVersionProblem(process.versions.node)).toBeNull();
  });

  it('runs before the CLI loads anything: the bin checks first', () => {
    // Under this (new enough) Node the bin goes on to the CLI: --help answers.
    const run = spawnSync(process.execPath, [path.join(__dirname, '../bin/dossier'), '--help'], { encoding: 'utf8', timeout: 120_000 });
    expect(run.stdout).toMatch(/Usage: dossier/);
  });
});

describe('progress lines (issue 28: no raw floats)', () => {
  it('rounds a step result figure to two decimals', () => {
    const line = progressLine(
      {
        type: 'step_completed',
        node: 'moderate',
        iteration: 1,
        shard: 0,
        result: { informationGain: 0.6498333333333334, sources: 4 },
      } as never,
      new Map(),
    );
    expect(line).toContain('informationGain 0.65, sources 4');
    expect(line).not.toContain('0.6498');
  });
});
