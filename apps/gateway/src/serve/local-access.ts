import { ApiKeyRepository, TenantRepository } from '@dossier/db';

/** The principal `dossier serve` creates for the person at the machine. */
export const LOCAL_PRINCIPAL = 'local-user';

export interface LocalAccess {
  tenant: { id: string; name: string };
  /** The key created by this start: printed once, only its hash is stored. Null when the principal already had one. */
  createdKey: string | null;
  /** Prefixes of the principal's keys that still work (the one created now included). */
  activePrefixes: string[];
}

/**
 * The tenant the CLI's local mode uses (DOSSIER_TENANT, "local"), so documents ingested with `dossier ingest` on
 * this machine are the web app's too, and a key for its local user: created on the first start only (a key is a
 * secret shown once), or again when asked (`--new-key`).
 */
export async function ensureLocalAccess(
  tenants: TenantRepository,
  keys: ApiKeyRepository,
  tenantName: string,
  newKey: boolean,
): Promise<LocalAccess> {
  const tenant = await tenants.ensure(tenantName);
  const existing = await keys.activeOf(tenant.id, LOCAL_PRINCIPAL);
  if (existing.length > 0 && !newKey) {
    return { tenant: { id: tenant.id, name: tenant.name }, createdKey: null, activePrefixes: existing.map((k) => k.prefix) };
  }
  const { key, row } = await keys.create(tenant.id, LOCAL_PRINCIPAL, 'member');
  return {
    tenant: { id: tenant.id, name: tenant.name },
    createdKey: key,
    activePrefixes: [...existing.map((k) => k.prefix), row.prefix],
  };
}
