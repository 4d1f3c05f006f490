import { Catch, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import type { StepRpcContext } from '@dossier/queue';
import { defer, type Observable } from 'rxjs';

/**
 * The exception filter of every step handler. Nest's default RPC filter turns an error into a plain
 * `{ status, message }` object, and the transport would lose its class, which decides retries (libs/errors): this one
 * hands the original error back. An error the step runner did not record (the job pipe refused the payload, an
 * interceptor failed) is recorded on its run first, as the runner records its own: final errors fail the run.
 */
@Catch()
export class StepErrorFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    const rpc = host.switchToRpc();
    const step = rpc.getContext<StepRpcContext>();
    return defer(async (): Promise<never> => {
      await step.processor.recordUnseen(rpc.getData(), exception, step.control);
      throw exception;
    });
  }
}
