import { Module } from '@nestjs/common';
import { RenderHandler } from './render/render.handler';

/** The renderer service's node: render. */
@Module({ controllers: [RenderHandler] })
export class RendererStagesModule {}
