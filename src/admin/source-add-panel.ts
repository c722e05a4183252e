import { css, html, nothing } from 'lit';
import { query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { DataSource } from '../api/types.js';
import { emit } from '../ui/events.js';
import { formatSize } from '../ui/format-size.js';
import { fill } from '../ui/i18n.js';
import { focusFirstInvalid } from './field-problems.js';
import { errorText } from './format.js';
import { AdminPanel, ariaDisabled } from './panel.js';
import { qaProblems, renderQaFields } from './qa-from-exchange.js';
import { panelStyles } from './styles.js';

interface UploadItem {
  id: number;
  name: string;
  size: number;
  loaded: number;
  state: 'queued' | 'uploading' | 'done' | 'failed';
  message: string;
}

/**
 * The file types the server reads (src/server/knowledge/parse.ts, `fileKind`), offered by the
 * picker; a dropped file of another type is still sent, and refused with the server's reason.
 */
const ACCEPT = '.txt,.text,.md,.markdown,.html,.htm,.pdf,.docx,.csv,.json';

/** Parallel uploads: enough to overlap latency, few enough not to starve the rest of the page. */
const UPLOAD_CONCURRENCY = 3;

let nextUploadId = 1;

/**
 * Adds data sources: files (picker or drag and drop, one progress bar each), a Q&A pair, or
 * URLs one per line. Each created record is announced with `admin-sources-added` so the table
 * shows it at once.
 *
 * @fires admin-sources-added - (internal) `detail` is the list of created records.
 */
export class AdminSourceAddPanel extends AdminPanel {
  static override styles = [
    panelStyles,
    css`
      .grid {
        display: grid;
        /* One card a row once 16em no longer fits (a phone), rather than a card wider than
           the panel. */
        grid-template-columns: repeat(auto-fit, minmax(min(16em, 100%), 1fr));
        gap: 12px;
        margin-bottom: 12px;
      }
      .grid > * {
        margin: 0;
      }
      .dropzone {
        border: 2px dashed var(--_border);
        border-radius: calc(var(--_radius) / 2);
        padding: 12px;
        text-align: center;
        margin-bottom: 8px;
      }
      .dropzone.over {
        border-color: var(--_accent);
        background: color-mix(in srgb, var(--_accent) 8%, transparent);
      }
      /* The file's name first, whatever else the row holds: its progress, or its Dismiss
         button with the reason it failed on a line of its own below, however long. */
      .uploads li {
        display: grid;
        grid-template-columns: minmax(0, 1fr) auto;
        align-items: center;
        gap: 2px 8px;
        margin: 6px 0;
      }
      .uploads progress,
      .uploads .failed {
        grid-column: 1 / -1;
      }
      .uploads progress {
        width: 100%;
        accent-color: var(--_accent);
      }
      .uploads .failed {
        color: var(--_danger);
        margin: 0;
        overflow-wrap: anywhere;
      }
      .uploads .dismiss {
        padding: 1px 8px;
      }
      .uploads .done {
        color: var(--_success);
      }
      .file-name {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
    `,
  ];

  @state() private uploads: UploadItem[] = [];
  @state() private dragOver = false;
  @state() private referenceLink = '';
  @state() private question = '';
  @state() private answer = '';
  /** Set by a refused Q&A submit: each blank field shows its message from then on. */
  @state() private qaChecked = false;
  @state() private urls = '';
  @state() private urlErrors: string[] = [];
  @state() private urlsAdded = 0;

  @query('input[type=file]') private fileInput?: HTMLInputElement;

  private added(records: DataSource[]): void {
    emit(this, 'admin-sources-added', records, { composed: false });
  }

  private patchUpload(id: number, patch: Partial<UploadItem>): void {
    this.uploads = this.uploads.map((u) => (u.id === id ? { ...u, ...patch } : u));
  }

  /** Uploads every file with its own progress bar; one file's failure does not stop the rest. */
  async uploadFiles(files: File[]): Promise<void> {
    const client = this.client;
    const chatbot = this.chatbot;
    if (!client || !chatbot || files.length === 0) return;
    const items = files.map((file) => ({
      file,
      item: {
        id: nextUploadId++,
        name: file.name,
        size: file.size,
        loaded: 0,
        state: 'queued' as UploadItem['state'],
        message: '',
      },
    }));
    // Finished rows of earlier batches go; failed ones stay until the user has seen them.
    this.uploads = [...this.uploads.filter((u) => u.state !== 'done'), ...items.map((i) => i.item)];
    const referenceSourceLink = this.referenceLink.trim() || undefined;
    const queue = [...items];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { file, item } = next;
        this.patchUpload(item.id, { state: 'uploading' });
        try {
          const record = await client.sources.upload(chatbot.uuid, file, {
            referenceSourceLink,
            onProgress: ({ loaded }) => this.patchUpload(item.id, { loaded }),
          });
          this.patchUpload(item.id, { state: 'done', loaded: file.size });
          this.added([record]);
        } catch (error) {
          const message = errorText(error, this.strings);
          this.patchUpload(item.id, { state: 'failed', message });
          this.fail(`upload-${item.id}`, 'sources.upload', error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, items.length) }, worker));
  }

  /** Takes a failed upload's row away, once its reason has been read. */
  private handleDismiss(item: UploadItem): void {
    void this.removeRow('.uploads li', '.dropzone button', () => {
      this.uploads = this.uploads.filter((u) => u.id !== item.id);
      this.clearError(`upload-${item.id}`);
    });
  }

  private handleFileChange(event: Event): void {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = '';
    void this.uploadFiles(files);
  }

  private handleDragOver(event: DragEvent): void {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    this.dragOver = true;
  }

  private handleDrop(event: DragEvent): void {
    event.preventDefault();
    this.dragOver = false;
    void this.uploadFiles([...(event.dataTransfer?.files ?? [])]);
  }

  private async handleQaSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const client = this.client;
    const chatbot = this.chatbot;
    if (!client || !chatbot) return;
    const question = this.question.trim();
    const answer = this.answer.trim();
    if (Object.keys(qaProblems(question, answer, true, this.strings, this.lang)).length > 0) {
      this.qaChecked = true;
      return focusFirstInvalid(this, event.target as HTMLFormElement);
    }
    const result = await this.run('qa', 'sources.createQa', () =>
      client.sources.createQa(chatbot.uuid, { question, answer }),
    );
    if (!result.ok) return;
    this.question = '';
    this.answer = '';
    // The emptied form is a fresh one, not a refused one.
    this.qaChecked = false;
    this.added([result.value]);
  }

  private async handleUrlsSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const client = this.client;
    const chatbot = this.chatbot;
    if (!client || !chatbot) return;
    const lines = [
      ...new Set(
        this.urls
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean),
      ),
    ];
    if (lines.length === 0) return;
    this.urlErrors = [];
    this.urlsAdded = 0;
    const failed: string[] = [];
    const messages: string[] = [];
    const created: DataSource[] = [];
    const result = await this.run('urls', 'sources.createUrl', async () => {
      for (const url of lines) {
        try {
          created.push(await client.sources.createUrl(chatbot.uuid, { url }));
        } catch (error) {
          failed.push(url);
          messages.push(
            fill(this.strings.urlFailed, { url, message: errorText(error, this.strings) }),
          );
          this.fail('url-item', 'sources.createUrl', error);
        }
      }
    });
    if (!result.ok) return;
    // Only the addresses that failed stay in the field, so the user can fix them and resend.
    this.urls = failed.join('\n');
    this.urlErrors = messages;
    this.urlsAdded = created.length;
    if (created.length) this.added(created);
  }

  override render() {
    const s = this.strings;
    return html`<div class="grid">
      ${this.renderUpload()}
      <form class="card" part="form card" aria-labelledby="qa-heading" @submit=${this.handleQaSubmit} novalidate>
        <h3 id="qa-heading">${s.addQa}</h3>
        ${renderQaFields({
          id: 'qa',
          question: this.question,
          answer: this.answer,
          checked: this.qaChecked,
          rows: 3,
          strings: s,
          lang: this.lang,
          onInput: (field, value) => {
            this[field] = value;
          },
        })}
        ${this.renderError('qa')}
        <div class="actions">
          <button type="submit" class="primary" part="button primary" aria-disabled=${ariaDisabled(this.busy.has('qa'))}>
            ${s.addQa}
          </button>
        </div>
      </form>
      <form class="card" part="form card" aria-labelledby="url-heading" @submit=${this.handleUrlsSubmit} novalidate>
        <h3 id="url-heading">${s.addUrls}</h3>
        <label
          >${s.url}<textarea
            part="input"
            name="url"
            rows="3"
            spellcheck="false"
            aria-describedby="url-help"
            placeholder="https://example.com/page"
            .value=${this.urls}
            @input=${(e: Event) => {
              this.urls = (e.target as HTMLTextAreaElement).value;
            }}
          ></textarea>
        </label>
        <p class="help" id="url-help">${s.urlHelp}</p>
        ${
          this.urlErrors.length
            ? html`<div class="error" part="error" role="alert">
                ${this.urlErrors.map((m) => html`<p class="user-text">${m}</p>`)}
              </div>`
            : nothing
        }
        <div class="actions">
          <button type="submit" class="primary" part="button primary" aria-disabled=${ariaDisabled(this.busy.has('urls'))}>
            ${s.addUrls}
          </button>
          <span role="status" class="ok">${this.urlsAdded ? fill(s.urlsAdded, { count: this.urlsAdded }) : ''}</span>
        </div>
      </form>
    </div>`;
  }

  private renderUpload() {
    const s = this.strings;
    return html`<section class="card" part="card" aria-labelledby="upload-heading">
      <h3 id="upload-heading">${s.uploadFiles}</h3>
      <div
        class="dropzone ${this.dragOver ? 'over' : ''}"
        part="dropzone"
        @dragover=${this.handleDragOver}
        @dragleave=${() => {
          this.dragOver = false;
        }}
        @drop=${this.handleDrop}
      >
        <p class="help">${s.dropFiles}</p>
        <input type="file" multiple hidden accept=${ACCEPT} @change=${this.handleFileChange} />
        <button type="button" class="primary" part="button primary" @click=${() => this.fileInput?.click()}>
          ${s.uploadFiles}
        </button>
      </div>
      <label
        >${s.referenceLink}<input
          part="input"
          name="reference-link"
          type="url"
          .value=${this.referenceLink}
          @input=${(e: Event) => {
            this.referenceLink = (e.target as HTMLInputElement).value;
          }}
      /></label>
      <ul class="plain uploads" aria-live="polite">
        ${repeat(
          this.uploads,
          (u) => u.id,
          (u) => html`<li>
            <span class="file-name user-text" title=${u.name} dir="auto">${u.name}</span>
            ${
              u.state === 'failed'
                ? html`<button
                      type="button"
                      class="dismiss"
                      part="button"
                      aria-label=${fill(s.dismissUpload, { name: u.name })}
                      @click=${() => this.handleDismiss(u)}
                    >
                      ${s.dismiss}
                    </button>
                    <p class="failed">${fill(s.uploadFailed, { message: u.message })}</p>`
                : html`<span class=${u.state}
                      >${
                        u.state === 'done'
                          ? s.uploadDone
                          : `${formatSize(u.loaded, this.lang)} / ${formatSize(u.size, this.lang)}`
                      }</span
                    >
                    <progress
                      part="progress"
                      max=${u.size || 1}
                      .value=${u.state === 'done' ? u.size || 1 : u.loaded}
                      aria-label=${fill(s.uploading, { name: u.name })}
                    ></progress>`
            }
          </li>`,
        )}
      </ul>
    </section>`;
  }
}
