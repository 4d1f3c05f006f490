/**
 * How long a test may wait before it is called hung: `TEST_HANG_GUARD_MS`, 30 minutes by default, the same
 * value jest's `testTimeout` uses (jest.config.cjs). It is not a timing assertion. A wait ends on the state it
 * waits for, or at once on a state that rules that out (`StopWaiting`: a run that failed, a child process that
 * exited); this guard only stops a test that would otherwise never end. A shorter deadline made tests fail
 * when the machine was merely slow (docs/decisions/0012).
 */
export const HANG_GUARD_MS = Number(process.env['TEST_HANG_GUARD_MS']) || 30 * 60_000;
