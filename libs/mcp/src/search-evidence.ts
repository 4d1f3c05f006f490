import type { ReportJson } from '@dossier/contracts';

export interface EvidenceHit {
  claimId: string;
  claim: string;
  status: string;
  score: number;
  evidence: { id: string; excerpt: string; source: { number: number; title: string; url: string } }[];
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
}

/**
 * The report's claims that best match the query words, each with its evidence excerpts and their sources. A
 * claim scores the share of distinct query words found in its text or its excerpts (claim text counts double),
 * so "lake level 2019" ranks a claim about the 2019 lake level above one that only says "lake". Ties keep the
 * report's claim order (C1 before C2). Claims matching no word are left out.
 */
export function searchEvidence(report: ReportJson, query: string, limit: number): EvidenceHit[] {
  const wanted = [...new Set(words(query))];
  if (wanted.length === 0) return [];
  const hits: EvidenceHit[] = [];
  for (const [claimId, claim] of Object.entries(report.claims)) {
    const evidence = claim.evidenceIds.flatMap((id) => {
      const e = report.evidence[id];
      const s = e ? report.sources[e.sourceId] : undefined;
      return e && s ? [{ id, excerpt: e.excerpt, source: { number: s.number, title: s.title, url: s.url } }] : [];
    });
    const inClaim = new Set(words(claim.text));
    const inEvidence = new Set(evidence.flatMap((e) => words(e.excerpt)));
    let score = 0;
    for (const w of wanted) score += inClaim.has(w) ? 2 : inEvidence.has(w) ? 1 : 0;
    if (score > 0) hits.push({ claimId, claim: claim.text, status: claim.status, score: score / (2 * wanted.length), evidence });
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, limit);
}
