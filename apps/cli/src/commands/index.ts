import type { CommandSpec } from '../framework/command-spec';
import { adminCommand } from './admin.command';
import { approveCommand } from './approve.command';
import { cancelCommand } from './cancel.command';
import { evalCommand } from './eval.command';
import { documentsCommand } from './documents.command';
import { exportCommand } from './export.command';
import { importCommand } from './import.command';
import { ingestCommand } from './ingest.command';
import { interveneCommand } from './intervene.command';
import { mcpCommand } from './mcp.command';
import { demoCommand, researchCommand } from './research.command';
import { replayCommand } from './replay.command';
import { reportCommand } from './report.command';
import { resumeCommand } from './resume.command';
import { runsCommand } from './runs.command';
import { serveCommand } from './serve.command';
import { showCommand } from './show.command';
import { sourceTextCommand } from './source-text.command';

/** Every command of `dossier`, in the order `--help` lists them. */
export const COMMANDS = [
  ingestCommand,
  documentsCommand,
  researchCommand,
  resumeCommand,
  replayCommand,
  exportCommand,
  importCommand,
  runsCommand,
  showCommand,
  reportCommand,
  approveCommand,
  interveneCommand,
  cancelCommand,
  sourceTextCommand,
  demoCommand,
  evalCommand,
  mcpCommand,
  serveCommand,
  adminCommand,
] as CommandSpec<never>[];
