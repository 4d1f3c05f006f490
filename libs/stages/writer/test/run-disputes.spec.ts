import { runDisputes } from '../src/frame/disagreements';

/*
 * The run's disputes (decisions 0087, 0098): recorded contradictions and pairs found when writing, only between
 * sources. A pair whose sides all come from one document is no disagreement between sources, recorded or not.
 */
describe('runDisputes', () => {
  const claim = (id: string, statement: string, sourceIds: string[]) => ({ id, statement, sourceIds });
  const eighteen = 'Lake Varen has lost 18% of its surface area.';
  const twentySeven = 'Lake Varen has lost 27% of its surface area.';

  it('keeps a pair from two sources, recorded or found when writing', () => {
    const claims = [claim('A', eighteen, ['S1']), claim('B', twentySeven, ['S2'])];
    expect(runDisputes([], claims)).toEqual([{ claimAId: 'A', claimBId: 'B' }]);
    expect(runDisputes([{ claimAId: 'B', claimBId: 'A' }], claims)).toEqual([{ claimAId: 'B', claimBId: 'A' }]);
  });

  it('drops a pair whose sides come from one source only, recorded or found when writing', () => {
    const claims = [claim('A', eighteen, ['S1']), claim('B', twentySeven, ['S1'])];
    expect(runDisputes([], claims)).toEqual([]);
    expect(runDisputes([{ claimAId: 'A', claimBId: 'B' }], claims)).toEqual([]);
  });

  it('a side another source also states still opposes the other', () => {
    const claims = [claim('A', eighteen, ['S1', 'S2']), claim('B', twentySeven, ['S1'])];
    expect(runDisputes([], claims)).toEqual([{ claimAId: 'A', claimBId: 'B' }]);
  });

  it('a conditional negation and different API names are no dispute, from two sources too', () => {
    const claims = [
      claim('A', 'If Node.js was not started with the --test-only command-line option, this function is a no-op.', ['S1']),
      claim('B', 'Starts the Node.js command line test runner.', ['S2']),
      claim('C', 'The vm.runInContext() method compiles code and returns the result after 5 milliseconds.', ['S3']),
      claim('D', 'The vm.compileFunction() method compiles code and returns the result after 10 milliseconds.', ['S4']),
    ];
    expect(runDisputes([], claims)).toEqual([]);
  });
});
