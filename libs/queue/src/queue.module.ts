import { Global, Module, type DynamicModule } from '@nestjs/common';
import { createRedis } from './redis-connection';
import { QUEUE_OPTIONS, type QueueOptions } from './queue-options';
import { StepQueues } from './step-queues';
import { StepTransports } from './step-transports';
import { REDIS } from './tokens';

@Global()
@Module({})
export class QueueModule {
  static forRoot(options: QueueOptions): DynamicModule {
    return {
      module: QueueModule,
      providers: [
        { provide: QUEUE_OPTIONS, useValue: options },
        {
          provide: REDIS,
          useFactory: () => createRedis(options.redisUrl, 'dossier-producer'),
        },
        StepQueues,
        StepTransports,
      ],
      exports: [StepQueues, StepTransports, REDIS, QUEUE_OPTIONS],
    };
  }
}
