import { openAIConfigFromEnv } from '@dossier/agents';
import { Engine, SEARCH_PROVIDER_NAMES, type CapabilitiesView, type CapabilityView } from '@dossier/contracts';
import { describeError } from '@dossier/errors';
import { webProvidersFromEnv } from '@dossier/sources';

const WEB_SETTING: Record<string, string> = { tavily: 'TAVILY_API_KEY', brave: 'BRAVE_API_KEY', searxng: 'SEARXNG_URL' };

/**
 * What a worker with this environment can run, decided by the same code the workers build their engines and
 * providers with (`openAIConfigFromEnv`, `webProvidersFromEnv`: configuration only, no network call), so the answer
 * cannot drift from what a run would meet. The gateway is deployed with the workers' settings (one env for every
 * service in compose and k8s); a gateway without them says so, which is the truth about its own machine.
 */
export function deploymentCapabilities(env: Record<string, string | undefined>): CapabilitiesView {
  const engines = Engine.options.map((name): CapabilityView & { name: Engine } => {
    if (name === 'offline') return { name, available: true, reason: null };
    try {
      openAIConfigFromEnv(env);
      return { name, available: true, reason: null };
    } catch (err) {
      return { name, available: false, reason: describeError(err).message };
    }
  });
  let web: string[] = [];
  let webProblem: string | null = null;
  try {
    web = webProvidersFromEnv(env, null).map((p) => p.name);
  } catch (err) {
    webProblem = describeError(err).message;
  }
  const searchProviders = SEARCH_PROVIDER_NAMES.map((name): CapabilityView => {
    if (name === 'corpus' || web.includes(name)) return { name, available: true, reason: null };
    return { name, available: false, reason: webProblem ?? `${WEB_SETTING[name] ?? 'its setting'} is not set` };
  });
  return { engines, searchProviders };
}
