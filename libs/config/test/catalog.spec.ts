import { z } from 'zod';
import {
  CliEnv,
  CONFIG_GROUPS,
  ConductorEnv,
  defaultOf,
  environment,
  FetchEnv,
  GatewayEnv,
  ModelEnv,
  TelemetryEnv,
  undescribedVariables,
  variableRows,
  WebSearchEnv,
  type ConfigGroup,
} from '../src';

describe('the configuration catalog', () => {
  it('every declared variable has a one-line description', () => {
    expect(undescribedVariables()).toEqual([]);
    for (const row of variableRows()) {
      expect({ name: row.name, description: row.description }).toEqual({
        name: row.name,
        description: expect.stringMatching(/^[^\n]{8,160}$/),
      });
    }
  });

  it('an undescribed field is found, naming its group', () => {
    const groups: ConfigGroup[] = [{ id: 'x', title: 'x', schema: z.object({ A: z.string().describe('described'), B: z.string() }) }];
    expect(undescribedVariables(groups)).toEqual(['x.B']);
  });

  it('lists every variable of every schema a process parses, each once', () => {
    const names = variableRows().map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const schema of [ConductorEnv, GatewayEnv, CliEnv, ModelEnv, WebSearchEnv, FetchEnv, TelemetryEnv]) {
      for (const name of Object.keys(schema.shape)) expect(names).toContain(name);
    }
    expect(names).toEqual(expect.arrayContaining(['OPENAI_MODEL_<ROLE>', 'DOSSIER_API_URL', 'LOG_DESTINATION', 'NODE_ENV']));
    expect(CONFIG_GROUPS.map((g) => g.id)).toEqual(['service', 'conductor', 'gateway', 'cli', 'model', 'search', 'fetch', 'telemetry']);
  });

  it('shows each default as the schema applies it, and the CLI’s laptop defaults beside the services’', () => {
    const row = (name: string) => variableRows().find((r) => r.name === name)!;
    expect(row('STEP_LOCK_MS')).toMatchObject({ group: 'service', default: '30000' });
    expect(row('LOG_LEVEL').default).toBe('info (cli: warn)');
    expect(row('DATABASE_URL').default).toBe('cli: postgresql://postgres@127.0.0.1:5432/dossier');
    expect(row('OPENAI_CAPTURE_PROMPTS')).toMatchObject({ group: 'model', default: 'false' });
    expect(row('TAVILY_RATE_PER_SECOND').default).toBe('5');
    expect(row('QUEUE_PREFIX').default).toBe('');
    expect(defaultOf(z.string())).toBe('');
  });

  it('environment() is the live process environment, so what one part sets another reads', () => {
    expect(environment()).toBe(process.env);
  });
});
