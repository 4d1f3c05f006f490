import { TenantPolicy } from '@dossier/contracts';
import type { Prisma, SchemaStatus } from '@dossier/db';
import { DependencyUnavailableError, isDependencyUnavailable, SchemaOutdatedError } from '@dossier/errors';
import { CliUsageError } from '../cli-error';
import { positiveInt } from '../framework/option-parsers';
import { defineCommand } from '../framework/command-spec';
import { adminDatabaseUrl, withRepositories } from './admin-session';

// The database module is heavy (the Prisma client): loaded when an admin command runs, not when `dossier` starts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const db = () => require('@dossier/db') as typeof import('@dossier/db');

/**
 * A way in on a fresh install (a Kubernetes Job, the compose `bootstrap` service): the first tenant and an admin key,
 * printed once. Safe to run on every deploy: once any tenant exists it creates nothing, so a deleted tenant is not
 * re-created behind the operator's back and no second key is minted.
 */
export const bootstrapCommand = defineCommand<{ keyName: string }>({
  name: 'bootstrap',
  description: 'First install: create this tenant and an admin key (printed once) if the database has no tenant yet; otherwise do nothing',
  arguments: [{ name: 'tenant', description: 'the first tenant’s name', required: true }],
  options: [{ flags: '--key-name <principal>', description: 'who the admin key is for', default: 'bootstrap' }],
  async run({ args, opts, out }) {
    const name = (args[0] as string | undefined)?.trim();
    if (!name) throw new CliUsageError('The tenant name is required');
    await withRepositories(async ({ tenants, keys, transaction }) => {
      const made = await transaction(async (tx) => {
        // Two bootstraps started at once (two Job pods, a retried one): the second waits here and then finds the tenant.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('dossier-admin-bootstrap'))`;
        const existing = await tenants.count(tx);
        if (existing > 0) return { existing };
        const tenant = await tenants.createIfAbsent(name, TenantPolicy.parse({}) as Prisma.InputJsonValue, tx);
        if (!tenant) return { existing: 1 };
        return { tenant, ...(await keys.create(tenant.id, opts.keyName, 'admin', tx)) };
      });
      if (!('tenant' in made) || !made.tenant) {
        out.line(
          `The database has ${made.existing} tenant${made.existing === 1 ? '' : 's'} already: nothing created. ` +
            `A new key: dossier admin create-key TENANT --role admin`,
        );
        return;
      }
      out.line(`Created tenant ${made.tenant.name} (${made.tenant.id}) and an admin key ${made.row.prefix} (principal ${opts.keyName}).`);
      out.line('It is shown only now; store it safely:');
      out.line(made.key);
    });
  },
});

const POLL_MS = 2_000;

/**
 * Is the database migrated for this build? Once, or (--wait) until it is: what each Deployment's init container runs,
 * so new pods wait for the migration Job instead of crash-looping against the old schema.
 */
export const schemaCommand = defineCommand<{ wait?: number }>({
  name: 'schema',
  description: "Compare the database's applied migrations with this build's; exit 1 while one is missing",
  options: [
    {
      flags: '--wait <seconds>',
      description: 'check every 2 s until the schema is current, at most this long (an init container waiting for the migration Job)',
      parse: positiveInt('wait'),
    },
  ],
  async run({ opts, out }) {
    const url = adminDatabaseUrl();
    const deadline = Date.now() + (opts.wait ?? 0) * 1000;
    let said = '';
    for (;;) {
      let status: SchemaStatus | undefined;
      let waitingFor: string;
      try {
        status = await db().readSchemaStatus(url);
        waitingFor = `${status.missing.length} migration(s) of this build not applied yet`;
      } catch (err) {
        if (!isDependencyUnavailable(err) || opts.wait === undefined) throw err;
        waitingFor = 'the database to answer';
      }
      if (status && status.missing.length === 0) {
        const newer = status.unknown.length > 0 ? `; ${status.unknown.length} newer one(s) too (a newer build migrated it)` : '';
        out.line(`Schema current: all ${status.shipped.length} migrations of this build applied${newer}.`);
        return 0;
      }
      if (Date.now() >= deadline) {
        if (status) throw new SchemaOutdatedError(db().describeOutdated(status), { details: { missing: status.missing } });
        throw new DependencyUnavailableError(`The database did not answer within ${opts.wait} s`);
      }
      if (waitingFor !== said) out.line(`Waiting for ${waitingFor}…`);
      said = waitingFor;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  },
});
