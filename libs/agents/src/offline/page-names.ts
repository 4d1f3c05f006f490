/*
 * The page a question names (docs/decisions/0111, 0131): a manual's page whose name, written in lower case as a manual
 * names a command, a module or a function ("git-commit", "subprocess", "functools"), is a phrase of the question
 * ("git commit --amend", "subprocess.run"). Such a page documents what is asked.
 */

const plain = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/** A page's name: its title up to a dash, a colon or a bracket ("git-commit(1) Manual Page" → "git-commit"). */
const PAGE_NAME = /^(.+?)(?:\s+(?:—|–|-{1,3}|::?)\s+|:\s|\(|$)/;
const MAX_NAME_WORDS = 3;

/** The page's name as the question would write it ("git commit"), or null when the title names no page of a manual. */
function pageName(title: string): string | null {
  const name = PAGE_NAME.exec(title.trim())?.[1]?.trim() ?? '';
  // A capitalised title ("Lake Varen: Frequently Asked Questions") names a setting, not a page the question asks about.
  if (name.length === 0 || name !== name.toLowerCase() || !/\p{L}/u.test(name)) return null;
  const words = plain(name);
  return words.length === 0 || words.split(' ').length > MAX_NAME_WORDS ? null : words;
}

/** Whether the question names the page: the page's name is a phrase of the question. */
export function namedByQuestion(title: string, question: string): boolean {
  const name = pageName(title);
  return name !== null && ` ${plain(question)} `.includes(` ${name} `);
}

/**
 * Of the pages a question names, those named most precisely: "git" (git(1)) is a phrase of every question about git,
 * "git reflog" of one; a page whose name is part of another named page's name ("git" in "git reflog") is named only in
 * passing. Returns the titles kept.
 */
export function pagesNamedMostPrecisely(titles: readonly string[], question: string): Set<string> {
  const named = titles.filter((t) => namedByQuestion(t, question));
  const names = new Map(named.map((t) => [t, pageName(t)!]));
  const longer = (a: string, b: string) => b !== a && ` ${b} `.includes(` ${a} `);
  return new Set(named.filter((t) => ![...names.values()].some((other) => longer(names.get(t)!, other))));
}
