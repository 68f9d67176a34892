export * from './names.js';
export * from './schemas.js';
