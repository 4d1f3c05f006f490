import { z } from 'zod';
import { RiskLevel } from '@dossier/contracts';
import { buildPrompt } from '../prompt/build-prompt';
import type { RoleDefinition } from './role';
import { Question, Topic, text } from './schemas';

export const DirectorInput = z.strictObject({ question: Question });
export type DirectorInput = z.infer<typeof DirectorInput>;

export const DirectorOutput = z.strictObject({
  statement: text(4000),
  includedTopics: z.array(Topic).max(50),
  excludedTopics: z.array(Topic).max(50),
  timeFrame: z.string().max(200).nullable(),
  riskLevel: RiskLevel,
});
export type DirectorOutput = z.infer<typeof DirectorOutput>;

export const directorDefinition: RoleDefinition<DirectorInput, DirectorOutput, 'director'> = {
  name: 'director',
  temperature: 0.2,
  input: DirectorInput,
  output: DirectorOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Research Director',
      task: 'Turn the research question into a research objective: a one-paragraph statement of what the report must establish, the topics in and out of scope, the time frame, and how much harm a wrong answer could do.',
      rules: [
        'Topics are short noun phrases (2–5 words), most important first.',
        'Put a topic under excludedTopics only when the question excludes it.',
        'timeFrame is null unless the question implies one (a year, a range, "the last decade").',
        'riskLevel is high for health, safety, legal, financial or election questions; medium for policy and economics; low otherwise.',
      ],
      output: DirectorOutput,
      data: [['question', input.question]],
    }),
};
