import { ROLES } from '@dossier/agents';
import { offlineRoleAnswer, FakeOpenAIServer } from '@dossier/testing';
import { Random } from './random';

/** A correct model: each role's offline answer to the input the engine echoed. */
const offlineAnswer = offlineRoleAnswer(ROLES);

/**
 * The local model server of the soak's openai runs: speaks the OpenAI API, takes 50–400 ms per answer (so kills
 * land while requests are in flight), and keeps its own log of every request and how it ended.
 */
export function startModelServer(seed: number): Promise<FakeOpenAIServer> {
  const random = new Random(seed ^ 0x5eed);
  return new FakeOpenAIServer({ answer: offlineAnswer, latencyMs: () => random.int(50, 400) }).start();
}
