import { html, nothing, type ReactiveControllerHost } from 'lit';
import { fill } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { formatNumber } from './format.js';

/**
 * What the user must correct in a form, one message per field, keyed by the field's `name` (a
 * row's field by name and row, such as `tag-color-2`), in the form's order.
 */
export type FieldProblems = Readonly<Partial<Record<string, string>>>;

/** How a field shows its problem: see `problemOf`. */
export type FieldProblem = ReturnType<typeof problemOf>;

/**
 * How field `field` of the form whose ids start with `form` shows its problem (the message
 * beside it), if it has one: marked invalid, and described by the message. With `alert`, the
 * message is also said as it shows: a dialog's one field, refused on Enter in it, keeps focus,
 * and a screen reader would not hear of it otherwise.
 */
export function problemOf(form: string, field: string, problems: FieldProblems, alert = false) {
  const message = problems[field];
  const id = `${form}-${field}-error`;
  return {
    invalid: message ? 'true' : 'false',
    describedBy: message ? id : nothing,
    message: message
      ? html`<p class="help error" part="error" id=${id} role=${alert ? 'alert' : nothing}>${message}</p>`
      : nothing,
  };
}

/**
 * The problem of `text` if it is longer than the `max` characters the server takes in its field:
 * counted as the server counts them (`String.length`), so what passes here passes there.
 */
export function tooLong(
  text: string,
  max: number,
  s: AdminStrings,
  lang: string,
): string | undefined {
  if (text.length <= max) return undefined;
  return fill(s.tooLong, { max: formatNumber(max, lang), count: formatNumber(text.length, lang) });
}

/** Takes the user to the first field of `form` marked invalid, once `host` has drawn the marks. */
export async function focusFirstInvalid(
  host: ReactiveControllerHost,
  form: HTMLFormElement,
): Promise<void> {
  await host.updateComplete;
  form.querySelector<HTMLElement>('[aria-invalid=true]')?.focus();
}
