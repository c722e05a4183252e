import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * A bare controller host, as Lit tests its own controllers: no element, no rendering. It counts
 * update requests, and runs its controllers' hooks when a test says it connects, updates or leaves.
 */
export class TestHost extends EventTarget implements ReactiveControllerHost {
  readonly controllers = new Set<ReactiveController>();
  /** How often a controller asked for an update. */
  updates = 0;
  readonly updateComplete = Promise.resolve(true);

  addController(controller: ReactiveController): void {
    this.controllers.add(controller);
  }

  removeController(controller: ReactiveController): void {
    this.controllers.delete(controller);
  }

  requestUpdate(): void {
    this.updates += 1;
  }

  connect(): void {
    for (const controller of this.controllers) controller.hostConnected?.();
  }

  /** One update: the hooks before and after the render a real element would do between them. */
  update(): void {
    for (const controller of this.controllers) controller.hostUpdate?.();
    for (const controller of this.controllers) controller.hostUpdated?.();
  }

  disconnect(): void {
    for (const controller of this.controllers) controller.hostDisconnected?.();
  }
}
