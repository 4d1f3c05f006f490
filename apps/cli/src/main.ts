import './tracing';
import { runCli } from './cli';

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  // runCli reports every error itself; this is only reached if writing to stderr failed.
  () => process.exit(1),
);
