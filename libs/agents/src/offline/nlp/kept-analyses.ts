/**
 * A pure analysis of a text, kept for the texts analysed last. The writer's dispute checks compare every claim of a run
 * with every side of its disputes (`contestedClaimIds`: claims × sides pairs, each pair analysing both texts again), so
 * the same few hundred texts were tokenised and searched for quantities thousands of times per step (decision 0157).
 * Only for functions whose answer depends on the text alone. Every caller gets the same answer object: type it
 * read-only (`ReadonlySet`), as a caller that changed it would change every later caller's.
 */
export function keptAnalyses<T>(analyse: (text: string) => T, kept = 4096): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    const known = answers.get(text);
    if (known !== undefined) return known;
    const answer = analyse(text);
    // Bounded: the oldest answer goes (a Map iterates in insertion order).
    if (answers.size >= kept) answers.delete(answers.keys().next().value!);
    answers.set(text, answer);
    return answer;
  };
}
