import { Global, Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { createRedis } from './redis-connection';
import { QUEUE_OPTIONS, type QueueOptions } from './queue-options';
import { StepQueues } from './step-queues';
import { StepWorkerHost } from './step-worker.host';
import { REDIS } from './tokens';

@Global()
@Module({})
export class QueueModule {
  static forRoot(options: QueueOptions): DynamicModule {
    return {
      module: QueueModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: QUEUE_OPTIONS, useValue: options },
        {
          provide: REDIS,
          useFactory: () => createRedis(options.redisUrl, 'dossier-producer'),
        },
        StepQueues,
        StepWorkerHost,
      ],
      exports: [StepQueues, StepWorkerHost, REDIS, QUEUE_OPTIONS],
    };
  }
}
