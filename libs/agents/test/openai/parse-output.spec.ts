import { z } from 'zod';
import { parseJsonReply, stripReasoning } from '../../src/openai/parse-output';
import { strictJsonSchema } from '../../src/openai/response-schema';
import { DirectorOutput } from '../../src/roles';

describe('reasoning blocks and JSON replies', () => {
  it('strips closed, unopened and unterminated reasoning blocks', () => {
    expect(stripReasoning('<think>a {"x":1}</think>{"y":2}')).toBe('{"y":2}');
    expect(stripReasoning('<thinking type="x">a</thinking>\n<reasoning>b</reasoning> ok')).toBe('ok');
    expect(stripReasoning('chain of thought</think>{"y":2}')).toBe('{"y":2}');
    expect(stripReasoning('{"y":2}<think>never closed')).toBe('{"y":2}');
  });

  it('takes the JSON object out of fences and prose', () => {
    expect(parseJsonReply('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 }, repairs: ['fence'] });
    expect(parseJsonReply('Sure! {"a":{"b":2}} Hope that helps.')).toEqual({
      ok: true,
      value: { a: { b: 2 } },
      repairs: ['prose', 'trailing_text'],
    });
    expect(parseJsonReply('{"a":1}')).toEqual({ ok: true, value: { a: 1 }, repairs: [] });
    expect(parseJsonReply('no json here')).toEqual({ ok: false, error: 'the reply contains no JSON object' });
    expect(parseJsonReply('{"a": ')).toMatchObject({ ok: false, error: expect.stringMatching(/not valid JSON/) });
  });

  it('the response schema is strict: every property required, no extras, no unsupported keywords', () => {
    const schema = strictJsonSchema(DirectorOutput) as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.required.sort()).toEqual(Object.keys(DirectorOutput.shape).sort());
    expect(schema.additionalProperties).toBe(false);
    expect(JSON.stringify(schema)).not.toMatch(/minLength|maxLength|maxItems|\$schema/);
    // With limits, for endpoints that take them (the engine steps down to the schema above on a 400).
    expect(JSON.stringify(strictJsonSchema(DirectorOutput, { limits: true }))).toMatch(/"maxLength":4000/);
    const nested = strictJsonSchema(z.strictObject({ a: z.array(z.strictObject({ b: z.string().min(1) })) })) as {
      properties: { a: { items: { required: string[] } } };
    };
    expect(nested.properties.a.items.required).toEqual(['b']);
  });
});
