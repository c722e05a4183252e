import type { IncomingMessage, ServerResponse } from 'node:http';

export function handleFixture(req: IncomingMessage, res: ServerResponse): Promise<void>;
