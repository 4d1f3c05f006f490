export { createDossierMcpServer, MCP_TOOLS } from './dossier-mcp-server';
export { searchEvidence, type EvidenceHit } from './search-evidence';
