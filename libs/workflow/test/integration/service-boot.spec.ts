import path from 'node:path';
import { NODE_NAMES, NODE_SERVICE, SERVICE_NAMES } from '@dossier/contracts';
import { startChildService, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, processEnv, uniquePrefix } from '../fixtures/engine';

const APPS = path.resolve(__dirname, '../../../../apps');

describe('service processes boot checks', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await prepareDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('every stage service refuses to start without handlers, naming exactly its missing nodes', async () => {
    const env = processEnv(db, uniquePrefix('boot'));
    const results = await Promise.all(
      SERVICE_NAMES.map(async (service) => {
        const child = startChildService(path.join(APPS, service, 'src/main.ts'), env, service);
        const exit = await child.exited;
        return { service, exit, output: child.output() };
      }),
    );
    for (const { service, exit, output } of results) {
      expect(exit.code).toBe(1);
      const owned = NODE_NAMES.filter((n) => NODE_SERVICE[n] === service);
      expect(output).toContain(`${service}: Cannot start service(s) ${service}: no handler for node(s) ${owned.join(', ')}`);
    }
  });

  it('a missing or malformed variable fails the boot, naming it', async () => {
    const env = { ...processEnv(db, uniquePrefix('cfg')), DATABASE_URL: '', REDIS_URL: 'http://not-redis', STEP_LOCK_MS: 'soon' };
    const child = startChildService(path.join(APPS, 'conductor/src/main.ts'), env, 'conductor');
    expect((await child.exited).code).toBe(1);
    expect(child.output()).toMatch(/conductor: Invalid configuration: DATABASE_URL: required but not set; REDIS_URL: must be a valid URL; STEP_LOCK_MS: /);
  });

  it('the conductor stops cleanly on SIGTERM', async () => {
    const child = startChildService(path.join(APPS, 'conductor/src/main.ts'), processEnv(db, uniquePrefix('term')), 'conductor');
    await child.waitForOutput(/conductor ready/);
    child.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.output()).toMatch(/conductor stopped/);
  });
});
