import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { StepRpcContext } from '@dossier/queue';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { inStepSpan } from './step-span';

/**
 * Opens each step's span and log context around everything Nest runs for it (the job pipe, the step runner, the
 * handler): one `step <node>` span per delivery, continuing the trace its job carries (docs/architecture.md §9).
 */
export class StepSpanInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rpc = context.switchToRpc();
    const step = rpc.getContext<StepRpcContext>();
    return from(inStepSpan(rpc.getData(), step.control.attempt, () => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}
