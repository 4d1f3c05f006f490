import { topicPhrases } from '../../../src/offline/topics';

describe('topicPhrases', () => {
  it('splits key phrases at the verbs a question asks with, and keeps those its sources state facts with (decision 0169)', () => {
    // "owner tell" anchored every query of velora-recall q07; "cell maker accept" and "fire service advise" likewise.
    expect(topicPhrases('How can an owner tell whether their battery pack is affected, and which Velora models are covered?', 3)).toEqual(
      expect.arrayContaining(['battery pack', 'velora models']),
    );
    expect(topicPhrases('How can an owner tell whether their battery pack is affected?', 3)).not.toContain('owner tell');
    expect(topicPhrases('What caused the VB-36 packs to overheat, and does the cell maker accept that finding?', 3)).toContain(
      'cell maker',
    );
    expect(topicPhrases('What does the fire service advise about charging e-bike batteries at home?', 3)).toContain('fire service');
    // "learn" and "differ" stay: "first learned" and the estimates that differ are what the sources' answers say.
    expect(topicPhrases('When did Arvenna first learn that VB-36 battery packs could overheat?', 1)).toEqual(['arvenna first learn']);
    expect(topicPhrases('How much water do irrigation withdrawals take, and why do the estimates differ?', 3)).toContain(
      'estimates differ',
    );
  });
});
