export * from './names.js';
export * from './schemas.js';
export * from './access-requests.js';
export * from './whats-new.js';
