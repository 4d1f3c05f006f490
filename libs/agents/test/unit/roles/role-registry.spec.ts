import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NODES, type CoreNodeRows, type RoleOf } from '@dossier/contracts';
import { DEFAULT_TEMPERATURES, openAIConfigFromEnv, roleEnvSuffix } from '../../../src/openai/openai-config';
import { ROLE_NAMES, ROLES, type RoleName } from '../../../src/roles';

// Compile-time: every role the node table names is a role of the registry.
type Unknown = Exclude<RoleOf<CoreNodeRows>, RoleName>;
const everyNodeRoleIsARole: [Unknown] extends [never] ? true : Unknown = true;

describe('the role registry: one declaration per role', () => {
  it('derives the names from the role objects, in registry order', () => {
    expect(everyNodeRoleIsARole).toBe(true);
    for (const name of ROLE_NAMES) expect(ROLES[name].name).toBe(name);
    expect(Object.keys(ROLES)).toEqual([...ROLE_NAMES]);
    expect(new Set(ROLE_NAMES).size).toBe(ROLE_NAMES.length);
  });

  it('has the roles the node table names, and every role is used by some node', () => {
    expect([...NODES.roles()].sort()).toEqual([...ROLE_NAMES].sort());
  });

  it("takes each role's default temperature from the role", () => {
    for (const name of ROLE_NAMES) expect(DEFAULT_TEMPERATURES[name]).toBe(ROLES[name].temperature);
    expect(DEFAULT_TEMPERATURES.verifier).toBe(0);
    expect(DEFAULT_TEMPERATURES.sectionWriter).toBe(0.4);
  });

  it('reads OPENAI_MODEL_<ROLE> and OPENAI_TEMPERATURE_<ROLE> for every role, named as the README lists them', () => {
    const env: Record<string, string> = { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODEL: 'base' };
    ROLE_NAMES.forEach((name, i) => {
      env[`OPENAI_MODEL_${roleEnvSuffix(name)}`] = `model-${name}`;
      env[`OPENAI_TEMPERATURE_${roleEnvSuffix(name)}`] = String(i / 10);
    });
    const config = openAIConfigFromEnv(env);
    ROLE_NAMES.forEach((name, i) =>
      expect(config.roles[name]).toEqual({
        model: `model-${name}`,
        modelSetting: `OPENAI_MODEL_${roleEnvSuffix(name)}`,
        temperature: i / 10,
      }),
    );
    expect(roleEnvSuffix('perspectivePlanner')).toBe('PERSPECTIVE_PLANNER');
    const readme = readFileSync(path.join(__dirname, '../../../../../README.md'), 'utf8');
    for (const name of ROLE_NAMES) expect(readme).toContain(`\`${roleEnvSuffix(name)}\``);
  });
});
