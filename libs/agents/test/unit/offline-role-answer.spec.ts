import { offlineRoleAnswer } from '@dossier/testing';
import { director, ROLES } from '../../src/roles';
import { QUESTION } from '../fixtures/golden-gate';

/** libs/testing's correct-model answer, over the real role registry (libs/testing itself may not import the agents). */
describe('offlineRoleAnswer', () => {
  const answer = offlineRoleAnswer(ROLES);

  it("answers a request with the role's offline output for the echoed input", () => {
    expect(answer({ role: 'director', input: { question: QUESTION } })).toEqual(director.offline({ question: QUESTION }));
  });

  it('names the role when the request echoed no input or the role is unknown, and rejects input the role would refuse', () => {
    expect(() => answer({ role: 'director', input: undefined })).toThrow('No echoed input for role director');
    expect(() => answer({ role: 'nobody', input: { question: QUESTION } })).toThrow('No echoed input for role nobody');
    expect(() => answer({ role: 'director', input: { question: 42 } })).toThrow();
  });
});
