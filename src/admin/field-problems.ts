import { html, nothing, type ReactiveControllerHost } from 'lit';

/**
 * What the user must correct in a form, one message per field, keyed by the field's `name` (a
 * row's field by name and row, such as `tag-color-2`), in the form's order.
 */
export type FieldProblems = Readonly<Partial<Record<string, string>>>;

/**
 * How field `field` of the form whose ids start with `form` shows its problem (the message
 * beside it), if it has one: marked invalid, and described by the message.
 */
export function problemOf(form: string, field: string, problems: FieldProblems) {
  const message = problems[field];
  const id = `${form}-${field}-error`;
  return {
    invalid: message ? 'true' : 'false',
    describedBy: message ? id : nothing,
    message: message ? html`<p class="help error" part="error" id=${id}>${message}</p>` : nothing,
  };
}

/** Takes the user to the first field of `form` marked invalid, once `host` has drawn the marks. */
export async function focusFirstInvalid(
  host: ReactiveControllerHost,
  form: HTMLFormElement,
): Promise<void> {
  await host.updateComplete;
  form.querySelector<HTMLElement>('[aria-invalid=true]')?.focus();
}
