import { storedEndpoint, describeEndpoint, sameEndpoint, type ModelEndpoint } from './model-endpoint';

/** What this worker is: the host it is part of (null: the deployment) and the model endpoint it is configured for. */
export interface WorkerIdentity {
  host: string | null;
  endpoint: ModelEndpoint | null;
}

export type Admission =
  /** Run it; `record`: the run has no endpoint yet, this worker's becomes the run's (its first model step). */
  | { kind: 'run'; record?: ModelEndpoint }
  /** Not this worker's to run, ever: the run is hosted elsewhere (its host enqueues its steps on its own queues). */
  | { kind: 'skip'; reason: string }
  /** Not this worker's to run, but another worker's: leave it on the queue. */
  | { kind: 'refuse'; reason: string };

/**
 * Whether this worker may run a step of `run` (docs/decisions/0075, 0076): only steps of runs its host hosts, and a
 * model step (a node whose handler calls an agent role, in a run on the openai engine) only with the endpoint the run
 * ran against. A worker without any endpoint takes a model step of a run that has none recorded either, and fails it
 * with the agents' own error naming the settings, as before; one with an endpoint records it on the run.
 */
export function admitStep(
  run: { hostedBy: string | null; modelEndpoint: unknown },
  step: { engine: string; callsModel: boolean },
  self: WorkerIdentity,
): Admission {
  if ((run.hostedBy ?? null) !== self.host) {
    return { kind: 'skip', reason: `hosted by ${run.hostedBy ? `the dossier process ${run.hostedBy}` : 'the deployment'}` };
  }
  if (step.engine !== 'openai' || !step.callsModel) return { kind: 'run' };
  const recorded = storedEndpoint(run.modelEndpoint);
  if (!recorded) return self.endpoint ? { kind: 'run', record: self.endpoint } : { kind: 'run' };
  if (self.endpoint && sameEndpoint(recorded, self.endpoint)) return { kind: 'run' };
  return {
    kind: 'refuse',
    reason: `the run uses ${describeEndpoint(recorded)}; this worker is configured for ${describeEndpoint(self.endpoint)}`,
  };
}
