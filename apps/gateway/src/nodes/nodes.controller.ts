import { Controller, Get, UseGuards } from '@nestjs/common';
import { nodeViews, type NodeList } from '@dossier/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';

const NODE_LIST: NodeList = { items: nodeViews() };

/** `GET /v1/nodes`: the workflow's nodes with their labels, phases and descriptions (libs/contracts NODES), read by the web app. */
@Controller('v1/nodes')
@UseGuards(ApiKeyGuard)
export class NodesController {
  @Get()
  list(): NodeList {
    return NODE_LIST;
  }
}
