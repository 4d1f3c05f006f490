import type { ReportJson, ReportSection } from '@dossier/contracts';
import type { ClaimRow, ContradictionRow, EvidenceRow, SourceRecordRow, VerifiedSection } from '@dossier/db';
import { addHygiene, codeIntroduced, commonTerm, mergeShortSections, passageTerms, quoted, type HygieneCounts } from '@dossier/agents';
import { gateReportInputs, remainingHygiene, withoutBodyRepeats } from './report-hygiene';

export interface ReportInputs {
  run: {
    id: string;
    question: string;
    status: string;
    engine: string;
    createdAt: Date;
    stopReason: string | null;
    /** Which budget ran out, when one did (tokens, cost, wall_time). */
    budgetExhausted?: string | null;
    maxIterations?: number;
    collection?: string;
    providers: string[];
    /** The run this one replays from its recording, and the node from which it called live (decision 0030). */
    replay?: { of: string; from?: string | undefined };
  };
  intro: Sentence[];
  conclusion: Sentence[];
  /** The verified disagreements section of the frame (absent for frames written before it was verified there). */
  disagreements?: { sentences: Sentence[] }[];
  sections: VerifiedSection[];
  claims: ClaimRow[];
  contradictions: ContradictionRow[];
  evidence: EvidenceRow[];
  /** The cited sources; with its text, a source's terms are shown beside the sentences that quote their descriptions (0153). */
  snapshots: { id: string; url: string; title: string; contentHash: string; fetchedAt: Date; text?: string }[];
  records: SourceRecordRow[];
  openQuestions: string[];
  /** Applied interventions, described for the method section (in the order they were applied). */
  interventions?: string[];
  metrics: ReportJson['metrics'];
  /** Repair rounds of the body; the figures are in metrics.verification. */
  verification: { rounds: number };
  /** Interviews and hybrid modes: each analyst's turns, with the title of the section written from them. */
  interviews?: {
    analyst: { name: string; role: string; focus: string };
    sectionTitle: string;
    turns: { question: string; answer: Sentence[] }[];
  }[];
}

interface Sentence {
  text: string;
  evidenceIds: string[];
}

const MAX_DISAGREEMENTS_PER_CLAIM = 2;

const STOP_REASONS: Record<string, string> = {
  max_iterations: 'the maximum number of iterations was reached',
  budget_exhausted: 'a budget ran out',
  low_information_gain: 'the last iteration added too little new information',
  nothing_left_to_ask: 'no open questions were left to ask',
};

const BUDGET_NAMES: Record<string, string> = { tokens: 'token', cost: 'cost', wall_time: 'wall-time', iterations: 'iterations' };

/** Why research stopped, naming the budget that ended it. */
function stopText(run: ReportInputs['run']): string {
  if (!run.stopReason) return 'research completed';
  if (run.stopReason === 'budget_exhausted' && run.budgetExhausted)
    return `the ${BUDGET_NAMES[run.budgetExhausted] ?? run.budgetExhausted} budget ran out`;
  if (run.stopReason === 'max_iterations' && run.maxIterations) return `the iterations budget (${run.maxIterations}) was used up`;
  return STOP_REASONS[run.stopReason] ?? run.stopReason;
}

function engineText(engine: string, metrics: ReportJson['metrics']): string {
  if (engine === 'offline') return 'Engine: offline (deterministic, extractive: every sentence is a verbatim excerpt of a source).';
  const models = Object.keys(metrics.byModel ?? {})
    .filter((m) => m !== 'offline-nlp-1')
    .sort();
  // Offline calls after a spent budget; those that stood in for an unusable answer are named with the model output.
  const unusable = Object.values(metrics.modelOutput?.offline ?? {}).reduce((a, b) => a + b, 0);
  const offline = (metrics.byEngine?.['offline']?.calls ?? 0) - unusable;
  const online = metrics.byEngine?.[engine];
  const parts = [`Engine: ${engine}${models.length > 0 ? ` (${models.join(', ')})` : ''}`];
  if (online) {
    parts.push(
      `; ${online.calls} model requests, ${online.tokensIn} prompt and ${online.tokensOut} completion tokens, $${online.costUsd.toFixed(4)}`,
    );
    if (metrics.tokensPerVerifiedSentence !== undefined)
      parts.push(` (${metrics.tokensPerVerifiedSentence} tokens per verified sentence, ${metrics.verifiedSentences ?? 0} sentences)`);
  }
  if (offline > 0)
    parts.push(
      `; after the ${BUDGET_NAMES[metrics.budgetExhausted ?? ''] ?? ''} budget ran out, ${offline} further calls used the offline engine instead of the model`.replace(
        'the  budget',
        'a budget',
      ),
    );
  return `${parts.join('')}.`;
}

