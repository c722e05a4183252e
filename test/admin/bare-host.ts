import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * A host with no element and no rendering, for testing a controller on its own: the test
 * connects and disconnects it, and counts the updates the controller asks for.
 */
export class BareHost implements ReactiveControllerHost {
  readonly controllers = new Set<ReactiveController>();
  /** How many times a controller called `requestUpdate()`. */
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

  disconnect(): void {
    for (const controller of this.controllers) controller.hostDisconnected?.();
  }
}
