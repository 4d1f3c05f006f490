import { director } from '../../../src/roles';

describe('director (offline)', () => {
  it('takes key phrases as topics and years as the time frame', () => {
    const out = director.offline({
      question: 'How was the Golden Gate Bridge built, and what did its construction cost between 1933 and 1937?',
    });
    expect(out.includedTopics).toEqual(['golden gate bridge', 'construction cost']);
    expect(out.timeFrame).toBe('1933–1937');
    expect(out.riskLevel).toBe('low');
    expect(out.statement).toContain('Golden Gate Bridge');
    expect(out.excludedTopics).toEqual([]);
  });

  it.each([
    ['What has happened to coral reefs since 2010?', 'since 2010'],
    ['What did the city spend on transit before 1990?', 'before 1990'],
    ['What was the inflation rate in 2022?', '2022'],
    ['How did wind power grow over the last decade?', 'over the last decade'],
    ['Why is the sky blue?', null],
  ])('reads the time frame of %s', (question, frame) => {
    expect(director.offline({ question }).timeFrame).toBe(frame);
  });

  it('moves excluded subjects out of the included topics', () => {
    const out = director.offline({ question: 'What are the environmental effects of offshore wind farms, excluding bird collisions?' });
    expect(out.excludedTopics).toEqual(['bird collisions']);
    expect(out.includedTopics).not.toContain('bird collisions');
    expect(out.includedTopics).toContain('offshore wind farms');
    expect(out.statement).toContain('Out of scope: bird collisions');
  });

  it.each([
    ['Is the measles vaccine safe for children?', 'high'],
    ['Should I invest in crypto stocks this year?', 'high'],
    ['How does carbon tax policy affect the economy?', 'medium'],
    ['How tall is the Eiffel Tower?', 'low'],
  ])('rates the risk of %s', (question, risk) => {
    expect(director.offline({ question }).riskLevel).toBe(risk);
  });

  it('rejects an empty question', () => {
    expect(director.input.safeParse({ question: '' }).success).toBe(false);
  });
});