/**
 * The verified sentences (every section built so far: the method section comes after) and the model's tokens per
 * verified sentence (decision 0036): what one supported sentence costs, the figure prompt changes are judged by.
 */
function withSentenceFigures(
  engine: string,
  metrics: ReportJson['metrics'],
  sections: readonly ReportSection[],
  rounds: number,
): ReportJson['metrics'] {
  const sentences = sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
  const verifiedSentences = sentences.length;
  const model = Object.entries(metrics.byEngine ?? {})
    .filter(([name]) => name !== 'offline')
    .reduce((n, [, u]) => n + u.tokensIn + u.tokensOut, 0);
  const perSentence = engine !== 'offline' && verifiedSentences > 0 ? Math.round((model / verifiedSentences) * 10) / 10 : undefined;
  // The report's three figures (decision 0086): checks made come from the run's findings; its sentences and those
  // supported by the passages they cite are counted here, in the report as written. Only sentences that passed
  // verification reach it, so a cited sentence is one its last check found supported.
  const verification = metrics.verification && {
    ...metrics.verification,
    sentences: verifiedSentences,
    supported: sentences.filter((s) => s.evidenceIds.length > 0).length,
    rounds,
  };
  return {
    ...metrics,
    verifiedSentences,
    ...(verification ? { verification } : {}),
    ...(perSentence === undefined ? {} : { tokensPerVerifiedSentence: perSentence }),
  };
}

/** The gate's counts (its passes over each answer and over the report) and what the report still holds (decision 0041). */
function withHygiene(
  metrics: ReportJson['metrics'],
  lastPass: HygieneCounts | undefined,
  remaining: () => HygieneCounts,
): ReportJson['metrics'] {
  if (!metrics.hygiene) return metrics;
  return { ...metrics, hygiene: { ...remaining(), dropped: addHygiene(metrics.hygiene.dropped, lastPass) } };
}

function hygieneText(h: NonNullable<ReportJson['metrics']['hygiene']>): string {
  const d = h.dropped;
  const left = h.leaked + h.duplicates + h.fragments;
  return `Text hygiene: the gate on model text removed or cleaned ${d.leaked} sentences, headings or questions that carried prompt markers, ids, instructions or JSON, ${d.duplicates} repeated sentences and ${d.fragments} fragments; ${left === 0 ? 'none remain in this report' : `${h.leaked} leaked, ${h.duplicates} repeated and ${h.fragments} fragmentary sentences remain`}.`;
}

/** The embeddings endpoint failed mid-run and the local embedder took over (decision 0043). */
function embeddingsText(f: NonNullable<ReportJson['metrics']['embeddingsFallback']>): string {
  const [, node, iteration] = f.stepKey.split('.');
  const where = node
    ? ` in the ${node} step${iteration !== undefined && /^\d+$/.test(iteration) ? ` of iteration ${Number(iteration) + 1}` : ''}`
    : '';
  return `Embeddings: the configured embeddings endpoint (${f.from}) failed${where} (${f.reason.replace(/\s+/g, ' ').replace(/[.\s]+$/, '')}); from then on this run embedded with the local embedder (${f.to}), so duplicate and contradiction candidates were found by shared words rather than by meaning.`;
}

/** A replay's model use above counts only its live calls: say where the rest of its answers came from. */
function replayText(replay: { of: string; from?: string | undefined }): string {
  return replay.from
    ? `Replay of run ${replay.of}: every model answer, search result and page before the first ${replay.from} step came from that run's recording; from it on, the calls were made live.`
    : `Replay of run ${replay.of}: every model answer, search result and page came from that run's recording; no external request was made.`;
}

const repairRounds = (n: number) => `${n} ${n === 1 ? 'repair round' : 'repair rounds'}`;

