import { Controller, Get, UseGuards } from '@nestjs/common';
import { environment } from '@dossier/config';
import type { CapabilitiesView } from '@dossier/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { deploymentCapabilities } from './deployment-capabilities';

/** `GET /v1/capabilities`: the engines and search providers this deployment is configured for (any key may ask). */
@Controller('v1/capabilities')
@UseGuards(ApiKeyGuard)
export class CapabilitiesController {
  // The environment does not change while the process runs: decided once.
  private readonly view = deploymentCapabilities(environment());

  @Get()
  capabilities(): CapabilitiesView {
    return this.view;
  }
}
