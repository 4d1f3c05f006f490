/** `gen_ai.provider.name` from the base URL: the well-known providers by host, else the protocol spoken. */
export function providerName(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'openai_compatible';
  }
  const host = url.hostname.toLowerCase();
  if (host === 'api.openai.com') return 'openai';
  if (host.endsWith('groq.com')) return 'groq';
  if (host.endsWith('openrouter.ai')) return 'openrouter';
  if (host.endsWith('azure.com')) return 'azure.ai.openai';
  if (host.endsWith('deepseek.com')) return 'deepseek';
  if (host.endsWith('mistral.ai')) return 'mistral_ai';
  if (url.port === '11434') return 'ollama';
  return 'openai_compatible';
}
