import { TenantPolicy } from '@dossier/contracts';
import { isKeyRole, type Prisma } from '@dossier/db';
import { CliUsageError } from '../cli-error';
import { bootstrapCommand, schemaCommand } from './admin-operations.command';
import { withRepositories } from './admin-session';
import { defineCommand, type CommandSpec } from '../framework/command-spec';

function parsePolicy(text: string | undefined): TenantPolicy {
  if (text === undefined) return TenantPolicy.parse({});
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliUsageError(`The policy must be JSON, e.g. '{"requiredGates":["plan"],"caps":{"tokens":200000}}'`);
  }
  const parsed = TenantPolicy.safeParse(json);
  if (!parsed.success) {
    throw new CliUsageError(
      `Invalid policy: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

function required(value: string | undefined, what: string): string {
  const v = value?.trim();
  if (!v) throw new CliUsageError(`${what} is required`);
  return v;
}

const createTenant = defineCommand<{ policy?: string }>({
  name: 'create-tenant',
  description: 'Create a tenant, optionally with its policy',
  arguments: [{ name: 'name', description: 'the tenant name', required: true }],
  options: [{ flags: '--policy <json>', description: 'TenantPolicy JSON: requiredGates, caps, engines, searchProviders, rateLimit' }],
  async run({ args, opts, out }) {
    const name = required(args[0] as string, 'The tenant name');
    await withRepositories(async ({ tenants }) => {
      // One statement decides, so two operators (or scripts) creating the same tenant at once get one tenant and one clear refusal.
      const t = await tenants.createIfAbsent(name, parsePolicy(opts.policy) as Prisma.InputJsonValue);
      if (!t) throw new CliUsageError(`Tenant "${name}" already exists`);
      out.line(`Created tenant ${t.name} (${t.id}).`);
    });
  },
});

const setPolicy = defineCommand({
  name: 'set-policy',
  description: "Replace a tenant's policy",
  arguments: [
    { name: 'tenant', description: 'the tenant name', required: true },
    { name: 'policy', description: 'TenantPolicy JSON', required: true },
  ],
  async run({ args, out }) {
    const name = required(args[0] as string, 'The tenant name');
    const policy = parsePolicy(args[1] as string);
    await withRepositories(async ({ tenants }) => {
      const t = await tenants.findByName(name);
      if (!t) throw new CliUsageError(`No tenant "${name}"`);
      await tenants.setPolicy(t.id, policy as Prisma.InputJsonValue);
      out.line(`Policy of ${t.name} updated.`);
    });
  },
});

const createKey = defineCommand<{ name: string; role: string }>({
  name: 'create-key',
  description: "Create an API key for a tenant with the role asked for (the key's own, whatever its principal's); printed once",
  arguments: [{ name: 'tenant', description: 'the tenant name', required: true }],
  options: [
    { flags: '--name <principal>', description: 'who the key is for', default: 'default' },
    { flags: '--role <role>', description: 'admin, member, or viewer (read-only)', default: 'member' },
  ],
  async run({ args, opts, out }) {
    const name = required(args[0] as string, 'The tenant name');
    const role = opts.role;
    if (!isKeyRole(role)) throw new CliUsageError(`--role must be admin, member or viewer, got "${role}"`);
    await withRepositories(async ({ tenants, keys }) => {
      const t = await tenants.findByName(name);
      if (!t) throw new CliUsageError(`No tenant "${name}": create it first (dossier admin create-tenant ${name})`);
      const { key, row } = await keys.create(t.id, opts.name, role);
      const may = row.role === 'viewer' ? 'read only' : 'read and write';
      out.line(
        `Key ${row.prefix} for ${t.name} (principal ${opts.name}), role ${row.role} (${may}). It is shown only now; store it safely:`,
      );
      out.line(key);
    });
  },
});

const revokeKey = defineCommand({
  name: 'revoke-key',
  description: 'Revoke a key: refused from the next request on',
  arguments: [{ name: 'prefix', description: 'the key prefix (dsk_<prefix>_…)', required: true }],
  async run({ args, out }) {
    const prefix = required(args[0] as string, 'The key prefix');
    await withRepositories(async ({ keys }) => {
      const row = await keys.revoke(prefix);
      if (!row) throw new CliUsageError(`No key with prefix "${prefix}"`);
      out.line(`Key ${row.prefix} revoked at ${row.revokedAt!.toISOString()}.`);
    });
  },
});

export const adminCommand: CommandSpec<never> = {
  name: 'admin',
  description: 'Operators: tenants and API keys, straight in the database at DATABASE_URL',
  transports: ['local'],
  subcommands: [createTenant, createKey, revokeKey, setPolicy, bootstrapCommand, schemaCommand] as CommandSpec<never>[],
};
