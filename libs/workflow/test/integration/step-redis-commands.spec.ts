import { Redis } from 'ioredis';
import { redisScriptNames } from '@dossier/queue';
import type { TestDatabase } from '@dossier/testing';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { completedSteps, waitForStatus } from '../fixtures/run-queries';

/**
 * The Redis commands a step costs, counted at the driver over whole runs one at a time (every ioredis command of this
 * process, which hosts the engine: producer, workers, conductor), by name — a BullMQ script by its name. A count, not a
 * time: each is a socket write and a round trip. The floor is four per step (the add, the `BZPOPMIN` that wakes a
 * worker, `moveToActive`, `moveToFinished`); BullMQ's own fetch asked ~2 more (docs/decisions/0140, 0144).
 */
describe('Redis commands per step (real Redis and Postgres, engine in this process)', () => {
  let db: TestDatabase;
  let engine: TestEngine | undefined;
  const sent = new Map<string, number>();
  type Command = { name: string; args: unknown[] };
  const proto = Redis.prototype as unknown as { sendCommand: (this: Redis, command: Command, ...rest: unknown[]) => unknown };
  const sendCommand = proto.sendCommand;

  beforeAll(async () => {
    db = await prepareDatabase();
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 3, sources: 2, sections: 2, gains: [0.9, 0.8] });
    const byHash = redisScriptNames();
    proto.sendCommand = function (this: Redis, command: Command, ...rest: unknown[]) {
      const name =
        command.name === 'evalsha' || command.name === 'eval' ? (byHash.get(String(command.args[0])) ?? command.name) : command.name;
      sent.set(name, (sent.get(name) ?? 0) + 1);
      return sendCommand.call(this, command, ...rest);
    };
    engine = await startEngine(db, uniquePrefix('redis-commands'));
  });
  afterAll(async () => {
    proto.sendCommand = sendCommand;
    await engine?.close();
    await db?.drop();
  });

  it("takes a step with the floor's commands: no empty asks or stale wake-ups after a job", async () => {
    // Warm: the first run's connections, scripts loaded, workers blocked.
    const warm = await engine!.commands.start({ tenantId: TENANT, question: 'warm', options: { maxIterations: 1 }, actor: 'test' });
    await waitForStatus(db.url, warm.id, 'completed');
    sent.clear();
    let steps = 0;
    for (let i = 0; i < 3; i += 1) {
      const run = await engine!.commands.start({ tenantId: TENANT, question: `count ${i}`, options: { maxIterations: 2 }, actor: 'test' });
      await waitForStatus(db.url, run.id, 'completed');
      steps += (await completedSteps(db.url, run.id)).length;
    }
    const perStep = Object.fromEntries([...sent].map(([name, n]) => [name, Math.round((n / steps) * 100) / 100]));
    console.log(`${steps} steps; Redis commands per step: ${JSON.stringify(perStep)}`);
    // Every fetch goes through the drain-aware scripts; BullMQ's own are not sent.
    expect(sent.get('moveToActive') ?? 0).toBe(0);
    expect(sent.get('moveToFinished') ?? 0).toBe(0);
    // About one fetch and one wake-up per step (fan-out shards share both; the stall checks and the conductor's
    // polls are the rest): BullMQ's stock loop took ~2.3 and ~1.6.
    const fetches = (sent.get('moveToActive (drain-aware)') ?? 0) / steps;
    const wakeUps = (sent.get('bzpopmin') ?? 0) / steps;
    expect(fetches).toBeLessThan(1.3);
    expect(wakeUps).toBeLessThan(1.3);
    expect((sent.get('moveToFinished (drain-aware)') ?? 0) / steps).toBeCloseTo(1, 1);
  }, 240_000);
});
