// The admin's controllers are tested on the same bare host as the chat's.
export { TestHost as BareHost } from '../ui/test-host.js';
