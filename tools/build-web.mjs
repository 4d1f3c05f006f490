// Builds the web app (apps/web → apps/web/dist) with Vite when its sources changed since the last build.
// Called by `npm run build:web`, by `npm test` before the suites, by the browser tests' set-up and by the
// image build; a build that is up to date costs a hash of the sources (docs/decisions/0017).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const app = path.join(root, 'apps/web');
const dist = path.join(app, 'dist');
const stampFile = path.join(dist, '.build-stamp');

function files(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? files(full) : [full];
    });
}

const inputs = [
  ...['index.html', 'vite.config.mts', 'package.json'].map((f) => path.join(app, f)),
  ...files(path.join(app, 'src')),
  ...files(path.join(app, 'public')),
  path.join(root, 'package-lock.json'),
];
const hash = createHash('sha256');
for (const file of inputs) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file));
const stamp = hash.digest('hex');

const force = process.argv.includes('--force');
if (!force && existsSync(path.join(dist, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
  if (!process.argv.includes('--quiet')) console.log('web app: up to date (apps/web/dist)');
  process.exit(0);
}
const vite = path.join(root, 'node_modules/vite/bin/vite.js');
try {
  execFileSync(
    process.execPath,
    [vite, 'build', app, '--mode', 'production', '--logLevel', process.argv.includes('--quiet') ? 'warn' : 'info'],
    {
      cwd: root,
      stdio: 'inherit',
      // React picks its development build when NODE_ENV says so (jest sets "test"): always ship production.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
} catch {
  console.error('web app: the Vite build failed (see above)');
  process.exit(1);
}
writeFileSync(stampFile, stamp);
