import { NotAcceptableError } from '../../src/common/http-errors';
import { negotiateReportFormat } from '../../src/results/report-format';

describe('negotiateReportFormat', () => {
  it.each([
    [undefined, 'md'],
    ['', 'md'],
    ['*/*', 'md'],
    ['text/html', 'html'],
    ['application/json', 'json'],
    ['text/markdown', 'md'],
    ['text/html;q=0.5, application/json', 'json'],
    ['application/json;q=0.2, text/html;q=0.9', 'html'],
    ['image/png, text/*;q=0.1', 'md'],
    ['TEXT/HTML', 'html'],
    ['application/pdf', 'pdf'],
    ['application/pdf;q=0.4, text/html;q=0.3', 'pdf'],
  ])('%s → %s', (accept, format) => {
    expect(negotiateReportFormat(accept)).toBe(format);
  });

  it('nothing acceptable is a 406 error; q=0 means "not this"', () => {
    expect(() => negotiateReportFormat('image/png')).toThrow(NotAcceptableError);
    expect(() => negotiateReportFormat('text/html;q=0')).toThrow(NotAcceptableError);
  });
});
