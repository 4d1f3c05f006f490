import { CapabilitiesView } from '@dossier/contracts';
import { deploymentCapabilities } from '../../src/capabilities/deployment-capabilities';

const byName = (view: CapabilitiesView) =>
  Object.fromEntries([...view.engines, ...view.searchProviders].map((c) => [c.name, c.available ? 'yes' : c.reason]));

describe('deploymentCapabilities (GET /v1/capabilities)', () => {
  it('with nothing configured: the offline engine and the private collections only, each missing one saying what to set', () => {
    const view = CapabilitiesView.parse(deploymentCapabilities({}));
    const seen = byName(view);
    expect(seen['offline']).toBe('yes');
    expect(seen['corpus']).toBe('yes');
    expect(seen['openai']).toMatch(/OPENAI_BASE_URL and OPENAI_MODEL are not set/);
    expect(seen['tavily']).toBe('TAVILY_API_KEY is not set');
    expect(seen['brave']).toBe('BRAVE_API_KEY is not set');
    expect(seen['searxng']).toBe('SEARXNG_URL is not set');
  });

  it('as the workers would build them: a model endpoint and a SearXNG URL; blank values count as unset', () => {
    const view = deploymentCapabilities({
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_MODEL: 'm',
      SEARXNG_URL: 'http://127.0.0.1:9',
      TAVILY_API_KEY: '  ',
    });
    expect(byName(view)).toMatchObject({ openai: 'yes', searxng: 'yes', corpus: 'yes', offline: 'yes' });
    expect(byName(view)['tavily']).toBe('TAVILY_API_KEY is not set');
  });

  it('a malformed setting makes the option unavailable with the reason the worker would fail with, never a crash', () => {
    const view = deploymentCapabilities({
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_MODEL: 'm',
      OPENAI_TIMEOUT_MS: 'soon',
      TAVILY_API_KEY: 'k',
      TAVILY_RATE_PER_SECOND: '-1',
    });
    expect(byName(view)['openai']).toMatch(/OPENAI_TIMEOUT_MS/);
    expect(byName(view)['tavily']).toMatch(/TAVILY_RATE_PER_SECOND must be a positive number/);
    expect(byName(view)['corpus']).toBe('yes');
  });
});
