import type { AuthorityClass } from './authority-class';

/**
 * Hosts whose class is known by name. A host matches its own entry and every subdomain's; the longest
 * entry wins, so `ncbi.nlm.nih.gov` (academic) beats the `.gov` rule and `news.ycombinator.com` (forum)
 * is not read as news.
 */
const KNOWN: Record<Exclude<AuthorityClass, 'unknown'>, string[]> = {
  official: [
    'europa.eu', 'who.int', 'un.org', 'unesco.org', 'unicef.org', 'undp.org', 'unep.org', 'worldbank.org', 'imf.org', 'oecd.org',
    'wto.org', 'ilo.org', 'fao.org', 'iaea.org', 'ecb.europa.eu', 'bis.org', 'canada.ca', 'gc.ca', 'bund.de', 'admin.ch', 'gv.at',
    'service-public.fr', 'legifrance.gouv.fr', 'govt.nz', 'gov.uk', 'nhs.uk', 'parliament.uk', 'europarl.europa.eu', 'ipcc.ch',
    'federalreserve.gov', 'whitehouse.gov', 'congress.gov',
  ],
  academic: [
    'arxiv.org', 'doi.org', 'nature.com', 'sciencedirect.com', 'springer.com', 'link.springer.com', 'ncbi.nlm.nih.gov',
    'pubmed.ncbi.nlm.nih.gov', 'jstor.org', 'onlinelibrary.wiley.com', 'tandfonline.com', 'plos.org', 'science.org', 'cell.com',
    'ssrn.com', 'papers.ssrn.com', 'researchgate.net', 'semanticscholar.org', 'scholar.google.com', 'biorxiv.org', 'medrxiv.org',
    'pnas.org', 'dl.acm.org', 'ieeexplore.ieee.org', 'frontiersin.org', 'mdpi.com', 'academic.oup.com', 'cambridge.org',
    'journals.sagepub.com', 'nber.org', 'openreview.net', 'aclanthology.org', 'europepmc.org', 'hal.science', 'zenodo.org',
    'thelancet.com', 'bmj.com', 'nejm.org', 'jamanetwork.com', 'elifesciences.org', 'osf.io', 'scholar.archive.org',
  ],
  documentation: [
    'readthedocs.io', 'readthedocs.org', 'learn.microsoft.com', 'docs.microsoft.com', 'developer.mozilla.org', 'docs.rs',
    'pkg.go.dev', 'docs.python.org', 'devdocs.io', 'man7.org', 'cppreference.com', 'en.cppreference.com', 'gitbook.io',
    'developer.apple.com', 'developer.android.com', 'cloud.google.com', 'docs.aws.amazon.com', 'kubernetes.io', 'nodejs.org',
    'typescriptlang.org', 'postgresql.org', 'w3.org', 'whatwg.org', 'rfc-editor.org', 'datatracker.ietf.org',
  ],
  news: [
    'reuters.com', 'apnews.com', 'bbc.co.uk', 'bbc.com', 'nytimes.com', 'theguardian.com', 'washingtonpost.com', 'ft.com',
    'bloomberg.com', 'aljazeera.com', 'lemonde.fr', 'spiegel.de', 'wsj.com', 'economist.com', 'cnn.com', 'npr.org', 'latimes.com',
    'usatoday.com', 'nbcnews.com', 'cbsnews.com', 'abcnews.go.com', 'foxnews.com', 'politico.com', 'politico.eu', 'axios.com',
    'theatlantic.com', 'newyorker.com', 'time.com', 'cnbc.com', 'independent.co.uk', 'telegraph.co.uk', 'thetimes.co.uk',
    'dw.com', 'france24.com', 'lefigaro.fr', 'liberation.fr', 'zeit.de', 'faz.net', 'sueddeutsche.de', 'tagesschau.de',
    'elpais.com', 'elmundo.es', 'corriere.it', 'repubblica.it', 'nzz.ch', 'nhk.or.jp', 'japantimes.co.jp', 'asahi.com',
    'scmp.com', 'abc.net.au', 'smh.com.au', 'cbc.ca', 'theglobeandmail.com', 'afp.com', 'euronews.com', 'rfi.fr',
    'thehindu.com', 'hindustantimes.com', 'indiatimes.com', 'news.sky.com', 'news.yahoo.com', 'propublica.org', 'vox.com',
    'theverge.com', 'arstechnica.com', 'wired.com', 'nrc.nl', 'volkskrant.nl', 'svt.se', 'yle.fi', 'rte.ie', 'irishtimes.com',
  ],
  forum: [
    'reddit.com', 'stackexchange.com', 'stackoverflow.com', 'superuser.com', 'serverfault.com', 'askubuntu.com',
    'mathoverflow.net', 'quora.com', 'news.ycombinator.com', 'lobste.rs', 'discourse.org', 'discuss.python.org',
    'forums.docker.com', 'community.cloudflare.com', 'answers.microsoft.com',
  ],
  blog: [
    'medium.com', 'substack.com', 'wordpress.com', 'blogspot.com', 'blogger.com', 'tumblr.com', 'ghost.io', 'hashnode.dev',
    'dev.to', 'livejournal.com', 'typepad.com', 'micro.blog', 'bearblog.dev', 'wixsite.com', 'over-blog.com', 'hatenablog.com',
  ],
};

export const KNOWN_DOMAINS: ReadonlyMap<string, AuthorityClass> = new Map(
  (Object.entries(KNOWN) as [AuthorityClass, string[]][]).flatMap(([cls, domains]) => domains.map((d) => [d, cls] as const)),
);
