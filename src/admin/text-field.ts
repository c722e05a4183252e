import { nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { literal, html as staticHtml } from 'lit/static-html.js';
import type { FieldProblem } from './field-problems.js';

/** A labelled text field with its problem beside it: see `textField`. */
export interface TextField {
  label: string;
  /** The control's name; `problem` may be keyed otherwise, as a row's field is. */
  name: string;
  value: string;
  problem: FieldProblem;
  onInput: (value: string) => void;
  /** Makes the field a textarea of this many rows. */
  rows?: number;
  /** `auto` where the user writes prose, in whichever direction their language runs. */
  dir?: 'auto';
  class?: string;
  inputmode?: 'decimal';
  autocomplete?: 'off';
  spellcheck?: false;
  placeholder?: string;
  list?: string;
  required?: boolean;
}

/**
 * A form's text field: the control inside its label, marked invalid and described by its
 * problem, whose message follows the label. The control shows `value` whenever it is drawn, even
 * when the model went back to the value it last drew (`live`): what is on screen is what is saved.
 */
export function textField(f: TextField) {
  const p = f.problem;
  // Static tags, so that an input and a textarea share one list of attributes; the `/>` that
  // ends an input is ignored on a textarea, which its end tag closes.
  const tag = f.rows === undefined ? literal`input` : literal`textarea`;
  const end = f.rows === undefined ? literal`` : literal`</textarea>`;
  return staticHtml`<div class="field">
    <label>${f.label}<${tag}
      part="input"
      class=${f.class ?? nothing}
      name=${f.name}
      dir=${f.dir ?? nothing}
      rows=${f.rows ?? nothing}
      inputmode=${f.inputmode ?? nothing}
      autocomplete=${f.autocomplete ?? nothing}
      spellcheck=${f.spellcheck ?? nothing}
      placeholder=${f.placeholder ?? nothing}
      list=${f.list ?? nothing}
      ?required=${f.required}
      aria-invalid=${p.invalid}
      aria-describedby=${p.describedBy}
      .value=${live(f.value)}
      @input=${(e: Event) => f.onInput((e.target as HTMLInputElement | HTMLTextAreaElement).value)}
    />${end}</label>
    ${p.message}
  </div>`;
}