function verificationText(v: ReportJson['metrics']['verification'], rounds: number): string {
  if (!v) return `Verification: every cited sentence was checked against its excerpts (${repairRounds(rounds)}).`;
  // The three figures in the words every format and the web app use (decision 0086).
  const sentences = v.sentences ?? 0;
  const supported = v.supported ?? 0;
  const framing =
    sentences > supported
      ? ` (the other ${sentences - supported} frame the report and cite nothing: the guard checked them against the question and the report's outline)`
      : '';
  return `Verification: checks made: ${v.checked}, in every round, of the body, introduction, conclusion and disagreements, each by a deterministic guard (figures, dates, units, names, negations) and by the verifier${judgedText(v)}; ${v.failedByGuard} failed the guard, ${v.failedByJudge} the verifier; ${v.repaired} sentences were repaired and ${v.removed} removed after ${repairRounds(rounds)} of the body. Sentences in the report: ${sentences}; supported by their cited passages: ${supported}${framing}. No sentence that failed verification is in this report.`;
}

/** Who judged the checks (decision 0040): the model, the offline engine in its place, the guard alone. */
function judgedText(v: NonNullable<ReportJson['metrics']['verification']>): string {
  if (v.judgedByModel === undefined) return '';
  const parts = [
    ...(v.judgedByModel > 0 ? [`${v.judgedByModel} judged by the verifier model`] : []),
    ...((v.judgedOffline ?? 0) > 0 ? [`${v.judgedOffline} by the offline engine${v.judgedByModel > 0 ? ' in its place' : ''}`] : []),
    ...((v.guardOnly ?? 0) > 0 ? [`${v.guardOnly} by the guard alone (framing sentences that cite nothing)`] : []),
  ];
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function byRole(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([role, n]) => `${role} ×${n}`)
    .join(', ');
}

function modelOutputText(m: NonNullable<ReportJson['metrics']['modelOutput']>): string {
  const parts = [
    `Model output: ${m.locallyRepaired} answers mended locally (fences, prose, truncated JSON, enum case, extra keys, null lists)`,
    `${m.repairRequests} repair requests`,
    `${m.trimmed} values trimmed to their limits`,
    `${m.droppedIds} unknown or wrong-kind ids dropped`,
  ];
  const skipped = byRole(m.skipped);
  const offline = byRole(m.offline);
  parts.push(skipped ? `optional roles skipped for a step: ${skipped}` : 'no optional role skipped');
  parts.push(offline ? `required roles played by the offline engine for one call: ${offline}` : 'no role fell back to the offline engine');
  return `${parts.join('; ')}.`;
}

/**
 * Two paragraphs in a row that quote one term's description are one entry (decision 0153): the section writer cut the
 * description where its source starts a paragraph, and the reader would see the term twice, one block under the other.
 */
function joinedUnderTerms<P extends { sentences: { term?: string; code?: string }[] }>(paragraphs: P[]): P[] {
  const out: P[] = [];
  for (const p of paragraphs) {
    const last = out.at(-1)?.sentences.at(-1);
    if (last?.term !== undefined && last.code === undefined && p.sentences[0]?.term === last.term) {
      out[out.length - 1] = { ...out.at(-1)!, sentences: [...out.at(-1)!.sentences, ...p.sentences] };
    } else out.push(p);
  }
  return out;
}

/**
 * Builds report.json from the run's verified content. Database ids never reach the report: evidence,
 * claims and sources get short ids (E1, C1, S1) in order of first citation, so the same content always
 * gives the same report, and sources are numbered once each, in citation order.
 */
