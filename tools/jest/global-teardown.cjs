// Ends the connection that held this run's shared lock on its template database (global-setup.cjs).
module.exports = async function globalTeardown() {
  const user = globalThis.__dossierTemplateUser;
  globalThis.__dossierTemplateUser = undefined;
  await user?.end().catch(() => undefined);
};
