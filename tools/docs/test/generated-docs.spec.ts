import { applyBlocks, docsState } from '../generated-docs';

describe('docs generated from the code', () => {
  it('every file is what `npm run docs` writes (the node table, the workflow diagrams)', () => {
    const states = docsState();
    expect(states.length).toBeGreaterThan(0);
    for (const state of states) expect({ file: state.file, text: state.committed }).toEqual({ file: state.file, text: state.generated });
  });

  it('a block the file lacks is an error naming it; a changed block is replaced whole', () => {
    expect(() => applyBlocks('x.md', 'no markers here', { nodes: 'table' })).toThrow(/x\.md has no generated block "nodes"/);
    const text = 'a\n<!-- BEGIN GENERATED: nodes (npm run docs) -->\n\nold\n\n<!-- END GENERATED: nodes (npm run docs) -->\nb';
    expect(applyBlocks('x.md', text, { nodes: 'new' })).toBe(text.replace('old', 'new'));
  });
});
