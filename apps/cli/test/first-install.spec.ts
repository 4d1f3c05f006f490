import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@dossier/testing';

/**
 * Issue 28: on a fresh clone `npm run demo` fetched Node 24 and ran `npm ci` for minutes without a word. A copy of the
 * scripts in a folder with no node_modules, with stand-ins for `node` (Node 20 here) and `npm` on the PATH, shows what
 * the person sees before each silent step.
 */
describe('the first install says what it is doing', () => {
  const clone = mkdtempSync(path.join(tmpdir(), 'dossier-clone-'));
  const bin = path.join(clone, 'fake-bin');
  const calls = path.join(clone, 'npm-calls');

  beforeAll(() => {
    mkdirSync(path.join(clone, 'tools'), { recursive: true });
    for (const f of ['env.sh', 'demo.sh']) copyFileSync(path.join(REPO_ROOT, 'tools', f), path.join(clone, 'tools', f));
    mkdirSync(bin);
    const script = (name: string, body: string) => {
      writeFileSync(path.join(bin, name), `#!/usr/bin/env bash\n${body}\n`);
      chmodSync(path.join(bin, name), 0o755);
    };
    script('node', 'echo 20');
    // The Node download "works" (nothing written), npm ci fails: the demo stops there, after its notices.
    script('npm', `echo "npm $*" >> ${calls}; [ "$1" = ci ] && exit 3; exit 0`);
  });

  it('announces the Node 24 download and npm ci before running them', () => {
    const run = spawnSync('bash', [path.join(clone, 'tools', 'demo.sh')], {
      encoding: 'utf8',
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: clone, NODE24_PREFIX: path.join(clone, 'node24') },
      timeout: 60_000,
    });
    expect(run.stderr).toContain(`dossier: fetching Node 24 into ${path.join(clone, 'node24')} (first run only; about 30 MB`);
    expect(run.stderr).toContain('dossier: installing dependencies (npm ci, first run only: usually 2–5 minutes, quiet until done)…');
    // Said before, not after: npm ci failed and the demo stopped there.
    expect(run.status).toBe(3);
    expect(run.stderr).not.toContain('dependencies installed');
  });
});
