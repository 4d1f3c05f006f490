import type { FakeChatRequest } from './fake-openai-types';

/**
 * What the fake model server needs of an agent role: its input schema and its offline answer. Structural, like
 * `unusableEngine`: libs/testing may not import the agents (every library's tests import libs/testing: a cycle).
 */
export interface OfflineAnswering {
  input: { parse(value: unknown): unknown };
  offline(input: never): unknown;
}

/**
 * The fake server's `answer` of a correct model: the role's offline output for the input the engine echoed (test
 * echo mode). `offlineRoleAnswer(ROLES)`; a request with no echoed input, or of an unknown role, is a test bug.
 */
export function offlineRoleAnswer(
  roles: Readonly<Record<string, OfflineAnswering>>,
): (request: Pick<FakeChatRequest, 'role' | 'input'>) => unknown {
  return (request) => {
    const role = roles[request.role];
    if (!role || request.input === undefined) throw new Error(`No echoed input for role ${request.role}`);
    // The input was parsed by the role's own schema, so it is the role's input type.
    return (role.offline as (input: unknown) => unknown)(role.input.parse(request.input));
  };
}
