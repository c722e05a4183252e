import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { DataSource, SourceTag } from '../api/types.js';
import { emit } from '../ui/events.js';
import { fill, plural } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { type FieldProblems, focusFirstInvalid, problemOf, tooLong } from './field-problems.js';
import { HEX_COLOR, swatch } from './format.js';
import { AdminPanel, ariaDisabled } from './panel.js';
import { textField } from './text-field.js';

interface TagDraft {
  /** The tag being edited, or null for a new one. */
  uuid: string | null;
  name: string;
  color: string;
  members: string[];
}

const newDraft = (): TagDraft => ({ uuid: null, name: '', color: '#2563eb', members: [] });

/** The longest name the server takes (routes/tags.ts). */
const NAME_MAX = 200;

/** Every problem of the tag form, keyed by field: the name as it is sent (trimmed), the colour. */
function tagProblems(d: TagDraft, s: AdminStrings, lang: string): FieldProblems {
  const problems: Record<string, string> = {};
  const name = d.name.trim();
  const long = tooLong(name, NAME_MAX, s, lang);
  if (!name) problems.name = s.nameRequired;
  else if (long) problems.name = long;
  if (!HEX_COLOR.test(d.color)) problems.color = s.colorInvalid;
  return problems;
}

/**
 * Source tags of the selected chatbot: swatches and counts, create and edit (name, colour,
 * member sources), delete, and a jump to the source table filtered by a tag.
 *
 * @fires admin-show-tag - (internal) Show the sources of a tag; `detail` is its uuid.
 */
export class AdminTagsPanel extends AdminPanel {
  @state() private tags: SourceTag[] = [];
  @state() private sources: DataSource[] = [];
  @state() private draft: TagDraft = newDraft();
  @state() private memberFilter = '';
  @state() private saved = false;
  /** Set by a refused submit: a missing name is a problem from then on, not while typing. */
  @state() private refused = false;

  /** The Edit button the form was opened with: Cancel takes focus back to it. */
  private opener?: HTMLElement;

  private readonly tagsTask = this.tagList((tags) => {
    this.tags = tags;
  });

  private readonly sourcesTask = this.sourceList((sources) => {
    this.sources = sources;
  });

  /** Reloads the tags and the sources they may hold. */
  override refresh(): void {
    void this.tagsTask.run();
    void this.sourcesTask.run();
  }

  private patch(p: Partial<TagDraft>): void {
    this.draft = { ...this.draft, ...p };
    this.saved = false;
  }

