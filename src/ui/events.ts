/**
 * The one way our elements dispatch events. The name decides the detail's type through
 * `HTMLElementEventMap`, where every event of ours is declared, so a misspelt name or a wrong
 * detail fails to compile, and no listener needs a cast.
 */

/** The names in `HTMLElementEventMap` whose event is a `CustomEvent`. */
export type CustomEventName = {
  [K in keyof HTMLElementEventMap]: HTMLElementEventMap[K] extends CustomEvent<unknown> ? K : never;
}[keyof HTMLElementEventMap];

/** The detail an event of that name carries. */
export type EventDetail<K extends CustomEventName> =
  HTMLElementEventMap[K] extends CustomEvent<infer D> ? D : never;

export interface EmitOptions {
  /** A listener may call `preventDefault()`; `emit` then returns false. Default false. */
  readonly cancelable?: boolean;
  /**
   * Whether the event leaves the shadow root it starts in. Default true: a host page listens on
   * the element. The admin's panel-to-admin events stay inside the admin (false).
   */
  readonly composed?: boolean;
}

/** Dispatches a bubbling `CustomEvent` from `target`; false when a listener cancelled it. */
export function emit<K extends CustomEventName>(
  target: EventTarget,
  type: K,
  detail: EventDetail<K>,
  { cancelable = false, composed = true }: EmitOptions = {},
): boolean {
  return target.dispatchEvent(
    new CustomEvent(type, { detail, bubbles: true, composed, cancelable }),
  );
}
