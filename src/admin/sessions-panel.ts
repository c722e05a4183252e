import { Task } from '@lit/task';
import { css, html, nothing, type PropertyValues } from 'lit';
import { state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { Chatbot, ChatSession, CiteData, Message, SessionSummary } from '../api/types.js';
import { fill } from '../ui/i18n.js';
import { formatDate, parseJson } from './format.js';
import { AdminPanel } from './panel.js';
import { panelStyles } from './styles.js';

const shorten = (text: string, max = 60) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/** Sessions of the selected chatbot: list, stored data, transcript with citations, deletes. */
export class AdminSessionsPanel extends AdminPanel {
  static override styles = [
    panelStyles,
    css`
      .layout {
        display: grid;
        grid-template-columns: minmax(14rem, 1fr) minmax(0, 2.2fr);
        gap: 12px;
        align-items: start;
      }
      @media (max-width: 800px) {
        .layout {
          grid-template-columns: minmax(0, 1fr);
        }
      }
      .sessions li {
        display: flex;
        gap: 6px;
        align-items: center;
        padding: 6px 0;
        border-bottom: 1px solid var(--_border);
      }
      .sessions li[aria-current='true'] {
        box-shadow: inset 3px 0 0 var(--_accent);
        padding-left: 8px;
      }
      .sessions .when {
        flex: 1;
        font-size: 0.9em;
      }
      .exchange {
        border-bottom: 1px solid var(--_border);
        padding: 8px 0;
      }
      .speaker {
        font-weight: 600;
        font-size: 0.85em;
        color: var(--_muted);
        margin: 6px 0 2px;
      }
      .bubble {
        background: var(--_surface-2);
        border-radius: 8px;
        padding: 6px 10px;
        margin: 0;
      }
      dl.data {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 2px 10px;
        margin: 0;
      }
      dl.data dt {
        color: var(--_muted);
      }
      dl.data dd {
        margin: 0;
      }
      ol.citations {
        margin: 4px 0 0;
        padding-left: 1.6em;
        font-size: 0.9em;
      }
    `,
  ];

  @state() private sessions: SessionSummary[] = [];
  @state() private openUuid: string | null = null;
  @state() private messages: Message[] = [];
  /** The open session as last loaded: kept on screen while it loads again. */
  @state() private session?: ChatSession;

  private readonly sessionsTask = this.chatbotList(
    (client, uuid, signal) => client.sessions.list(uuid, { signal }),
    (sessions) => {
      this.sessions = [...sessions].sort((a, b) => b.modified_at.localeCompare(a.modified_at));
    },
  );

  private readonly detailTask = new Task(this, {
    task: async ([client, uuid], { signal }) => {
      if (!client || !uuid) return undefined;
      const [session, messages] = await this.settled(() =>
        Promise.all([
          client.sessions.get(uuid, { signal }),
          client.messages.list(uuid, { signal }),
        ]),
      );
      return { session, messages };
    },
    args: () => [this.client, this.openUuid] as const,
    onComplete: (detail) => {
      this.session = detail?.session;
      this.messages = detail?.messages ?? [];
    },
  });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (
      changed.has('chatbot') &&
      (changed.get('chatbot') as Chatbot | undefined)?.uuid !== this.chatbot?.uuid
    ) {
      this.openUuid = null;
    }
  }

  /** Reloads the sessions and the open transcript. */
  override refresh(): void {
    void this.sessionsTask.run();
    if (this.openUuid) void this.detailTask.run();
  }

  private async handleDeleteSession(session: SessionSummary): Promise<void> {
    const client = this.client;
    if (!client) return;
    const date = formatDate(session.created_at, this.lang);
    if (!(await this.confirm.ask(fill(this.strings.confirmDeleteSession, { date })))) return;
    const before = this.sessions;
    this.sessions = this.sessions.filter((s) => s.uuid !== session.uuid);
    const wasOpen = this.openUuid === session.uuid;
    if (wasOpen) this.openUuid = null;
    const result = await this.run('sessions', 'sessions.delete', () =>
      client.sessions.delete(session.uuid),
    );
    if (!result.ok) {
      this.sessions = before;
      if (wasOpen) this.openUuid = session.uuid;
      return;
    }
    this.changed({ kind: 'session', action: 'delete', uuids: [session.uuid] });
  }

  private async handleDeleteMessage(message: Message): Promise<void> {
    const client = this.client;
    if (!client) return;
    const name = shorten(message.query || message.response);
    if (!(await this.confirm.ask(fill(this.strings.confirmDeleteMessage, { name })))) return;
    const before = this.messages;
    this.messages = this.messages.filter((m) => m.uuid !== message.uuid);
    const result = await this.run('transcript', 'messages.delete', () =>
      client.messages.delete(message.uuid),
    );
    if (!result.ok) {
      this.messages = before;
      return;
    }
    this.changed({ kind: 'message', action: 'delete', uuids: [message.uuid] });
  }

  override render() {
    const s = this.strings;
    const status = this.sessionsTask.render({
      pending: () => (this.sessions.length ? nothing : this.renderPending()),
      error: (error) => this.renderLoadError(error, () => this.sessionsTask.run()),
      complete: () => (this.sessions.length ? nothing : html`<p class="empty">${s.noSessions}</p>`),
    });
    return html`<div class="layout">
        <section class="card" part="card" aria-labelledby="sessions-heading">
          <h2 id="sessions-heading">${s.sessions}</h2>
          ${status} ${this.renderError('sessions')}
          <ul class="plain sessions">
            ${repeat(
              this.sessions,
              (session) => session.uuid,
              (session) => this.renderSession(session),
            )}
          </ul>
        </section>
        ${this.openUuid ? this.renderDetail() : nothing}
      </div>
      ${this.confirm.render()}`;
  }

  private renderSession(session: SessionSummary) {
    const s = this.strings;
    const created = formatDate(session.created_at, this.lang);
    return html`<li aria-current=${session.uuid === this.openUuid ? 'true' : 'false'}>
      <span class="when">
        ${created}<br /><span class="muted"
          >${fill(s.modified, { date: formatDate(session.modified_at, this.lang) })}</span
        >
      </span>
      <button
        type="button"
        part="button"
        aria-label=${fill(s.openSession, { date: created })}
        @click=${() => {
          this.openUuid = session.uuid;
        }}
      >
        ${s.open}
      </button>
      <button
        type="button"
        class="danger"
        part="button danger"
        aria-label=${`${s.deleteSession} ${created}`}
        @click=${() => this.handleDeleteSession(session)}
      >
        ${s.delete}
      </button>
    </li>`;
  }

  private renderDetail() {
    const s = this.strings;
    return html`<section class="card" part="card" aria-labelledby="detail-heading">
      <h2 id="detail-heading">${s.transcript}</h2>
      ${this.detailTask.render({
        pending: () => (this.shownSession() ? nothing : this.renderPending()),
        error: (error) => this.renderLoadError(error, () => this.detailTask.run()),
      })}
      ${this.renderTranscript()}
    </section>`;
  }

  /** The loaded session, if it is the open one. */
  private shownSession(): ChatSession | undefined {
    return this.session?.uuid === this.openUuid ? this.session : undefined;
  }

  private renderTranscript() {
    const s = this.strings;
    const session = this.shownSession();
    if (!session) return nothing;
    const data = Object.entries(session.meta ?? {});
    return html`
      <h3>${s.storedData}</h3>
      ${
        data.length
          ? html`<dl class="data">
              ${data.map(
                ([k, v]) => html`<dt class="user-text">${k}</dt>
                  <dd class="user-text">${String(v)}</dd>`,
              )}
            </dl>`
          : html`<p class="empty">${s.noStoredData}</p>`
      }
      <h3>${s.transcript}</h3>
      ${this.renderError('transcript')}
      <div part="transcript" role="log" aria-label=${s.transcript}>
        ${
          this.messages.length
            ? repeat(
                this.messages,
                (m) => m.uuid,
                (m) => this.renderExchange(m),
              )
            : html`<p class="empty">${s.noMessages}</p>`
        }
      </div>
      <div class="actions">
        <button
          type="button"
          class="danger"
          part="button danger"
          @click=${() => {
            const summary = this.sessions.find((x) => x.uuid === session.uuid) ?? session;
            void this.handleDeleteSession(summary);
          }}
        >
          ${s.deleteSession}
        </button>
      </div>
    `;
  }

  private renderExchange(message: Message) {
    const s = this.strings;
    const cites = Object.entries(parseJson<CiteData>(message.cite_data_json) ?? {}).sort(
      ([a], [b]) => Number(a) - Number(b),
    );
    return html`<article class="exchange" part="exchange" aria-label=${shorten(message.query)}>
      <p class="speaker">${s.you} · ${formatDate(message.created_at, this.lang)}</p>
      <p class="bubble user-text" part="message user-message">${message.query}</p>
      <p class="speaker">${s.bot}</p>
      <p class="bubble user-text" part="message assistant-message">${message.response}</p>
      ${message.finish_reason === 'length' ? html`<p class="muted">${s.cutShort}</p>` : nothing}
      ${message.error_message ? html`<p class="error user-text">${message.error_message}</p>` : nothing}
      ${
        cites.length
          ? html`<div part="sources">
              <p class="speaker">${s.citations}</p>
              <ol class="citations">
                ${cites.map(
                  ([n, c]) => html`<li value=${Number(n) || nothing}>
                    <span class="user-text">${c.title || c.file_name}</span>
                    ${c.text ? html`<details><summary>${c.file_name || c.type}</summary><p class="user-text">${c.text}</p></details>` : nothing}
                  </li>`,
                )}
              </ol>
            </div>`
          : nothing
      }
      <div class="actions">
        <button
          type="button"
          class="danger"
          part="button danger"
          aria-label=${`${s.deleteMessage}: ${shorten(message.query)}`}
          @click=${() => this.handleDeleteMessage(message)}
        >
          ${s.deleteMessage}
        </button>
      </div>
    </article>`;
  }
}
