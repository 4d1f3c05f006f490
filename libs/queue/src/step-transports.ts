import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';

/**
 * The BullMQ transports started in this app. A stage service's `app.close()` closes its transport before any module
 * (Nest closes a microservice's server first); an HTTP app hosting the stages (the gateway in tests) closes its
 * connected microservices only after the modules, when Redis and Postgres are gone. So the transports are also
 * drained here, before the shutdown hooks that close those connections. Closing twice is a no-op.
 */
@Injectable()
export class StepTransports implements BeforeApplicationShutdown {
  private readonly transports = new Set<{ close(): Promise<void> }>();

  add(transport: { close(): Promise<void> }): void {
    this.transports.add(transport);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.transports].map((t) => t.close()));
  }
}
