// The libraries the gate wraps, each with the portal's settings.
export { default as cookie } from './cookie.js';
export { default as helmet } from './helmet.js';
export { default as rateLimit } from './rate-limit.js';
export { default as swagger } from './swagger.js';
