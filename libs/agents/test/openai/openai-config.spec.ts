import { classifyError } from '@dossier/errors';
import { LlmConfigError } from '../../src/errors';
import { openAIConfigFromEnv, roleEnvSuffix } from '../../src/openai/openai-config';
import { costUsd } from '../../src/openai/prices';

describe('openai engine settings', () => {
  it('names the missing variables, unrecoverably', () => {
    const err = (() => {
      try {
        openAIConfigFromEnv({ OPENAI_API_KEY: 'sk-x' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(LlmConfigError);
    expect((err as Error).message).toMatch(/OPENAI_BASE_URL and OPENAI_MODEL are not set/);
    expect((err as Error).message).not.toContain('sk-x');
    expect(classifyError(err)).toBe('unrecoverable');
  });

  it('model and temperature per role, verifier colder than the writer by default', () => {
    const c = openAIConfigFromEnv({
      OPENAI_BASE_URL: 'http://x/v1',
      OPENAI_MODEL: 'm',
      OPENAI_MODEL_VERIFIER: 'judge',
      OPENAI_TEMPERATURE_SECTION_WRITER: '0.9',
    });
    // Each role names the variable its model came from, for the preflight's messages (decision 0042).
    expect(c.roles.verifier).toEqual({ model: 'judge', temperature: 0, modelSetting: 'OPENAI_MODEL_VERIFIER' });
    expect(c.roles.sectionWriter).toEqual({ model: 'm', temperature: 0.9, modelSetting: 'OPENAI_MODEL' });
    expect(c.roles.verifier.temperature).toBeLessThan(
      openAIConfigFromEnv({ OPENAI_BASE_URL: 'http://x/v1', OPENAI_MODEL: 'm' }).roles.sectionWriter.temperature,
    );
    expect(c.apiKey).toBe('not-needed');
    expect(c.embeddings).toBeNull();
    expect(roleEnvSuffix('perspectivePlanner')).toBe('PERSPECTIVE_PLANNER');
  });

  it('refuses a bad temperature or price table by name', () => {
    expect(() => openAIConfigFromEnv({ OPENAI_BASE_URL: 'http://x/v1', OPENAI_MODEL: 'm', OPENAI_TEMPERATURE_VERIFIER: 'hot' })).toThrow(
      /OPENAI_TEMPERATURE_VERIFIER/,
    );
    expect(() => openAIConfigFromEnv({ OPENAI_BASE_URL: 'http://x/v1', OPENAI_MODEL: 'm', OPENAI_PRICES: '{"m": 3}' })).toThrow(
      /OPENAI_PRICES/,
    );
    expect(() => openAIConfigFromEnv({ OPENAI_BASE_URL: 'http://x/v1', OPENAI_MODEL: 'm', OPENAI_TIMEOUT_MS: 'soon' })).toThrow(
      /OPENAI_TIMEOUT_MS/,
    );
  });

  it('price table: built in, overridable, provider prefixes ignored, unknown models free', () => {
    const c = openAIConfigFromEnv({
      OPENAI_BASE_URL: 'http://x/v1',
      OPENAI_MODEL: 'm',
      OPENAI_PRICES: '{"m": {"inputPerMillion": 1, "outputPerMillion": 2}}',
    });
    expect(costUsd(c.prices, 'm', 1_000_000, 500_000)).toBeCloseTo(2);
    expect(costUsd(c.prices, 'openai/gpt-4.1-mini', 1_000_000, 0)).toBeCloseTo(0.4);
    expect(costUsd(c.prices, 'llama3:8b', 1_000_000, 1_000_000)).toBe(0);
  });

  it('a separate embeddings endpoint and model', () => {
    const c = openAIConfigFromEnv({
      OPENAI_BASE_URL: 'http://x/v1',
      OPENAI_MODEL: 'm',
      OPENAI_EMBEDDINGS_MODEL: 'e',
      OPENAI_EMBEDDINGS_BASE_URL: 'http://y/v1',
      OPENAI_EMBEDDINGS_DIMENSIONS: '64',
    });
    expect(c.embeddings).toEqual({
      baseUrl: 'http://y/v1',
      apiKey: 'not-needed',
      model: 'e',
      dimension: 64,
      requestDimensions: true,
      // Which settings were the embeddings' own, so a preflight failure names the right one (decision 0042).
      ownBaseUrl: true,
      ownApiKey: false,
    });
    expect(() => openAIConfigFromEnv({ OPENAI_BASE_URL: 'http://x/v1', OPENAI_MODEL: 'm', OPENAI_EMBEDDINGS_MODEL: 'e' })).toThrow(
      /OPENAI_EMBEDDINGS_DIMENSIONS/,
    );
    const d = openAIConfigFromEnv({ OPENAI_BASE_URL: 'http://x/v1', OPENAI_MODEL: 'm', OPENAI_EMBEDDINGS_MODEL: 'text-embedding-3-small' });
    expect(d.embeddings).toMatchObject({
      model: 'text-embedding-3-small',
      dimension: 1536,
      requestDimensions: false,
      baseUrl: 'http://x/v1',
    });
  });
});
