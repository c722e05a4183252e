import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ClientOptions } from '../api/client.js';

/** An element configured by `base-url` and `api-key`, or given a ready client. */
export interface ClientHost<C> extends ReactiveControllerHost {
  baseUrl: string;
  apiKey: string;
  client?: C;
}

/**
 * The API client an element uses: its `client` property when set, otherwise one built from
 * `base-url` and `api-key` and kept until either changes, so every request of the element shares
 * one client (and its retry state) instead of building one per call.
 */
export class ClientController<C> implements ReactiveController {
  private memo?: { key: string; client?: C };

  constructor(
    private readonly host: ClientHost<C>,
    private readonly create: (options: ClientOptions) => C,
  ) {
    host.addController(this);
  }

  /** The client, or undefined while the element has neither `client` nor both attributes. */
  get value(): C | undefined {
    const { client, baseUrl, apiKey } = this.host;
    if (client) return client;
    if (!baseUrl || !apiKey) return undefined;
    const key = `${baseUrl}\n${apiKey}`;
    if (this.memo?.key !== key) {
      this.memo = { key };
      // An address the client cannot use ("localhost:8787") leaves the element unconfigured,
      // which it says in its own way; the developer's console says why.
      try {
        this.memo.client = this.create({ baseUrl, apiKey });
      } catch (error) {
        console.error(error);
      }
    }
    return this.memo.client;
  }

  hostConnected(): void {}
}