  private handleEditClick(tag: SourceTag): void {
    this.draft = {
      uuid: tag.uuid,
      name: tag.name,
      color: tag.color,
      members: [...tag.data_source_uuids],
    };
    this.saved = false;
    this.refused = false;
    this.clearError('tag');
    this.opener = (this.shadowRoot?.activeElement as HTMLElement | null) ?? undefined;
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLInputElement>('form.tag-form input[name=name]')?.focus(),
    );
  }

  private async handleSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const client = this.client;
    const chatbot = this.chatbot;
    const d = this.draft;
    if (!client || !chatbot) return;
    if (Object.keys(tagProblems(d, this.strings, this.lang)).length) {
      this.refused = true;
      return focusFirstInvalid(this, event.target as HTMLFormElement);
    }
    const body = { name: d.name.trim(), color: d.color, data_source_uuids: d.members };
    if (d.uuid === null) {
      const result = await this.run('tag', 'tags.create', () =>
        client.tags.create(chatbot.uuid, body),
      );
      if (!result.ok) return;
      this.tags = [...this.tags, result.value];
      this.draft = newDraft();
      this.refused = false;
      this.changed({ kind: 'tag', action: 'create', uuids: [result.value.uuid] });
      return;
    }
    const uuid = d.uuid;
    const before = this.tags.find((t) => t.uuid === uuid);
    if (!before) return;
    // Optimistic: the list shows the change at once; a refusal puts the old tag back.
    this.replace(uuid, { ...before, ...body });
    const result = await this.run('tag', 'tags.update', () => client.tags.update(uuid, body));
    if (!result.ok) {
      this.replace(uuid, before);
      return;
    }
    this.replace(uuid, result.value);
    this.saved = true;
    this.changed({ kind: 'tag', action: 'update', uuids: [uuid] });
  }

  /** Leaves the edit form for a new one, focus back on the Edit button that opened it. */
  private async handleCancelClick(): Promise<void> {
    this.draft = newDraft();
    this.refused = false;
    this.clearError('tag');
    await this.updateComplete;
    const opener = this.opener;
    this.opener = undefined;
    (opener?.isConnected
      ? opener
      : this.renderRoot.querySelector<HTMLElement>('#tag-form-heading')
    )?.focus();
  }

  private replace(uuid: string, tag: SourceTag | undefined): void {
    this.tags = tag
      ? this.tags.map((t) => (t.uuid === uuid ? tag : t))
      : this.tags.filter((t) => t.uuid !== uuid);
  }

  private async handleDeleteClick(tag: SourceTag): Promise<void> {
    const client = this.client;
    if (!client) return;
    if (!(await this.confirm.ask(fill(this.strings.confirmDeleteTag, { name: tag.name })))) return;
    const index = this.tags.findIndex((t) => t.uuid === tag.uuid);
    void this.removeRow('li.tag', '#tag-form-heading', () => this.replace(tag.uuid, undefined));
    const result = await this.run('list', 'tags.delete', () => client.tags.delete(tag.uuid));
    if (!result.ok) {
      const tags = [...this.tags];
      tags.splice(Math.max(0, index), 0, tag);
      this.tags = tags;
      return;
    }
    if (this.draft.uuid === tag.uuid) this.draft = newDraft();
    this.changed({ kind: 'tag', action: 'delete', uuids: [tag.uuid] });
  }

  private showSources(tag: SourceTag): void {
    emit(this, 'admin-show-tag', tag.uuid, { composed: false });
  }

  override render() {
    const s = this.strings;
    const status = this.tagsTask.render({
      pending: () => (this.tags.length ? nothing : this.renderPending()),
      error: (error) => this.renderLoadError(error, () => this.tagsTask.run(), 'tags.list'),
      complete: () => (this.tags.length ? nothing : html`<p class="empty">${s.noTags}</p>`),
    });
    return html`
      <h2 class="visually-hidden">${s.tags}</h2>
      ${status} ${this.renderError('list')}
      <ul class="plain">
        ${repeat(
          this.tags,
          (tag) => tag.uuid,
          (tag) => this.renderTag(tag),
        )}
      </ul>
      ${this.renderForm()} ${this.confirm.render()}
    `;
  }

  private renderTag(tag: SourceTag) {
    const s = this.strings;
    return html`<li class="card row center tag" part="card">
      <span
        class="swatch"
        part="swatch"
        ${swatch(tag.color)}
      ></span>
      <strong class="user-text" dir="auto">${tag.name}</strong>
      <span class="badge">${plural(s, 'memberCount', tag.data_source_uuids.length, this.lang)}</span>
      <span class="spacer"></span>
      <span class="controls">
        <button
          type="button"
          part="button"
          aria-label=${fill(s.showSourcesOf, { name: tag.name })}
          @click=${() => this.showSources(tag)}
        >
          ${s.showSources}
        </button>
        <button
          type="button"
          part="button"
          aria-label=${fill(s.editTag, { name: tag.name })}
          @click=${() => this.handleEditClick(tag)}
        >
          ${s.edit}
        </button>
        <button
          type="button"
          class="danger"
          part="button danger"
          aria-label=${fill(s.deleteTag, { name: tag.name })}
          @click=${() => this.handleDeleteClick(tag)}
        >
          ${s.delete}
        </button>
      </span>
    </li>`;
  }

  private renderForm() {
    const s = this.strings;
    const d = this.draft;
    const problems = tagProblems(d, s, this.lang);
    const valid = !problems.color;
    // A name not typed yet is no problem until the form is refused.
    const nameProblems = this.refused || d.name.trim() ? problems : {};
    const chosen = new Set(d.members);
    const needle = this.memberFilter.trim().toLowerCase();
    const listed = needle
      ? this.sources.filter((src) => (src.title || src.file_name).toLowerCase().includes(needle))
      : this.sources;
    const heading = d.uuid
      ? fill(s.editTag, { name: this.tags.find((t) => t.uuid === d.uuid)?.name ?? '' })
      : s.newTag;
    return html`<form class="card tag-form" part="form card" aria-labelledby="tag-form-heading" @submit=${this.handleSubmit} novalidate>
      <h3 id="tag-form-heading" class="user-text" tabindex="-1">${heading}</h3>
      <div class="row top">
        ${textField({
          label: s.name,
          name: 'name',
          dir: 'auto',
          required: true,
          autocomplete: 'off',
          value: d.name,
          problem: problemOf('tag', 'name', nameProblems),
          onInput: (name) => this.patch({ name }),
        })}
        <div class="field">
          <label for="tag-color">${s.color}</label>
          <div class="color-pair">
            <input
              id="tag-color"
              part="input"
              name="color"
              placeholder="#RRGGBB"
              pattern="#[0-9a-fA-F]{6}"
              aria-invalid=${valid ? 'false' : 'true'}
              aria-describedby="color-help"
              .value=${d.color}
              @input=${(e: Event) => this.patch({ color: (e.target as HTMLInputElement).value.trim() })}
            />
            <input
              type="color"
              aria-label=${s.colorPicker}
              .value=${valid ? d.color.toLowerCase() : '#000000'}
              @input=${(e: Event) => this.patch({ color: (e.target as HTMLInputElement).value })}
            />
          </div>
          <p id="color-help" class=${valid ? 'help' : 'help error'}>${valid ? '#RRGGBB' : s.colorInvalid}</p>
        </div>
      </div>
      <fieldset>
        <legend>${s.members}</legend>
        <label
          >${s.filterMembers}<input
            part="input"
            dir="auto"
            type="search"
            .value=${this.memberFilter}
            @input=${(e: Event) => {
              this.memberFilter = (e.target as HTMLInputElement).value;
            }}
        /></label>
        ${
          this.sources.length === 0
            ? html`<p class="empty">${s.noSourcesYet}</p>`
            : html`<div class="checklist">
                ${listed.map(
                  (src) => html`<label class="inline"
                    ><input
                      type="checkbox"
                      name="member"
                      .checked=${chosen.has(src.uuid)}
                      @change=${(e: Event) => {
                        const next = new Set(chosen);
                        if ((e.target as HTMLInputElement).checked) next.add(src.uuid);
                        else next.delete(src.uuid);
                        this.patch({ members: [...next] });
                      }}
                    /><span class="user-text" dir="auto">${src.title || src.file_name}</span></label
                  >`,
                )}
              </div>`
        }
      </fieldset>
      ${this.renderError('tag')}
      <div class="actions">
        <button type="submit" class="primary" part="button primary" aria-disabled=${ariaDisabled(this.busy.has('tag'))}>
          ${d.uuid ? s.save : s.createTag}
        </button>
        ${
          d.uuid
            ? html`<button type="button" part="button" @click=${this.handleCancelClick}>${s.cancel}</button>`
            : nothing
        }
        <span role="status" class="ok">${this.saved ? s.saved : ''}</span>
      </div>
    </form>`;
  }
}
