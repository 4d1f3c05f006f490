/** What the realistic model (realistic-model.ts) is told: which defects, how often. Apart so the server's types can name it. */

export const DEFECT_KINDS = [
  'paraphrase',
  'unsupported',
  'wrong_ids',
  'wrong_kind_ids',
  'over_length',
  'wrapped',
  'sloppy_json',
  'truncated',
  'empty_lists',
  'refusal',
] as const;
export type DefectKind = (typeof DEFECT_KINDS)[number];

export type DefectRates = Partial<Record<DefectKind, number>>;

export interface RealisticModelOptions {
  /** Seeds every choice together with each request's content. */
  seed?: string;
  /** Share of answers (sentences, for paraphrase and unsupported) that get each defect. */
  rates: DefectRates;
  /** Per-role rates, replacing `rates` for that role. */
  roles?: Record<string, DefectRates>;
  /**
   * How often the judge, reading for gist, lets a sentence pass whose only fault is one figure, date, name or negation
   * (default 0.5). A sentence from another passage is always caught.
   */
  judgeSlip?: number;
}
