'use strict';
// The first thing `dossier` does (issue 28): under an older Node the CLI died deep in a dependency with
// "Cannot read properties of undefined (reading 'bind')". Plain CommonJS, so it runs on any Node.
const MIN_MAJOR = 24;

/** The message for a Node older than Dossier needs, or null when this one will do. */
function nodeVersionProblem(version) {
  const major = Number(String(version).replace(/^v/, '').split('.')[0]);
  if (Number.isInteger(major) && major >= MIN_MAJOR) return null;
  return `dossier: Dossier needs Node ≥ ${MIN_MAJOR} (this is Node ${version}); run \`source tools/env.sh\``;
}

module.exports = { MIN_MAJOR, nodeVersionProblem };
