import { withoutBodyRepeats } from '../src/render/report-hygiene';

/*
 * An offline report's body states a sentence once (decision 0108): sections are drafted apart, and a manual repeating a
 * sentence under each function it documents (Node's vm docs) gave two sections the same sentence.
 */
describe('an offline body without repeats across sections', () => {
  it('keeps the first of two near-identical sentences and drops a paragraph left empty', () => {
    const cited = (text: string, id: string) => ({ text, evidenceIds: [id] });
    const { sections } = withoutBodyRepeats({
      sections: [
        {
          title: 'Contexts',
          paragraphs: [
            {
              sentences: [
                cited(
                  'importModuleDynamically {Function} Used to specify the how the modules should be loaded during the evaluation of this module when import() is called.',
                  'E1',
                ),
                cited('The vm.createContext() method creates a single context that can run multiple scripts.', 'E2'),
              ],
            },
          ],
        },
        {
          title: 'Scripts',
          paragraphs: [
            {
              sentences: [
                cited(
                  'Used to specify the how the modules should be loaded during the evaluation of this function when import() is called.',
                  'E3',
                ),
              ],
            },
            { sentences: [cited('Scripts compiled by vm.Script can be run later many times.', 'E4')] },
          ],
        },
      ],
    });
    expect(sections.map((s) => s.paragraphs.map((p) => p.sentences.map((x) => x.evidenceIds[0])))).toEqual([[['E1', 'E2']], [['E4']]]);
  });

  it('drops a sentence pointing back at a dropped repeat, not one after a kept sentence (decision 0152)', () => {
    const cited = (text: string, id: string) => ({ text, evidenceIds: [id] });
    const { sections } = withoutBodyRepeats({
      sections: [
        {
          title: 'Encoding',
          paragraphs: [{ sentences: [cited('The return value of object_pairs_hook will be used instead of the dict.', 'E1')] }],
        },
        {
          title: 'Decoding',
          paragraphs: [
            {
              sentences: [
                cited('The return value of object_hook will be used instead of the dict.', 'E2'),
                cited('This feature can be used to implement custom decoders (e.g. JSON-RPC class hinting).', 'E2'),
                cited('parse_float, if specified, will be called with the string of every JSON float to be decoded.', 'E3'),
                cited('This can be used to use another datatype or parser for JSON floats.', 'E3'),
              ],
            },
          ],
        },
      ],
    });
    expect(sections.map((s) => s.paragraphs.map((p) => p.sentences.map((x) => x.evidenceIds[0])))).toEqual([[['E1']], [['E3', 'E3']]]);
  });
});
