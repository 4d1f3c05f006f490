import { Link, paths } from '../../router';
import { Alert, PageTitle } from '../../ui/common';

/** Unknown run, or another tenant's: the API cannot tell them apart, and neither does this page. */
export function RunNotFound({ runId }: { runId: string }) {
  return (
    <>
      <PageTitle title="Run not found">Run not found</PageTitle>
      <Alert>
        There is no run <code>{runId}</code> that your key can see.
      </Alert>
      <p>
        <Link to={paths.runs()}>Back to the runs</Link>
      </p>
    </>
  );
}