export function buildReport(raw: ReportInputs): ReportJson {
  // Model runs pass the text gate's last pass first (decision 0041); offline text is extractive and left as it is, but
  // for a body sentence repeating one of an earlier section (decision 0108).
  const gated = raw.run.engine === 'offline' ? null : gateReportInputs(raw);
  const input = gated?.inputs ?? withoutBodyRepeats(raw);
  const evidenceById = new Map(input.evidence.map((e) => [e.id, e]));
  const snapshotById = new Map(input.snapshots.map((s) => [s.id, s]));
  // The record that selected a source carries its authority and cluster; prefer it over later sightings.
  const recordBySnapshot = new Map(
    [...input.records]
      .sort((a, b) => Number(a.selected) - Number(b.selected))
      .filter((r) => r.snapshotId)
      .map((r) => [r.snapshotId!, r]),
  );
  const eIds = new Map<string, string>();
  const sIds = new Map<string, string>();

  const cite = (dbIds: string[]): string[] => {
    const out: string[] = [];
    for (const id of dbIds) {
      const e = evidenceById.get(id);
      if (!e) continue;
      if (!sIds.has(e.snapshotId)) sIds.set(e.snapshotId, `S${sIds.size + 1}`);
      if (!eIds.has(id)) eIds.set(id, `E${eIds.size + 1}`);
      out.push(eIds.get(id)!);
    }
    return [...new Set(out)];
  };
  // A sentence that introduces a code example in its cited excerpt shows the code under it (decision 0102).
  const codeOf = (s: Sentence): string | null =>
    codeIntroduced(
      s.text,
      s.evidenceIds.flatMap((id) => evidenceById.get(id)?.excerpt ?? []),
    );
  // The term each cited passage stands under in its source, and so each sentence quoting it (decision 0153).
  const terms = passageTerms(input.evidence, new Map(input.snapshots.map((x) => [x.id, x.text])));
  const termOf = (s: Sentence) => commonTerm(s.evidenceIds, terms);
  const paragraph = (sentences: Sentence[]) => ({
    sentences: sentences
      .map((s) => {
        const code = codeOf(s);
        const term = termOf(s);
        return { text: s.text, evidenceIds: cite(s.evidenceIds), ...(code ? { code } : {}), ...(term ? { term } : {}) };
      })
      .filter((s) => s.text.trim()),
  });

  const sections: ReportSection[] = [];
  if (input.intro.length > 0)
    sections.push({ id: 'introduction', title: 'Introduction', kind: 'framing', paragraphs: [paragraph(input.intro)] });
  // A section of one sentence joins its neighbour, as the frame step joined it for the introduction (decision 0089);
  // an interview's section keeps its analyst's heading.
  const memoTitles = new Set((input.interviews ?? []).flatMap((i) => [i.sectionTitle, `${i.sectionTitle.slice(0, 399)}…`]));
  mergeShortSections(input.sections, (s) => memoTitles.has(s.title)).forEach((s, i) => {
    const paragraphs = joinedUnderTerms(
      s.paragraphs
        .map((p) => paragraph(p.sentences))
        .filter((p) => p.sentences.every((x) => x.evidenceIds.length > 0) && p.sentences.length > 0),
    );
    if (paragraphs.length > 0) sections.push({ id: `section-${i + 1}`, title: s.title, kind: 'body', paragraphs });
  });

  const claimById = new Map(input.claims.map((c) => [c.id, c]));
  // Each claim appears in at most two disagreements, so one contested figure does not fill the section.
  const shown = new Map<string, number>();
  const verifiedDisagreements = input.disagreements
    ?.map((p) => paragraph(p.sentences))
    // The sides cite their passages; the closing sentence may be ours, saying what differs, citing nothing (0096).
    .filter(
      (p) =>
        p.sentences.filter((s) => s.evidenceIds.length > 0).length >= 2 &&
        p.sentences.every((s, i) => s.evidenceIds.length > 0 || i === p.sentences.length - 1),
    );
  const contradictionParagraphs =
    verifiedDisagreements ??
    input.contradictions.flatMap((c) => {
      const a = claimById.get(c.claimAId);
      const b = claimById.get(c.claimBId);
      if (!a || !b || (shown.get(a.id) ?? 0) >= MAX_DISAGREEMENTS_PER_CLAIM || (shown.get(b.id) ?? 0) >= MAX_DISAGREEMENTS_PER_CLAIM)
        return [];
      shown.set(a.id, (shown.get(a.id) ?? 0) + 1);
      shown.set(b.id, (shown.get(b.id) ?? 0) + 1);
      const p = paragraph([
        { text: a.statement, evidenceIds: a.evidenceIds },
        { text: b.statement, evidenceIds: b.evidenceIds },
      ]);
      return p.sentences.length === 2 && p.sentences.every((s) => s.evidenceIds.length > 0) ? [p] : [];
    });
  if (contradictionParagraphs.length > 0) {
    sections.push({
      id: 'contradictions',
      title: 'Where the sources disagree',
      kind: 'contradictions',
      paragraphs: contradictionParagraphs,
    });
  }
  if (input.conclusion.length > 0)
    sections.push({ id: 'conclusion', title: 'Conclusion', kind: 'framing', paragraphs: [paragraph(input.conclusion)] });

  // After the body, so evidence ids keep their order of first citation in the text.
  const interviews = input.interviews?.map((i) => ({
    analyst: i.analyst,
    sectionId:
      sections.find((s) => s.kind === 'body' && (s.title === i.sectionTitle || s.title === `${i.sectionTitle.slice(0, 399)}…`))?.id ?? null,
    turns: i.turns.map((t) => ({ question: t.question, answer: paragraph(t.answer).sentences.filter((s) => s.evidenceIds.length > 0) })),
  }));

  const excerptOf = (eid: string) => {
    const dbId = [...eIds].find(([, e]) => e === eid)?.[0];
    return dbId === undefined ? undefined : evidenceById.get(dbId)?.excerpt;
  };
  const metrics = withHygiene(
    withSentenceFigures(input.run.engine, input.metrics, sections, input.verification.rounds),
    gated?.dropped,
    () => remainingHygiene(sections, excerptOf),
  );
  const stop = stopText(input.run);
  const method: Sentence[] = [
    { text: engineText(input.run.engine, metrics), evidenceIds: [] },
    ...(input.run.replay ? [{ text: replayText(input.run.replay), evidenceIds: [] }] : []),
    {
      text: `Sources searched: ${input.run.providers.join(', ')}${input.run.collection ? ` (collection "${input.run.collection}")` : ''}; ${input.metrics.searches} queries, ${input.metrics.sourcesFetched} sources read, ${sIds.size} cited.`,
      evidenceIds: [],
    },
    { text: `Research iterations: ${input.metrics.iterations}; research stopped because ${stop}.`, evidenceIds: [] },
    { text: verificationText(metrics.verification, input.verification.rounds), evidenceIds: [] },
    ...(input.metrics.modelOutput ? [{ text: modelOutputText(input.metrics.modelOutput), evidenceIds: [] }] : []),
    ...(metrics.hygiene ? [{ text: hygieneText(metrics.hygiene), evidenceIds: [] }] : []),
    ...(metrics.embeddingsFallback ? [{ text: embeddingsText(metrics.embeddingsFallback), evidenceIds: [] }] : []),
    ...(input.interventions?.length
      ? [{ text: `Interventions applied during research: ${input.interventions.join('; ')}.`, evidenceIds: [] }]
      : []),
    input.openQuestions.length > 0
      ? { text: `Questions that stayed open: ${input.openQuestions.slice(0, 8).map(quoted).join('; ')}.`, evidenceIds: [] }
      : { text: 'No research question stayed open.', evidenceIds: [] },
  ];
  sections.push({ id: 'method', title: 'Method and limits', kind: 'method', paragraphs: [{ sentences: method }] });

  // Claims whose evidence is in the report, with short ids in order of first appearance.
  const cIds = new Map<string, string>();
  const claims: ReportJson['claims'] = {};
  for (const c of input.claims) {
    const ev = c.evidenceIds.filter((id) => eIds.has(id)).map((id) => eIds.get(id)!);
    if (ev.length === 0) continue;
    const cid = `C${cIds.size + 1}`;
    cIds.set(c.id, cid);
    claims[cid] = { text: c.statement, status: c.status as ReportJson['claims'][string]['status'], evidenceIds: ev };
  }
  const evidence: ReportJson['evidence'] = {};
  for (const [dbId, eid] of eIds) {
    const e = evidenceById.get(dbId)!;
    const term = terms.get(dbId);
    evidence[eid] = {
      sourceId: sIds.get(e.snapshotId)!,
      excerpt: e.excerpt,
      start: e.start,
      end: e.end,
      claimIds: input.claims.filter((c) => c.evidenceIds.includes(dbId) && cIds.has(c.id)).map((c) => cIds.get(c.id)!),
      ...(term ? { term } : {}),
    };
  }
  const sources: ReportJson['sources'] = {};
  for (const [snapshotId, sid] of sIds) {
    const snap = snapshotById.get(snapshotId);
    const record = recordBySnapshot.get(snapshotId);
    sources[sid] = {
      number: Number(sid.slice(1)),
      url: snap?.url ?? record?.url ?? '',
      title: snap?.title ?? record?.title ?? '',
      contentHash: snap?.contentHash ?? '',
      fetchedAt: (snap?.fetchedAt ?? new Date(0)).toISOString(),
      ...(record
        ? { origin: record.origin as 'corpus' | 'web', authority: record.authority as ReportJson['sources'][string]['authority'] }
        : {}),
    };
  }
  const contradictions = input.contradictions
    .filter((c) => cIds.has(c.claimAId) && cIds.has(c.claimBId))
    .map((c) => ({
      claimIds: [cIds.get(c.claimAId)!, cIds.get(c.claimBId)!] as [string, string],
      kind: c.kind as ReportJson['contradictions'][number]['kind'],
      note: c.note,
    }));

  return {
    runId: input.run.id,
    question: input.run.question,
    status: input.run.status,
    engine: input.run.engine,
    createdAt: input.run.createdAt.toISOString(),
    sections,
    evidence,
    claims,
    contradictions,
    sources,
    metrics,
    ...(interviews ? { interviews } : {}),
  };
}
