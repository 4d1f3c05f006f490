import type { QuestionMaterial } from '../roles/moderator';

/**
 * The research loop's follow-up templates (the offline moderator asks them; template-questions recognises them). A
 * file of their own, so the moderator can ask what a template question is about without the two importing each other.
 */

/** A follow-up template and what its question's sources must hold for it to be worth asking (issue 25 item 3). */
export interface FollowUpTemplate {
  ask: (topic: string) => string;
  needs: (m: QuestionMaterial) => boolean;
}
const ANY: FollowUpTemplate['needs'] = () => true;

export const BASIC: readonly FollowUpTemplate[] = [
  { ask: (t) => `What figures are reported for ${t}?`, needs: (m) => m.figures >= 1 },
  { ask: (t) => `What do official sources say about ${t}?`, needs: ANY },
  { ask: (t) => `What are the basic facts about ${t}?`, needs: (m) => m.sources >= 1 },
];
export const DEEPER: readonly FollowUpTemplate[] = [
  { ask: (t) => `What evidence contradicts the reported claims about ${t}?`, needs: ANY },
  { ask: (t) => `What independent sources confirm the figures for ${t}?`, needs: (m) => m.figures >= 2 },
  { ask: (t) => `What has changed recently about ${t}?`, needs: (m) => m.dated >= 2 },
];
