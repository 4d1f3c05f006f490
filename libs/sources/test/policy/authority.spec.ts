import { authorityOf, type AuthorityClass } from '../../src';

const WEB: [string, AuthorityClass][] = [
  ['https://www.cdc.gov/flu/', 'official'],
  ['https://www.gov.uk/guidance/x', 'official'],
  ['https://assets.publishing.service.gov.uk/x.pdf', 'official'],
  ['https://ec.europa.eu/eurostat', 'official'],
  ['https://www.who.int/news-room', 'official'],
  ['https://news.un.org/en/story', 'official'],
  ['https://www.army.mil/', 'official'],
  ['https://www.economie.gouv.fr/', 'official'],
  ['https://www.mhlw.go.jp/', 'official'],
  ['https://www.bmi.bund.de/', 'official'],
  ['https://cs.stanford.edu/people', 'academic'],
  ['https://www.ox.ac.uk/research', 'academic'],
  ['https://www.unimelb.edu.au/', 'academic'],
  ['https://arxiv.org/abs/2401.00001', 'academic'],
  ['https://doi.org/10.1038/s41586-020-2649-2', 'academic'],
  ['https://www.nature.com/articles/x', 'academic'],
  ['https://www.sciencedirect.com/science/article/pii/S0', 'academic'],
  ['https://link.springer.com/article/10.1007/x', 'academic'],
  ['https://pubmed.ncbi.nlm.nih.gov/12345/', 'academic'], // under .gov, but the table is more specific
  ['https://www.ncbi.nlm.nih.gov/pmc/articles/PMC1/', 'academic'],
  ['https://www.jstor.org/stable/123', 'academic'],
  ['https://www.uni-heidelberg.de/en', 'academic'],
  ['https://docs.python.org/3/library/', 'documentation'],
  ['https://developer.mozilla.org/en-US/docs/Web/HTTP', 'documentation'],
  ['https://learn.microsoft.com/en-us/azure/', 'documentation'],
  ['https://requests.readthedocs.io/en/latest/', 'documentation'],
  ['https://docs.example.com/start', 'documentation'],
  ['https://developer.example.com/api', 'documentation'],
  ['https://react.dev/reference/react/useState', 'documentation'],
  ['https://example.com/docs/install', 'documentation'],
  ['https://www.reuters.com/world/', 'news'],
  ['https://apnews.com/article/x', 'news'],
  ['https://www.bbc.co.uk/news/x', 'news'],
  ['https://www.bbc.com/news/x', 'news'],
  ['https://www.nytimes.com/2025/01/01/x.html', 'news'],
  ['https://www.theguardian.com/world', 'news'],
  ['https://www.washingtonpost.com/x', 'news'],
  ['https://www.ft.com/content/x', 'news'],
  ['https://www.bloomberg.com/news/x', 'news'],
  ['https://www.aljazeera.com/news/x', 'news'],
  ['https://www.lemonde.fr/planete/x', 'news'],
  ['https://www.spiegel.de/wissenschaft/x', 'news'],
  ['https://edition.cnn.com/x', 'news'],
  ['https://news.example.com/story', 'news'],
  ['https://www.reddit.com/r/x/comments/1', 'forum'],
  ['https://stackoverflow.com/questions/1', 'forum'],
  ['https://unix.stackexchange.com/questions/1', 'forum'],
  ['https://news.ycombinator.com/item?id=1', 'forum'], // not news
  ['https://forum.example.org/t/1', 'forum'],
  ['https://discourse.example.org/t/1', 'forum'],
  ['https://github.com/owner/repo/issues/12', 'forum'],
  ['https://medium.com/@someone/post-1', 'blog'],
  ['https://someone.substack.com/p/x', 'blog'],
  ['https://someone.wordpress.com/2024/x', 'blog'],
  ['https://someone.blogspot.com/2024/x.html', 'blog'],
  ['https://blog.example.com/x', 'blog'],
  ['https://example.com/blog/x', 'blog'],
  ['https://example.com/', 'unknown'],
  ['https://github.com/owner/repo', 'unknown'],
  ['https://notreuters.com/x', 'unknown'],
  ['https://reuters.com.evil.example/x', 'unknown'],
  ['https://gov.example.com/x', 'unknown'],
  ['http://127.0.0.1/x', 'unknown'],
  ['not a url', 'unknown'],
  ['https://constructor.example.com/', 'unknown'], // no prototype lookups
  ['https://toString.example.com/', 'unknown'],
];

const CORPUS: [string, string | undefined, AuthorityClass][] = [
  ['corpus://docs/varenby-council-minutes-2023-09-19.md', undefined, 'official'],
  ['corpus://docs/krwa-annual-water-report-2024.md', 'Kessmark Regional Water Authority — Annual Water Resources Report 2024', 'official'],
  ['corpus://docs/eskerford-university-study-summary.md', 'Why Lake Varen Is Shrinking', 'academic'],
  ['corpus://docs/eskerford-working-paper-23-07.pdf', undefined, 'academic'],
  ['corpus://docs/eskerford-field-notes-canal-seepage-2023.txt', 'ESKERFORD UNIVERSITY - HYDROLOGY GROUP', 'academic'],
  ['corpus://docs/krwa-faq-lake-varen.md', 'Lake Varen: Frequently Asked Questions', 'documentation'],
  ['corpus://docs/technical-note-measurement-methods.md', undefined, 'documentation'],
  ['corpus://docs/birdwatching-guide-lake-varen.md', undefined, 'documentation'],
  ['corpus://docs/kessmark-courier-university-study.html', 'University study', 'news'], // the Courier's article about a study
  ['corpus://docs/valley-post-fish-stocks-recovered.html', undefined, 'news'],
  ['corpus://docs/radio-kessmark-fish-stocks.html', undefined, 'news'],
  ['corpus://docs/lake-talk-podcast-episode-12-transcript.txt', 'LAKE TALK - a Radio Kessmark podcast', 'news'],
  ['corpus://docs/varen-anglers-forum-thread.txt', undefined, 'forum'],
  ['corpus://docs/notes-from-the-jetty-restocking-myth.md', 'Notes from the Jetty', 'blog'],
  ['corpus://docs/hotel-varenby-bay-blog-autumn.html', undefined, 'blog'],
  ['corpus://docs/visit-varen-lake-holidays.html', 'Holidays at Lake Varen', 'unknown'],
  // the collection name is not the document's: only the path and title count
  ['corpus://news/visit-varen-summer-events-2025.html', undefined, 'unknown'],
  ['corpus://docs/reports/council/levels.md', undefined, 'official'],
  ['corpus://docs/postcards.md', undefined, 'unknown'], // whole words only
];

describe('authorityOf', () => {
  it.each(WEB)('%s → %s', (url, expected) => {
    expect(authorityOf(url)).toBe(expected);
  });

  it.each(CORPUS)('%s (%s) → %s', (url, title, expected) => {
    expect(authorityOf(url, title)).toBe(expected);
  });

  it('reads titles only for corpus documents (web headlines mention studies all the time)', () => {
    expect(authorityOf('https://example.com/x', 'University study finds lake fell')).toBe('unknown');
    expect(authorityOf('corpus://docs/x.md', 'University study finds lake fell')).toBe('academic');
  });
});
