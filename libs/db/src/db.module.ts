import { Global, Module, type DynamicModule } from '@nestjs/common';
import { PrismaService, type DbOptions } from './prisma.service';
import { REPOSITORIES } from './repositories';
import { RunViews } from './views/run-view';

@Global()
@Module({})
export class DbModule {
  static forRoot(options: DbOptions): DynamicModule {
    return {
      module: DbModule,
      providers: [{ provide: PrismaService, useFactory: () => new PrismaService(options) }, ...REPOSITORIES, RunViews],
      exports: [PrismaService, ...REPOSITORIES, RunViews],
    };
  }
}
