import { TenantPolicy } from '@dossier/contracts';
import { ApiKeyRepository, PrismaService, TenantRepository, type Prisma } from '@dossier/db';
import { CliUsageError } from '../cli-error';
import type { Output } from '../output';

export interface AdminArgs {
  databaseUrl: string;
  name?: string;
  role?: string;
  policy?: string;
}

function parsePolicy(text: string | undefined): TenantPolicy {
  if (text === undefined) return TenantPolicy.parse({});
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliUsageError(`--policy must be JSON, e.g. '{"requiredGates":["plan"],"caps":{"tokens":200000}}'`);
  }
  const parsed = TenantPolicy.safeParse(json);
  if (!parsed.success)
    throw new CliUsageError(
      `Invalid --policy: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/**
 * `dossier admin …`: tenants and API keys, straight in the database (the operator's tool; the gateway
 * has no admin HTTP API). A key's secret is printed once and never stored.
 */
export async function admin(out: Output, sub: string | undefined, rest: string[], args: AdminArgs): Promise<void> {
  if (!sub || !['create-tenant', 'create-key', 'revoke-key', 'set-policy'].includes(sub)) {
    throw new CliUsageError(
      'admin takes one of: create-tenant NAME [--policy JSON], create-key TENANT [--name NAME] [--role member|admin|viewer], revoke-key PREFIX, set-policy TENANT JSON',
    );
  }
  const target = rest[0]?.trim();
  if (!target) throw new CliUsageError(`admin ${sub} needs its argument`);
  const prisma = new PrismaService({ url: args.databaseUrl, poolMax: 2 });
  try {
    const tenants = new TenantRepository(prisma);
    const keys = new ApiKeyRepository(prisma);
    switch (sub) {
      case 'create-tenant': {
        if (await tenants.findByName(target)) throw new CliUsageError(`Tenant "${target}" already exists`);
        const t = await tenants.create(target, parsePolicy(args.policy) as Prisma.InputJsonValue);
        out.line(`Created tenant ${t.name} (${t.id}).`);
        return;
      }
      case 'set-policy': {
        const t = await tenants.findByName(target);
        if (!t) throw new CliUsageError(`No tenant "${target}"`);
        await tenants.setPolicy(t.id, parsePolicy(rest[1] ?? args.policy) as Prisma.InputJsonValue);
        out.line(`Policy of ${t.name} updated.`);
        return;
      }
      case 'create-key': {
        const t = await tenants.findByName(target);
        if (!t) throw new CliUsageError(`No tenant "${target}": create it first (dossier admin create-tenant ${target})`);
        const role = args.role ?? 'member';
        if (!['admin', 'member', 'viewer'].includes(role)) throw new CliUsageError(`--role must be admin, member or viewer, got "${role}"`);
        const { key, row } = await keys.create(t.id, args.name ?? 'default', role);
        out.line(`Key ${row.prefix} for ${t.name} (principal ${args.name ?? 'default'}). It is shown only now; store it safely:`);
        out.line(key);
        return;
      }
      case 'revoke-key': {
        const row = await keys.revoke(target);
        if (!row) throw new CliUsageError(`No key with prefix "${target}"`);
        out.line(`Key ${row.prefix} revoked at ${row.revokedAt!.toISOString()}.`);
        return;
      }
    }
  } finally {
    await prisma.$disconnect();
  }
}
