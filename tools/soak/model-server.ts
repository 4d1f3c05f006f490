import { ROLES, type AnyAgentRole, type RoleName } from '@dossier/agents';
import { FakeOpenAIServer, type FakeChatRequest } from '@dossier/testing';
import { Random } from './random';

/** The correct answer of a request: the role's offline output for the input the engine echoed (test echo mode). */
function offlineAnswer(request: FakeChatRequest): unknown {
  const role = ROLES[request.role as RoleName] as AnyAgentRole | undefined;
  if (!role || request.input === undefined) throw new Error(`No echoed input for role ${request.role}`);
  return role.offline(role.input.parse(request.input));
}

/**
 * The local model server of the soak's openai runs: speaks the OpenAI API, takes 50–400 ms per answer (so kills
 * land while requests are in flight), and keeps its own log of every request and how it ended.
 */
export function startModelServer(seed: number): Promise<FakeOpenAIServer> {
  const random = new Random(seed ^ 0x5eed);
  return new FakeOpenAIServer({ answer: offlineAnswer, latencyMs: () => random.int(50, 400) }).start();
}
